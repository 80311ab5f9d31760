// The End Users and staff screens (roles doc §2.11, §2.12, §5, §8; accounts doc §7 "Change a
// user's role"): the super admin's End Users and Admin Team, and an agency's End Users and Team
// Members. The super admin's lists read across tenants through the audited platform scope; an
// agency's read its own organization only. Every change runs inside withTenant for the
// account's own organization and writes an audit event there, naming the acting user.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { queueSetPasswordEmailIn } from '#app/auth/created-account.server'
import type { Actor } from '#app/auth/guards.server'
import { hashPassword } from '#app/auth/password.server'
import { MEMBER_PLAN_NAMES, type MemberPlanId, TEAM_MEMBER_BASIC } from '#app/billing/plan-limits'
import { assertEndUserSeat, assertStaffSeat } from '#app/billing/plan-limits.server'
import { recordAudit, recordOrganizationAudit } from '#app/models/audit.server'
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import {
  countEndUsersForPlatform,
  countOrganizationEndUsers,
  type EndUserFilter,
  listEndUsersForPlatform,
  listOrganizationChoices,
  listOrganizationEndUsers,
  listStaff,
  listSuccessorChoices,
  listTeamAdmins,
  lockActiveAgencyAdmins,
  lockSuperAdmins,
  type OrganizationEndUserFilter,
  type PersonRow,
  unassignEndUsersFrom,
  updateAccount,
} from '#app/models/people.server'
import { listSeatSuccessors } from '#app/models/seat-successors.server'
import { deleteUserSessions } from '#app/models/sessions.server'
import {
  createUser,
  findUserByEmail,
  findUserById,
  normalizeEmail,
  setMemberPlan,
  setUserPlan,
  type User,
} from '#app/models/users.server'
import {
  queueTeamMemberUpdateIn,
  type TeamMemberUpdate,
} from '#app/notifications/team-member-update.server'
import { removeAccount } from '#app/people/account-deletion.server'
import { offerPersonalCardIn, queueMovedNoticeIn } from '#app/people/personal-card.server'
import { clearSeatHandOver, handOverSeat } from '#app/people/seat-handover.server'
import { TEAM_PAGE_ROLES } from '#app/teams/team-access.server'
import { readLegalLinks } from '#app/tenancy/legal.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import { Refusal } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import { legalFor, NO_LEGAL_LINKS } from '#app/validation/legal'
import { STAFF_PASSWORD_TOO_SHORT } from '#app/validation/passwords'
import {
  AGENCY_STAFF_ACCESS,
  rolesFor,
  STAFF_DIRECTORIES,
  STAFF_TITLES,
  type StaffDirectoryName,
} from '#app/validation/people'
import { PERSONAL_CARD_OFFERED } from '#app/validation/personal-card'
import { PLANS, type PlanId } from '#app/validation/plans'
import type { Role } from '#app/validation/roles'
import { readSeatForwarding, type SeatForwarding } from '#app/validation/seat-forwarding'
import { splitName } from '#app/validation/text'
import { emitUserDeactivated } from '#app/webhooks/webhook-events.server'
import {
  type PlatformScopeGrant,
  type Transaction,
  withPlatformScope,
  withTenant,
} from '#drizzle/db.server'
import { organizations } from '#drizzle/schema'

export const USER_NOT_FOUND = 'User not found'
export const EMAIL_TAKEN = 'An account with this email already exists in this organization'
export const LAST_SUPER_ADMIN = 'The platform must keep at least one super admin'
export const NOT_A_TEAM_MEMBER = 'Please select a team member of this agency'
export const LAST_AGENCY_ADMIN = 'An agency must keep at least one active agency admin'

export type { Actor }

