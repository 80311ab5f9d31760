// The super admin's End Users and Admin Team screens (roles doc §2.11, §5, §8; accounts doc §7
// "Change a user's role"). Lists read across tenants through the audited platform scope; every
// change runs inside withTenant for the account's own organization and writes an audit event
// there, naming the super admin as the actor.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { prepareSetPasswordEmail } from '#app/auth/created-account.server'
import { hashPassword } from '#app/auth/password.server'
import type { Role } from '#app/auth/roles'
import { recordAudit } from '#app/models/audit.server'
import {
  countEndUsersForPlatform,
  deleteAccount,
  type EndUserFilter,
  listEndUsersForPlatform,
  listOrganizationChoices,
  listStaff,
  lockSuperAdmins,
  type PersonRow,
  STAFF_ROLES,
  type StaffRole,
  updateAccount,
} from '#app/models/people.server'
import { deleteUserSessions } from '#app/models/sessions.server'
import {
  createUser,
  findUserByEmail,
  findUserById,
  normalizeEmail,
  type User,
} from '#app/models/users.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import { rolesFor, STAFF_TITLES, type StaffTitle } from '#app/validation/people'
import { splitName } from '#app/validation/text'
import {
  type PlatformScopeGrant,
  type Transaction,
  withPlatformScope,
  withTenant,
} from '#drizzle/db.server'
import { organizations } from '#drizzle/schema'

/** A refusal the screen shows next to the field it concerns, or above the form. */
export class PeopleActionError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
    readonly field?: 'email' | 'role' | 'organizationId' | 'password' | 'access',
  ) {
    super(message)
  }
}

export const USER_NOT_FOUND = 'User not found'
export const EMAIL_TAKEN = 'An account with this email already exists in this organization'
export const LAST_SUPER_ADMIN = 'The platform must keep at least one super admin'

export type Admin = {
  tenant: Tenant
  user: User
  session: { sessionId: string }
  platformScope: PlatformScopeGrant
}

export const roleLabel = (role: Role) => ROLE_BADGES[role].label

/** The person as the screens show them. */
export function toPerson(row: PersonRow) {
  return {
    id: row.id,
    name: `${row.firstName} ${row.lastName}`.trim() || row.email,
    email: row.email,
    organizationId: row.organizationId,
    agency: row.organizationName ?? '',
    role: row.role,
    status: row.status,
    staffTitle: row.staffTitle,
    lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
  }
}
export type Person = ReturnType<typeof toPerson>

export function readAgencyChoices(admin: Admin) {
  return withPlatformScope(admin.platformScope, 'agency choices', (tx) =>
    listOrganizationChoices(tx),
  )
}

export type { EndUserFilter }

