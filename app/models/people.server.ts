// Account administration for the super admin's End Users and Admin Team screens (roles doc
// §2.11). The `ForPlatform` functions read every tenant and belong inside withPlatformScope
// only; every write takes the account's organization and runs inside withTenant.
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { organizations, users } from '#drizzle/schema'
import { userNameOrEmailMatches } from './search.server'
import type { User } from './users.server'

export type AccountStatus = User['status']

export type EndUserFilter = {
  search: string
  organizationId: string | null
  status: AccountStatus | null
}

const nameOrEmail = userNameOrEmailMatches

const personColumns = {
  id: users.id,
  organizationId: users.organizationId,
  organizationName: organizations.name,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: users.role,
  status: users.status,
  staffTitle: users.staffTitle,
  lastActiveAt: users.lastActiveAt,
  createdAt: users.createdAt,
}

export type PersonRow = {
  id: string
  organizationId: string
  organizationName: string | null
  firstName: string
  lastName: string
  email: string
  role: User['role']
  status: AccountStatus
  staffTitle: string | null
  lastActiveAt: Date | null
  createdAt: Date
}

function endUserWhere(filter: EndUserFilter) {
  return and(
    eq(users.role, 'end_user'),
    filter.organizationId ? eq(users.organizationId, filter.organizationId) : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
    nameOrEmail(filter.search),
  )
}

/** Every tenant's end users, newest first: only inside the platform scope. */
export function listEndUsersForPlatform(
  db: Queryable,
  filter: EndUserFilter,
  limit: number,
): Promise<PersonRow[]> {
  return db
    .select(personColumns)
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(endUserWhere(filter))
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(limit)
}

/** How many end users match, across every tenant: only inside the platform scope. */
export async function countEndUsersForPlatform(db: Queryable, filter: EndUserFilter) {
  const [row] = await db.select({ n: count() }).from(users).where(endUserWhere(filter))
  return row?.n ?? 0
}

export const STAFF_ROLES = ['super_admin', 'super_admin_team'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

/** The platform organization's staff accounts, by name. */
export function listStaff(
  db: Queryable,
  organizationId: string,
  filter: { search: string; role: StaffRole | null },
): Promise<PersonRow[]> {
  return db
    .select(personColumns)
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(
      and(
        eq(users.organizationId, organizationId),
        filter.role ? eq(users.role, filter.role) : inArray(users.role, [...STAFF_ROLES]),
        nameOrEmail(filter.search),
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email))
    .limit(500)
}

/**
 * The organization's super admins, locked until the transaction ends: two admins demoting or
 * deleting each other at once cannot both pass the "at least one super admin" check.
 */
export async function lockSuperAdmins(db: Queryable, organizationId: string) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.role, 'super_admin')))
    .for('update')
  return rows.map((row) => row.id)
}

export type AccountChanges = Partial<
  Pick<
    User,
    | 'firstName'
    | 'lastName'
    | 'email'
    | 'emailConfirmedAt'
    | 'status'
    | 'role'
    | 'staffTitle'
    | 'passwordHash'
  >
>

/** Changes an account of the organization; the row after the change, or undefined. */
export async function updateAccount(
  db: Queryable,
  organizationId: string,
  userId: string,
  changes: AccountChanges,
) {
  const [user] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
    .returning()
  return user
}

/** Deletes an account of the organization (its cards, sessions and memberships go with it). */
export async function deleteAccount(db: Queryable, organizationId: string, userId: string) {
  const rows = await db
    .delete(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
    .returning({ id: users.id })
  return rows.length > 0
}

/** Records a sign-in as the account's last activity. */
export async function markSignedIn(
  db: Queryable,
  organizationId: string,
  userId: string,
  at: Date,
) {
  await db
    .update(users)
    .set({ lastActiveAt: at })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
}

/** Every organization an account can belong to, the platform first: the agency choices. */
export function listOrganizationChoices(db: Queryable) {
  return db
    .select({ id: organizations.id, name: organizations.name, kind: organizations.kind })
    .from(organizations)
    .orderBy(desc(eq(organizations.kind, 'platform')), asc(organizations.name))
}