/** A super admin, who also reads across tenants. */
export type Admin = Actor & { platformScope: PlatformScopeGrant }

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
    plan: row.plan,
    memberPlan: row.memberPlan,
    staffTitle: row.staffTitle,
    assignedToUserId: row.assignedToUserId,
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
      whiteLabelActive: organizations.whiteLabelActive,
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
  if (!account || !roles.includes(account.role)) throw new Refusal('not_found', USER_NOT_FOUND)
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
    throw new Refusal('conflict', EMAIL_TAKEN, { field: 'email' })
  }
}

/** A write that loses a race for an email to another one answers like the check above. */
async function catchingTakenEmail<T>(work: () => Promise<T>) {
  try {
    return await work()
  } catch (error) {
    if (isUniqueViolation(error)) throw new Refusal('conflict', EMAIL_TAKEN, { field: 'email' })
    throw error
  }
}

/**
 * Protects the administration of an organization: nobody demotes, deactivates or deletes
 * themselves, the platform keeps at least one super admin, and an agency keeps at least one
 * active agency admin (its owner, who manages it). The checks hold the rows they count locked.
 */
async function assertMayLoseAccount(
  tx: Transaction,
  admin: Actor,
  account: User,
  what: 'demote' | 'deactivate' | 'delete',
) {
  const field = what === 'demote' ? 'role' : undefined
  if (account.id === admin.user.id) {
    throw new Refusal(
      'forbidden',
      what === 'delete'
        ? 'You cannot delete your own account'
        : what === 'deactivate'
          ? 'You cannot deactivate your own account'
          : 'You cannot change your own role',
      { field },
    )
  }
  if (account.role === 'super_admin') {
    const superAdmins = await lockSuperAdmins(tx, account.organizationId)
    if (superAdmins.filter((id) => id !== account.id).length === 0) {
      throw new Refusal('conflict', LAST_SUPER_ADMIN, { field })
    }
  }
  if (account.role === 'agency_admin' && account.status === 'active') {
    const organization = await findOrganization(tx, account.organizationId)
    if (organization?.kind !== 'agency') return
    const agencyAdmins = await lockActiveAgencyAdmins(tx, account.organizationId)
    if (agencyAdmins.filter((id) => id !== account.id).length === 0) {
      throw new Refusal('conflict', LAST_AGENCY_ADMIN, { field })
    }
  }
}

/**
 * What a new role changes besides the role: only end users are assigned to a team member, and
 * an account that stops being a team member (team_admin) leaves its end users unassigned (they
 * show as "Not assigned" for the agency to reassign). The audit metadata of the change.
 */
async function roleSideEffects(tx: Transaction, account: User, role: Role) {
  const unassigned =
    account.role === 'team_admin' && role !== 'team_admin'
      ? await unassignEndUsersFrom(tx, account.organizationId, account.id)
      : 0
  return {
    changes: role === 'end_user' ? {} : { assignedToUserId: null },
    metadata: unassigned > 0 ? { unassignedEndUsers: unassigned } : {},
  }
}