async function findOrganization(tx: Transaction, organizationId: string) {
  const [row] = await tx
    .select({
      id: organizations.id,
      kind: organizations.kind,
      name: organizations.name,
      slug: organizations.slug,
      primaryColor: organizations.primaryColor,
      customDomain: organizations.customDomain,
      customDomainVerifiedAt: organizations.customDomainVerifiedAt,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1)
  return row
}

/** The account in its organization, if it has one of `roles`. */
async function requireAccount(
  tx: Transaction,
  organizationId: string,
  userId: string,
  roles: readonly Role[],
) {
  const account = await findUserById(tx, organizationId, userId)
  if (!account || !roles.includes(account.role)) throw new PeopleActionError(404, USER_NOT_FOUND)
  return account
}

async function assertEmailFree(
  tx: Transaction,
  organizationId: string,
  email: string,
  exceptUserId?: string,
) {
  const existing = await findUserByEmail(tx, organizationId, email)
  if (existing && existing.id !== exceptUserId) {
    throw new PeopleActionError(409, EMAIL_TAKEN, 'email')
  }
}

/** A write that loses a race for an email to another one answers like the check above. */
async function catchingTakenEmail<T>(work: () => Promise<T>) {
  try {
    return await work()
  } catch (error) {
    if (isUniqueViolation(error)) throw new PeopleActionError(409, EMAIL_TAKEN, 'email')
    throw error
  }
}

/**
 * Protects the platform's administration: nobody demotes or deletes themselves, and the
 * platform keeps at least one super admin (the check holds the super admins' rows locked).
 */
async function assertMayLoseSuperAdmin(
  tx: Transaction,
  admin: Admin,
  account: User,
  what: 'demote' | 'delete',
) {
  if (account.id === admin.user.id) {
    throw new PeopleActionError(
      403,
      what === 'delete' ? 'You cannot delete your own account' : 'You cannot change your own role',
      what === 'delete' ? undefined : 'role',
    )
  }
  if (account.role !== 'super_admin') return
  const superAdmins = await lockSuperAdmins(tx, account.organizationId)
  if (superAdmins.filter((id) => id !== account.id).length === 0) {
    throw new PeopleActionError(409, LAST_SUPER_ADMIN, what === 'delete' ? undefined : 'role')
  }
}

async function audit(
  tx: Transaction,
  admin: Admin,
  account: { id: string; organizationId: string },
  action: string,
  metadata: Record<string, unknown> = {},
) {
  await recordAudit(tx, account.organizationId, {
    actorUserId: admin.user.id,
    action,
    entityType: 'user',
    entityId: account.id,
    metadata: { ...metadata, actorOrganizationId: admin.tenant.id },
  })
}

/** A password nobody knows: an account added without one sets its own through "Forgot password". */
const unusablePassword = () => hashPassword(randomBytes(32).toString('base64url'))

// --- End Users --------------------------------------------------------------------------------

export async function addEndUser(
  admin: Admin,
  input: { name: string; email: string; organizationId: string; active: boolean },
) {
  const email = normalizeEmail(input.email)
  const passwordHash = await unusablePassword()
  const sendEmail = await catchingTakenEmail(() =>
    withTenant(input.organizationId, async (tx) => {
      const organization = await findOrganization(tx, input.organizationId)
      if (!organization) {
        throw new PeopleActionError(404, 'Please select an agency', 'organizationId')
      }
      await assertEmailFree(tx, organization.id, email)
      const created = await createUser(tx, organization.id, {
        ...splitName(input.name),
        email,
        password: '',
        passwordHash,
        role: 'end_user',
        emailConfirmedAt: null,
      })
      if (!input.active)
        await updateAccount(tx, organization.id, created.id, { status: 'inactive' })
      await audit(tx, admin, created, 'user.created', { role: 'end_user', active: input.active })
      // An active account's owner chooses a password from an emailed link (an inactive one
      // cannot sign in, so gets nothing yet).
      return input.active
        ? prepareSetPasswordEmail(
            tx,
            {
              ...organization,
              customDomain: organization.customDomainVerifiedAt ? organization.customDomain : null,
              logoUrl: null,
            },
            created,
            `${admin.user.firstName} ${admin.user.lastName}`.trim() || admin.tenant.name,
          )
        : null
    }),
  )
  sendEmail?.()
  return 'User added'
}

export async function editEndUser(
  admin: Admin,
  input: { organizationId: string; userId: string; name: string; email: string; active: boolean },
) {
  const { organizationId } = input
  const email = normalizeEmail(input.email)
  await catchingTakenEmail(() =>
    withTenant(organizationId, async (tx) => {
      const account = await requireAccount(tx, organizationId, input.userId, ['end_user'])
      await assertEmailFree(tx, organizationId, email, account.id)
      const status = input.active ? 'active' : 'inactive'
      await updateAccount(tx, organizationId, account.id, {
        ...splitName(input.name),
        email,
        status,
        // A new address is unconfirmed until its owner follows the confirmation link.
        ...(email !== account.email ? { emailConfirmedAt: null } : {}),
      })
      if (status === 'inactive') await deleteUserSessions(tx, organizationId, account.id)
      await audit(tx, admin, account, 'user.updated', {
        emailChanged: email !== account.email,
        ...(status !== account.status ? { status: { from: account.status, to: status } } : {}),
      })
    }),
  )
  return 'User updated'
}

/** Spec §4: Activate and Deactivate. A deactivated user's sessions end at once. */
export async function setEndUserStatus(
  admin: Admin,
  input: { organizationId: string; userId: string; status: 'active' | 'inactive' },
) {
  const { organizationId } = input
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, ['end_user'])
    await updateAccount(tx, organizationId, account.id, { status: input.status })
    if (input.status === 'inactive') await deleteUserSessions(tx, organizationId, account.id)
    await audit(
      tx,
      admin,
      account,
      input.status === 'active' ? 'user.activated' : 'user.deactivated',
    )
  })
  return input.status === 'active' ? 'User activated' : 'User deactivated'
}

export async function deleteEndUser(
  admin: Admin,
  { organizationId, userId }: { organizationId: string; userId: string },
) {
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, userId, ['end_user'])
    await deleteAccount(tx, organizationId, account.id)
    await audit(tx, admin, account, 'user.deleted', { email: account.email })
  })
  return 'User removed'
}

/**
 * Accounts doc §7 "Change a user's role", from either screen: an end user's (End Users) or a
 * staff account's (Admin Team). Super admin roles exist on the platform organization only.
 */
