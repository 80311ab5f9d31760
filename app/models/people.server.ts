// Account administration for the End Users and staff screens: the super admin's (roles doc
// §2.11) and the agency's (§2.12). The `ForPlatform` functions read every tenant and belong
// inside withPlatformScope only; every other function takes the organization and runs inside
// withTenant.
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { organizations, users } from '#drizzle/schema'
import { userNameOrEmailMatches } from './search.server'
import type { User } from './users.server'

export type AccountStatus = User['status']

export type EndUserFilter = {
  search: string
  organizationId: string | null
  status: AccountStatus | null
  /** One of `roles` only; null: all of them. */
  role: User['role'] | null
  /** The roles the list shows (the super admin's: every account but the platform's staff). */
  roles: readonly User['role'][]
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
  plan: users.plan,
  memberPlan: users.memberPlan,
  staffTitle: users.staffTitle,
  assignedToUserId: users.assignedToUserId,
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
  plan: User['plan']
  memberPlan: User['memberPlan']
  staffTitle: string | null
  assignedToUserId: string | null
  lastActiveAt: Date | null
  createdAt: Date
}

/** People with their organization's name, as the lists show them. */
function selectPeople(db: Queryable) {
  return db
    .select(personColumns)
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
}

/** The people `where` keeps, newest first (the End Users lists). */
function listNewestPeople(db: Queryable, where: SQL | undefined, limit: number) {
  return selectPeople(db).where(where).orderBy(desc(users.createdAt), asc(users.id)).limit(limit)
}

async function countPeople(db: Queryable, where: SQL | undefined) {
  const [row] = await db.select({ n: count() }).from(users).where(where)
  return row?.n ?? 0
}

const byName = [asc(users.firstName), asc(users.lastName), asc(users.email)]

/** The accounts `where` keeps, by name: whom an end user or a departing seat may go to. */
function listAccountChoices(db: Queryable, where: SQL | undefined) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(users)
    .where(where)
    .orderBy(...byName)
    .limit(1000)
}

/** The organization's accounts with this role, narrowed by `more` (active ones, a search). */
function withRole(organizationId: string, role: User['role'], ...more: (SQL | undefined)[]) {
  return and(eq(users.organizationId, organizationId), eq(users.role, role), ...more)
}

/** The chosen role when it is one of the list's `roles`, else every one of them. */
const roleAmong = (role: User['role'] | null, roles: readonly User['role'][]) =>
  role && roles.includes(role) ? eq(users.role, role) : inArray(users.role, [...roles])

/** What both End Users lists narrow by: the status chosen, if any, and the search. */
const statusAndSearch = (filter: { status: AccountStatus | null; search: string }) => [
  filter.status ? eq(users.status, filter.status) : undefined,
  nameOrEmail(filter.search),
]

function endUserWhere(filter: EndUserFilter) {
  return and(
    roleAmong(filter.role, filter.roles),
    filter.organizationId ? eq(users.organizationId, filter.organizationId) : undefined,
    ...statusAndSearch(filter),
  )
}

/** Every tenant's accounts with the filter's roles, newest first: only inside the platform scope. */
export function listEndUsersForPlatform(
  db: Queryable,
  filter: EndUserFilter,
  limit: number,
): Promise<PersonRow[]> {
  return listNewestPeople(db, endUserWhere(filter), limit)
}

/** How many accounts match, across every tenant: only inside the platform scope. */
export function countEndUsersForPlatform(db: Queryable, filter: EndUserFilter) {
  return countPeople(db, endUserWhere(filter))
}