async function audit(
  tx: Transaction,
  admin: Actor,
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

/**
 * The team member an end user is assigned to (`users.assigned_to_user_id`, shown on their My End
 * Users): an account of the same organization with the role team_admin, else a field refusal.
 */
async function assertAssignee(
  tx: Transaction,
  organizationId: string,
  assigneeId: string | null,
  /** The team member the end user has now: staying with them takes no new seat. */
  currentAssigneeId: string | null = null,
) {
  if (!assigneeId) return
  const assignee = await findUserById(tx, organizationId, assigneeId)
  if (assignee?.role !== 'team_admin') {
    throw new Refusal('invalid', NOT_A_TEAM_MEMBER, { field: 'assignedToUserId' })
  }
  // The team member's plan caps how many end users they look after (ADR 051).
  if (assigneeId !== currentAssigneeId) {
    await assertEndUserSeat(tx, organizationId, assignee, 'assignedToUserId')
  }
}

/**
 * The links of the set-password email for an account added in `organization`: the acting
 * tenant's own when it is that organization, else (a super admin on the platform host) the
 * agency's, resolved as its host would with the platform's as defaults.
 */
async function legalOfAddedUser(
  tx: Transaction,
  admin: Actor,
  organization: { id: string; kind: 'platform' | 'agency'; whiteLabelActive: boolean },
) {
  if (admin.tenant.id === organization.id) return admin.tenant.legal
  const platformLegal = admin.tenant.kind === 'platform' ? admin.tenant.legal : NO_LEGAL_LINKS
  return legalFor(organization, await readLegalLinks(tx, organization.id), platformLegal)
}

const nameOf = (user: Pick<User, 'firstName' | 'lastName' | 'email'>) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email

/**
 * The tenant whose branding a notice to an account of `organizationId` wears: the actor's own,
 * or (a super admin on the platform host) the account's agency, read before the transaction.
 */
async function noticeTenant(admin: Actor, organizationId: string) {
  return organizationId === admin.tenant.id ? admin.tenant : await freshTenantOf(organizationId)
}

/**
 * Tells team members what this change did to their place (Team Updates, ADR 046), inside the
 * change's transaction; each notice decides on its own whether its person wants it.
 */
async function tellTeamMembers(
  tx: Transaction,
  tenant: Tenant | undefined,
  admin: Actor,
  notices: { userId: string | null | undefined; update: TeamMemberUpdate }[],
) {
  let queued = false
  for (const { userId, update } of notices) {
    if (!userId) continue
    const actor = { id: admin.user.id, name: nameOf(admin.user) }
    queued = (await queueTeamMemberUpdateIn(tx, tenant, { userId, update, actor })) || queued
  }
  return queued
}

/** The notices of an end user moving from one team member's list to another's. */
function reassignment(endUser: User, from: string | null, to: string | null) {
  const endUserName = nameOf(endUser)
  return [
    { userId: from, update: { kind: 'unassigned' as const, endUserName } },
    { userId: to, update: { kind: 'assigned' as const, endUserName } },
  ]
}

const isTeamMemberChange = (from: Role, to: Role) => from === 'team_admin' || to === 'team_admin'

// --- End Users --------------------------------------------------------------------------------

export async function addEndUser(
  admin: Actor,
  input: {
    name: string
    email: string
    organizationId: string
    active: boolean
    /** The team member to assign the user to (the agency's screen); none when absent. */
    assignedToUserId?: string | null
  },
) {
  const email = normalizeEmail(input.email)
  const passwordHash = await unusablePassword()
  const tenant = input.assignedToUserId
    ? await noticeTenant(admin, input.organizationId)
    : undefined
  await catchingTakenEmail(() =>
    withTenant(input.organizationId, async (tx) => {
      const organization = await findOrganization(tx, input.organizationId)
      if (!organization) {
        throw new Refusal('not_found', 'Please select an agency', { field: 'organizationId' })
      }
      await assertEmailFree(tx, organization.id, email)
      const assignedToUserId = input.assignedToUserId ?? null
      await assertAssignee(tx, organization.id, assignedToUserId)
      const created = await createUser(tx, organization.id, {
        ...splitName(input.name),
        email,
        passwordHash,
        role: 'end_user',
        emailConfirmedAt: null,
        assignedToUserId,
      })
      if (!input.active)
        await updateAccount(tx, organization.id, created.id, { status: 'inactive' })
      await audit(tx, admin, created, 'user.created', {
        role: 'end_user',
        active: input.active,
        ...(assignedToUserId ? { assignedToUserId } : {}),
      })
      await tellTeamMembers(tx, tenant, admin, reassignment(created, null, assignedToUserId))
      // An active account's owner chooses a password from an emailed link (an inactive one
      // cannot sign in, so gets nothing yet).
      if (!input.active) return
      await queueSetPasswordEmailIn(
        tx,
        {
          ...organization,
          customDomain: organization.customDomainVerifiedAt ? organization.customDomain : null,
          logoUrl: null,
          legal: await legalOfAddedUser(tx, admin, organization),
        },
        created,
        {
          name: `${admin.user.firstName} ${admin.user.lastName}`.trim() || admin.tenant.name,
          userId: admin.user.id,
        },
      )
    }),
  )
  return 'User added'
}

export async function editEndUser(
  admin: Actor,
  input: {
    organizationId: string
    userId: string
    name: string
    email: string
    active: boolean
    /** The agency's screen: the team member assigned (null: nobody); absent: unchanged. */
    assignedToUserId?: string | null
  },
  /** The roles the screen lists: the agency's End Users, end users; the super admin's, more. */
  roles: readonly Role[] = ['end_user'],
) {
  const { organizationId } = input
  const email = normalizeEmail(input.email)
  const tenant = await noticeTenant(admin, organizationId)
  await catchingTakenEmail(() =>
    withTenant(organizationId, async (tx) => {
      const account = await requireAccount(tx, organizationId, input.userId, roles)
      await assertEmailFree(tx, organizationId, email, account.id)
      if (!input.active && account.status === 'active') {
        await assertMayLoseAccount(tx, admin, account, 'deactivate')
      }
      const reassigned =
        account.role === 'end_user' &&
        input.assignedToUserId !== undefined &&
        input.assignedToUserId !== account.assignedToUserId
      if (reassigned) {
        await assertAssignee(
          tx,
          organizationId,
          input.assignedToUserId ?? null,
          account.assignedToUserId,
        )
      }
      const status = input.active ? 'active' : 'inactive'
      await updateAccount(tx, organizationId, account.id, {
        ...splitName(input.name),
        email,
        status,
        ...(reassigned ? { assignedToUserId: input.assignedToUserId ?? null } : {}),
        // A new address is unconfirmed until its owner follows the confirmation link.
        ...(email !== account.email ? { emailConfirmedAt: null } : {}),
      })
      if (status === 'inactive') await deleteUserSessions(tx, organizationId, account.id)
      await audit(tx, admin, account, 'user.updated', {
        emailChanged: email !== account.email,
        ...(status !== account.status ? { status: { from: account.status, to: status } } : {}),
        ...(reassigned
          ? { assignedToUserId: { from: account.assignedToUserId, to: input.assignedToUserId } }
          : {}),
      })
      await tellTeamMembers(tx, tenant, admin, [
        ...(reassigned
          ? reassignment(account, account.assignedToUserId, input.assignedToUserId ?? null)
          : []),
        ...(status !== account.status
          ? [
              {
                userId: account.id,
                update: { kind: status === 'active' ? 'reactivated' : 'deactivated' } as const,
              },
            ]
          : []),
      ])
    }),
  )
  return 'User updated'
}

/** The agency's End Users: assigns an end user to a team member (or to nobody). */
export async function assignEndUser(
  admin: Actor,
  input: { organizationId: string; userId: string; assignedToUserId: string | null },
) {
  const { organizationId, assignedToUserId } = input
  const tenant = await noticeTenant(admin, organizationId)
  const done = await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, ['end_user'])
    await assertAssignee(tx, organizationId, assignedToUserId, account.assignedToUserId)
    const assignee = assignedToUserId
      ? await findUserById(tx, organizationId, assignedToUserId)
      : undefined
    await updateAccount(tx, organizationId, account.id, { assignedToUserId })
    await audit(tx, admin, account, 'user.assigned', {
      from: account.assignedToUserId,
      to: assignedToUserId,
    })
    if (account.assignedToUserId !== assignedToUserId) {
      await tellTeamMembers(
        tx,
        tenant,
        admin,
        reassignment(account, account.assignedToUserId, assignedToUserId),
      )
    }
    return assignee ? `User assigned to ${nameOf(assignee)}` : 'User unassigned'
  })
  return done
}