export async function changeAccountRole(
  admin: Admin,
  input: { organizationId: string; userId: string; role: Role },
  from: readonly Role[],
) {
  const { organizationId } = input
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, from)
    const organization = await findOrganization(tx, organizationId)
    if (!organization || !rolesFor(organization.kind).includes(input.role)) {
      throw new PeopleActionError(400, 'This role is not available in this organization', 'role')
    }
    if (account.role === input.role) {
      throw new PeopleActionError(400, `This user is already ${roleLabel(input.role)}`, 'role')
    }
    if (input.role !== 'super_admin') await assertMayLoseSuperAdmin(tx, admin, account, 'demote')
    await updateAccount(tx, organizationId, account.id, {
      role: input.role,
      // A title belongs to platform staff only.
      ...(isStaffRole(input.role) ? {} : { staffTitle: null }),
    })
    // A new role is a new set of permissions: sessions opened under the old one end.
    await deleteUserSessions(tx, organizationId, account.id)
    await audit(tx, admin, account, 'user.role_changed', { from: account.role, to: input.role })
  })
  return `User role updated to ${roleLabel(input.role)} successfully`
}

// --- Admin Team -------------------------------------------------------------------------------

const isStaffRole = (role: Role): role is StaffRole =>
  (STAFF_ROLES as readonly Role[]).includes(role)

type StaffInput = {
  name: string
  email: string
  staffTitle: StaffTitle
  access: StaffRole
}

export async function addStaffMember(admin: Admin, input: StaffInput & { password: string }) {
  const email = normalizeEmail(input.email)
  const passwordHash = await hashPassword(input.password)
  const organizationId = admin.tenant.id
  await catchingTakenEmail(() =>
    withTenant(organizationId, async (tx) => {
      await assertEmailFree(tx, organizationId, email)
      const created = await createUser(tx, organizationId, {
        ...splitName(input.name),
        email,
        password: '',
        passwordHash,
        role: input.access,
        emailConfirmedAt: null,
      })
      await updateAccount(tx, organizationId, created.id, { staffTitle: input.staffTitle })
      await audit(tx, admin, created, 'staff.created', {
        role: input.access,
        staffTitle: input.staffTitle,
      })
    }),
  )
  return 'Team member added successfully'
}

/** Spec §5: the password changes only when one is typed; the role keeps the protections. */
export async function editStaffMember(
  admin: Admin,
  input: StaffInput & { userId: string; password?: string },
) {
  const email = normalizeEmail(input.email)
  const passwordHash = input.password ? await hashPassword(input.password) : undefined
  const organizationId = admin.tenant.id
  await catchingTakenEmail(() =>
    withTenant(organizationId, async (tx) => {
      const account = await requireAccount(tx, organizationId, input.userId, STAFF_ROLES)
      await assertEmailFree(tx, organizationId, email, account.id)
      const roleChanged = account.role !== input.access
      if (roleChanged && input.access !== 'super_admin') {
        await assertMayLoseSuperAdmin(tx, admin, account, 'demote')
      }
      await updateAccount(tx, organizationId, account.id, {
        ...splitName(input.name),
        email,
        staffTitle: input.staffTitle,
        role: input.access,
        ...(passwordHash ? { passwordHash } : {}),
        ...(email !== account.email ? { emailConfirmedAt: null } : {}),
      })
      // A new password or role ends the account's other sessions (the editor's own stays).
      if (passwordHash || roleChanged) {
        await deleteUserSessions(
          tx,
          organizationId,
          account.id,
          account.id === admin.user.id ? admin.session.sessionId : undefined,
        )
      }
      await audit(tx, admin, account, 'staff.updated', {
        staffTitle: input.staffTitle,
        passwordChanged: Boolean(passwordHash),
        emailChanged: email !== account.email,
      })
      if (roleChanged) {
        await audit(tx, admin, account, 'user.role_changed', {
          from: account.role,
          to: input.access,
        })
      }
    }),
  )
  return 'Team member updated successfully'
}

export async function deleteStaffMember(admin: Admin, userId: string) {
  const organizationId = admin.tenant.id
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, userId, STAFF_ROLES)
    await assertMayLoseSuperAdmin(tx, admin, account, 'delete')
    await deleteAccount(tx, organizationId, account.id)
    await audit(tx, admin, account, 'staff.deleted', { email: account.email, role: account.role })
  })
  return 'Team member removed'
}

export { STAFF_TITLES }

// --- Lists ------------------------------------------------------------------------------------

export const LIST_LIMIT = 500
export const EXPORT_LIMIT = 10_000

export async function readEndUsers(admin: Admin, filter: EndUserFilter, limit = LIST_LIMIT) {
  return withPlatformScope(admin.platformScope, 'end users list', async (tx) => ({
    rows: await listEndUsersForPlatform(tx, filter, limit),
    total: await countEndUsersForPlatform(tx, filter),
  }))
}

export async function readStaff(admin: Admin, filter: { search: string; role: StaffRole | null }) {
  return withTenant(admin.tenant.id, (tx) => listStaff(tx, admin.tenant.id, filter))
}