export const STAFF_ROLES = ['super_admin', 'super_admin_team'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

export type OrganizationEndUserFilter = {
  search: string
  status: AccountStatus | null
  /** Only the end users assigned to this team member. */
  assignedToUserId: string | null
}

function organizationEndUserWhere(organizationId: string, filter: OrganizationEndUserFilter) {
  return withRole(
    organizationId,
    'end_user',
    filter.assignedToUserId ? eq(users.assignedToUserId, filter.assignedToUserId) : undefined,
    ...statusAndSearch(filter),
  )
}

/** One organization's end users, newest first (the agency's End Users, roles doc §2.12). */
export function listOrganizationEndUsers(
  db: Queryable,
  organizationId: string,
  filter: OrganizationEndUserFilter,
  limit: number,
): Promise<PersonRow[]> {
  return listNewestPeople(db, organizationEndUserWhere(organizationId, filter), limit)
}

/** How many of one organization's end users match. */
export function countOrganizationEndUsers(
  db: Queryable,
  organizationId: string,
  filter: OrganizationEndUserFilter,
) {
  return countPeople(db, organizationEndUserWhere(organizationId, filter))
}

/** The organization's team members (role team_admin), by name: whom an end user may be assigned to. */
export function listTeamAdmins(db: Queryable, organizationId: string) {
  return listAccountChoices(db, withRole(organizationId, 'team_admin'))
}

/**
 * The active accounts of an organization who can take over a departing person's seat (issue 31,
 * ADR 049): its end users, by name.
 */
export function listSuccessorChoices(db: Queryable, organizationId: string) {
  return listAccountChoices(db, withRole(organizationId, 'end_user', eq(users.status, 'active')))
}

function staffWhere(
  organizationId: string,
  filter: { search: string; role: User['role'] | null },
  roles: readonly User['role'][],
) {
  return and(
    eq(users.organizationId, organizationId),
    roleAmong(filter.role, roles),
    nameOrEmail(filter.search),
  )
}

/** How many staff accounts the Team screen lists unfiltered (the agency dashboard's tile). */
export function countStaff(
  db: Queryable,
  organizationId: string,
  roles: readonly User['role'][] = STAFF_ROLES,
) {
  return countPeople(db, staffWhere(organizationId, { search: '', role: null }, roles))
}

/**
 * An organization's staff accounts (`roles`: the platform's by default, or an agency's), by
 * name.
 */
export function listStaff(
  db: Queryable,
  organizationId: string,
  filter: { search: string; role: User['role'] | null },
  roles: readonly User['role'][] = STAFF_ROLES,
): Promise<PersonRow[]> {
  return selectPeople(db)
    .where(staffWhere(organizationId, filter, roles))
    .orderBy(...byName)
    .limit(500)
}

/** The ids of the accounts `where` keeps, locked until the transaction ends. */
async function lockAccountIds(db: Queryable, where: SQL | undefined) {
  const rows = await db.select({ id: users.id }).from(users).where(where).for('update')
  return rows.map((row) => row.id)
}

/**
 * The organization's super admins, locked until the transaction ends: two admins demoting or
 * deleting each other at once cannot both pass the "at least one super admin" check.
 */
export function lockSuperAdmins(db: Queryable, organizationId: string) {
  return lockAccountIds(db, withRole(organizationId, 'super_admin'))
}

/**
 * The organization's active agency admins, locked until the transaction ends: two changes at
 * once cannot both pass the "an agency keeps an agency admin" check.
 */
export function lockActiveAgencyAdmins(db: Queryable, organizationId: string) {
  return lockAccountIds(db, withRole(organizationId, 'agency_admin', eq(users.status, 'active')))
}

/** The organization's active accounts with one of these roles: who is asked to decide. */
export async function listActiveUserIdsWithRoles(
  db: Queryable,
  organizationId: string,
  roles: readonly User['role'][],
) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.organizationId, organizationId),
        inArray(users.role, [...roles]),
        eq(users.status, 'active'),
      ),
    )
    .orderBy(users.createdAt)
  return rows.map((row) => row.id)
}

/** Unassigns every end user assigned to this account (it stops being a team member). */
export async function unassignEndUsersFrom(
  db: Queryable,
  organizationId: string,
  teamMemberId: string,
) {
  const rows = await db
    .update(users)
    .set({ assignedToUserId: null, updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.assignedToUserId, teamMemberId)))
    .returning({ id: users.id })
  return rows.length
}

/** The organization's account of this id: another tenant's id changes nothing. */
const theAccount = (organizationId: string, userId: string) =>
  and(eq(users.organizationId, organizationId), eq(users.id, userId))

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
    | 'assignedToUserId'
    | 'externalId'
    | 'directory'
    | 'jobTitle'
    | 'phoneNumber'
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
    .set({
      ...changes,
      // A password set by an admin starts its own 90 days of rotation (ADR 045).
      ...(changes.passwordHash ? { passwordChangedAt: new Date() } : {}),
      updatedAt: new Date(),
    })
    .where(theAccount(organizationId, userId))
    .returning()
  return user
}

/** Deletes an account of the organization (its cards, sessions and memberships go with it). */
export async function deleteAccount(db: Queryable, organizationId: string, userId: string) {
  const rows = await db
    .delete(users)
    .where(theAccount(organizationId, userId))
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
  await db.update(users).set({ lastActiveAt: at }).where(theAccount(organizationId, userId))
}

/** Every organization an account can belong to, the platform first: the agency choices. */
export function listOrganizationChoices(db: Queryable) {
  return db
    .select({ id: organizations.id, name: organizations.name, kind: organizations.kind })
    .from(organizations)
    .orderBy(desc(eq(organizations.kind, 'platform')), asc(organizations.name))
}