/** Spec §4: Activate and Deactivate. A deactivated user's sessions end at once. */
export async function setEndUserStatus(
  admin: Actor,
  input: { organizationId: string; userId: string; status: 'active' | 'inactive' },
  roles: readonly Role[] = ['end_user'],
) {
  const { organizationId } = input
  const tenant = await noticeTenant(admin, organizationId)
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, roles)
    if (input.status === 'inactive' && account.status === 'active') {
      await assertMayLoseAccount(tx, admin, account, 'deactivate')
    }
    await updateAccount(tx, organizationId, account.id, { status: input.status })
    if (input.status === 'inactive') await deleteUserSessions(tx, organizationId, account.id)
    if (input.status === 'inactive' && account.status === 'active') {
      await emitUserDeactivated(tx, organizationId, account, 'admin')
      // A person who claimed a personal card has left now: their followers are told (ADR 103).
      await queueMovedNoticeIn(tx, organizationId, account.id)
    }
    await audit(
      tx,
      admin,
      account,
      input.status === 'active' ? 'user.activated' : 'user.deactivated',
    )
    if (input.status !== account.status) {
      await tellTeamMembers(tx, tenant, admin, [
        {
          userId: account.id,
          update: { kind: input.status === 'active' ? 'reactivated' : 'deactivated' },
        },
      ])
    }
  })
  return input.status === 'active' ? 'User activated' : 'User deactivated'
}

export async function deleteEndUser(
  admin: Actor,
  { organizationId, userId }: { organizationId: string; userId: string },
  roles: readonly Role[] = ['end_user'],
) {
  const tenant = await noticeTenant(admin, organizationId)
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, userId, roles)
    await assertMayLoseAccount(tx, admin, account, 'delete')
    await removeAccount(tx, organizationId, account.id, null)
    await audit(tx, admin, account, 'user.deleted', { email: account.email, role: account.role })
    if (account.role === 'end_user') {
      await tellTeamMembers(tx, tenant, admin, [
        {
          userId: account.assignedToUserId,
          update: { kind: 'end_user_removed', endUserName: nameOf(account) },
        },
      ])
    }
  })
  return 'User removed'
}

/**
 * Hand Over (issue 31 point 2, ADR 049): the agency names who takes over an end user's seat.
 * The person's card links forward to the successor's card while the person is inactive, and
 * their company contacts become the successor's, in one transaction with its audit event.
 */
export async function handOverEndUserSeat(
  admin: Actor,
  input: {
    organizationId: string
    userId: string
    successorId: string
    /** Offer the person a personal card on the platform's host (ADR 103). */
    offerPersonalCard?: boolean
  },
) {
  const { organizationId } = input
  const done = await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, ['end_user'])
    const handed = await handOverSeat(tx, {
      organizationId,
      userId: account.id,
      successorId: input.successorId,
      actorUserId: admin.user.id,
      actorOrganizationId: admin.tenant.id,
    })
    const offered =
      input.offerPersonalCard === true &&
      (await offerPersonalCardIn(tx, admin.tenant, account, admin.user.id))
    return { account, offered, ...handed }
  })
  const contacts = done.contactsMoved === 1 ? '1 contact' : `${done.contactsMoved} contacts`
  const handed = `${nameOf(done.account)}'s seat handed over to ${nameOf(done.successor)} (${contacts} moved)`
  return done.offered ? { toast: handed, description: PERSONAL_CARD_OFFERED } : handed
}

/**
 * Clear a successor (the forwarding overview, ADR 049): the person's card links answer the
 * agency's default again; what was handed over (the contacts) stays. Audited.
 */
export async function clearEndUserSuccessor(
  admin: Actor,
  input: { organizationId: string; userId: string },
) {
  const { organizationId } = input
  const account = await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, ['end_user'])
    await clearSeatHandOver(tx, {
      organizationId,
      userId: account.id,
      actorUserId: admin.user.id,
      actorOrganizationId: admin.tenant.id,
    })
    return account
  })
  return `${nameOf(account)}'s links now answer your agency's default`
}

/**
 * "When someone leaves" (ADR 049): what the links of a departed person's cards answer when no
 * successor with a card takes them, for the agency's own organization.
 */
export async function setSeatForwarding(admin: Actor, forwarding: SeatForwarding) {
  const organizationId = admin.tenant.id
  await withTenant(organizationId, async (tx) => {
    await saveOrganizationPreferences(tx, organizationId, { seatForwarding: forwarding })
    await recordOrganizationAudit(
      tx,
      organizationId,
      admin.user.id,
      'settings.seat_forwarding_updated',
      { kind: forwarding.kind },
    )
  })
  return 'Forwarding saved'
}

/** The agency's default forwarding and who may take a seat over (the End Users screen). */
export async function readSeatForwardingChoices(actor: Actor) {
  const organizationId = actor.tenant.id
  return withTenant(organizationId, async (tx) => ({
    forwarding: readSeatForwarding(
      (await getOrganizationPreferences(tx, organizationId)).seatForwarding,
    ),
    successors: (await listSuccessorChoices(tx, organizationId)).map((account) => ({
      id: account.id,
      name: nameOf(account),
    })),
    // Who forwards to whom: every handed-over seat, for the forwarding overview.
    handOvers: (await listSeatSuccessors(tx, organizationId)).map((row) => ({
      userId: row.userId,
      name: nameOf(row),
      status: row.status,
      successorName: nameOf({
        firstName: row.successorFirstName,
        lastName: row.successorLastName,
        email: row.successorEmail,
      }),
      successorActive: row.successorStatus === 'active',
      handedOverAt: row.handedOverAt.toISOString(),
    })),
  }))
}

/**
 * Change Plan: until a payment provider is connected, an agency admin (own end users) or a
 * platform admin (anyone's) is who grants a paid plan, or takes it back (issue 26 point 7:
 * no paid plan without payment). Only accounts with the team page have plans.
 */
export async function setAccountPlan(
  admin: Actor,
  input: { organizationId: string; userId: string; plan: PlanId },
) {
  const { organizationId } = input
  const plan = PLANS[input.plan]
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, TEAM_PAGE_ROLES)
    if (account.plan === input.plan) {
      throw new Refusal('conflict', `This account already has the ${plan.name} plan`, {
        field: 'plan',
      })
    }
    const updated = await setUserPlan(tx, organizationId, account.id, account.plan, input.plan)
    if (!updated) {
      throw new Refusal('conflict', 'The plan changed meanwhile: please try again', {
        field: 'plan',
      })
    }
    await audit(tx, admin, account, 'plan.granted', {
      from: account.plan,
      to: input.plan,
      priceUsd: plan.price,
      payment: 'granted by an admin',
    })
  })
  return `Plan changed to ${plan.name}`
}

/**
 * A team member's plan granted by an agency admin (ADR 051): Team Member Basic, or back to Free,
 * as the end users' team plans are granted on End Users. With Stripe, a later webhook of the
 * team member's own subscription sets it again.
 */
export async function setTeamMemberPlan(
  admin: Actor,
  input: { userId: string; plan: MemberPlanId },
) {
  const organizationId = admin.tenant.id
  const name = MEMBER_PLAN_NAMES[input.plan]
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, ['team_admin'])
    if (account.memberPlan === input.plan) {
      throw new Refusal('conflict', `This team member already has the ${name} plan`, {
        field: 'plan',
      })
    }
    await setMemberPlan(tx, organizationId, account.id, input.plan)
    await audit(tx, admin, account, 'plan.granted', {
      from: account.memberPlan,
      to: input.plan,
      priceUsd: input.plan === 'free' ? 0 : TEAM_MEMBER_BASIC.price,
      payment: 'granted by an admin',
    })
  })
  return `Plan changed to ${name}`
}

/**
 * Accounts doc §7 "Change a user's role", from either screen: an end user's (End Users) or a
 * staff account's (Admin Team). Super admin roles exist on the platform organization only.
 */
export async function changeAccountRole(
  admin: Actor,
  input: { organizationId: string; userId: string; role: Role },
  from: readonly Role[],
  /** The roles this screen may give (an agency's staff screen: its staff roles only). */
  to?: readonly Role[],
) {
  const { organizationId } = input
  const tenant = await noticeTenant(admin, organizationId)
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, input.userId, from)
    const organization = await findOrganization(tx, organizationId)
    if (
      !organization ||
      !rolesFor(organization.kind).includes(input.role) ||
      (to && !to.includes(input.role))
    ) {
      throw new Refusal('invalid', 'This role is not available in this organization', {
        field: 'role',
      })
    }
    if (account.role === input.role) {
      throw new Refusal('invalid', `This user is already ${roleLabel(input.role)}`, {
        field: 'role',
      })
    }
    await assertMayLoseAccount(tx, admin, account, 'demote')
    // An end user made staff takes one of the agency's staff seats (ADR 051).
    const isAgencyStaff = (role: Role) => (AGENCY_STAFF_ACCESS as readonly Role[]).includes(role)
    if (
      organization.kind === 'agency' &&
      isAgencyStaff(input.role) &&
      !isAgencyStaff(account.role)
    ) {
      await assertStaffSeat(tx, organizationId, 'role')
    }
    const { changes, metadata } = await roleSideEffects(tx, account, input.role)
    await updateAccount(tx, organizationId, account.id, {
      role: input.role,
      ...changes,
      // A title belongs to staff (the platform's or an agency's) only.
      ...(isStaffRole(input.role) ? {} : { staffTitle: null }),
    })
    // A new role is a new set of permissions: sessions opened under the old one end.
    await deleteUserSessions(tx, organizationId, account.id)
    await audit(tx, admin, account, 'user.role_changed', {
      from: account.role,
      to: input.role,
      ...metadata,
    })
    await tellTeamMembers(tx, tenant, admin, [
      ...(isTeamMemberChange(account.role, input.role)
        ? [
            {
              userId: account.id,
              update: {
                kind: 'role_changed' as const,
                from: roleLabel(account.role),
                to: roleLabel(input.role),
              },
            },
          ]
        : []),
      // An end user who takes another role leaves their team member's list.
      ...(account.role === 'end_user' && input.role !== 'end_user'
        ? reassignment(account, account.assignedToUserId, null)
        : []),
    ])
  })
  return `User role updated to ${roleLabel(input.role)} successfully`
}

// --- Staff: the Admin Team (platform) and an agency's Team Members ---------------------------

/** A role that carries a staff title: the platform's or an agency's staff. */
const isStaffRole = (role: Role) =>
  Object.values(STAFF_DIRECTORIES).some((directory) => directory.access.includes(role))

/** A staff account's roles, by directory: the platform's or an agency's. */
const staffRolesOf = (directory: StaffDirectoryName) => STAFF_DIRECTORIES[directory].access

type StaffInput = {
  name: string
  email: string
  staffTitle: string
  access: Role
}

/**
 * Adds a staff account to the actor's own organization. Without a password (an agency's
 * directory only) the new member gets an email with a link to choose one.
 */
export async function addStaffMember(
  admin: Actor,
  input: StaffInput & { password?: string },
  directory: StaffDirectoryName = 'platform',
) {
  const email = normalizeEmail(input.email)
  if (!staffRolesOf(directory).includes(input.access)) {
    throw new Refusal('invalid', 'Please select an access level', { field: 'access' })
  }
  if (!input.password && !STAFF_DIRECTORIES[directory].emailsSetPasswordLink) {
    throw new Refusal('invalid', STAFF_PASSWORD_TOO_SHORT, { field: 'password' })
  }
  const passwordHash = await (input.password ? hashPassword(input.password) : unusablePassword())
  const organizationId = admin.tenant.id
  await catchingTakenEmail(() =>
    withTenant(organizationId, async (tx) => {
      await assertEmailFree(tx, organizationId, email)
      // An agency's staff seats are its plan's (ADR 051); the platform's staff have no limit.
      if (directory === 'agency') await assertStaffSeat(tx, organizationId)
      const created = await createUser(tx, organizationId, {
        ...splitName(input.name),
        email,
        passwordHash,
        role: input.access,
        emailConfirmedAt: null,
      })
      await updateAccount(tx, organizationId, created.id, { staffTitle: input.staffTitle })
      await audit(tx, admin, created, 'staff.created', {
        role: input.access,
        staffTitle: input.staffTitle,
        setPasswordEmailed: !input.password,
      })
      if (input.password) return
      await queueSetPasswordEmailIn(tx, admin.tenant, created, {
        name: nameOf(admin.user),
        userId: admin.user.id,
      })
    }),
  )
  return 'Team member added successfully'
}

/** Spec §5: the password changes only when one is typed; the role keeps the protections. */
export async function editStaffMember(
  admin: Actor,
  input: StaffInput & { userId: string; password?: string },
  directory: StaffDirectoryName = 'platform',
) {
  const email = normalizeEmail(input.email)
  if (!staffRolesOf(directory).includes(input.access)) {
    throw new Refusal('invalid', 'Please select an access level', { field: 'access' })
  }
  const passwordHash = input.password ? await hashPassword(input.password) : undefined
  const organizationId = admin.tenant.id
  await catchingTakenEmail(() =>
    withTenant(organizationId, async (tx) => {
      const account = await requireAccount(
        tx,
        organizationId,
        input.userId,
        staffRolesOf(directory),
      )
      await assertEmailFree(tx, organizationId, email, account.id)
      const roleChanged = account.role !== input.access
      if (roleChanged) await assertMayLoseAccount(tx, admin, account, 'demote')
      const sideEffects = roleChanged
        ? await roleSideEffects(tx, account, input.access)
        : { changes: {}, metadata: {} }
      await updateAccount(tx, organizationId, account.id, {
        ...sideEffects.changes,
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
          ...sideEffects.metadata,
        })
      }
      if (roleChanged && isTeamMemberChange(account.role, input.access)) {
        await tellTeamMembers(tx, admin.tenant, admin, [
          {
            userId: account.id,
            update: {
              kind: 'role_changed',
              from: roleLabel(account.role),
              to: roleLabel(input.access),
            },
          },
        ])
      }
    }),
  )
  return 'Team member updated successfully'
}

export async function deleteStaffMember(
  admin: Actor,
  userId: string,
  directory: StaffDirectoryName = 'platform',
) {
  const organizationId = admin.tenant.id
  await withTenant(organizationId, async (tx) => {
    const account = await requireAccount(tx, organizationId, userId, staffRolesOf(directory))
    await assertMayLoseAccount(tx, admin, account, 'delete')
    await removeAccount(tx, organizationId, account.id, null)
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

export async function readStaff(
  admin: Actor,
  filter: { search: string; role: Role | null },
  directory: StaffDirectoryName = 'platform',
) {
  return withTenant(admin.tenant.id, (tx) =>
    listStaff(tx, admin.tenant.id, filter, staffRolesOf(directory)),
  )
}

/** The agency's own end users (its tenant only) and the team members they may be assigned to. */
export async function readOrganizationEndUsers(
  actor: Actor,
  filter: OrganizationEndUserFilter,
  limit = LIST_LIMIT,
) {
  const organizationId = actor.tenant.id
  return withTenant(organizationId, async (tx) => ({
    rows: await listOrganizationEndUsers(tx, organizationId, filter, limit),
    total: await countOrganizationEndUsers(tx, organizationId, filter),
    teamMembers: await teamMemberChoices(tx, organizationId),
  }))
}

/** The agency's team members alone: the assignee filter of a list that searched nothing. */
export async function readTeamMemberChoices(actor: Actor) {
  const organizationId = actor.tenant.id
  return withTenant(organizationId, (tx) => teamMemberChoices(tx, organizationId))
}

async function teamMemberChoices(tx: Transaction, organizationId: string) {
  return (await listTeamAdmins(tx, organizationId)).map((member) => ({
    id: member.id,
    name: nameOf(member),
  }))
}
