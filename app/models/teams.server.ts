// Teams and their members (roles-teams-admin.md §3, §7). Every function takes the organization:
// a team id of another tenant finds nothing, and composite foreign keys refuse a member row that
// points across tenants.
import { and, count, desc, eq, gt, ne, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { TeamRole } from '#app/validation/teams'
import type { Queryable } from '#drizzle/db.server'
import { teamInvitations, teamMembers, teams, users } from '#drizzle/schema'
import { type KeysetPage, keyset } from './keyset.server'
import { tenantJoin } from './tenant-join.server'

export type Team = typeof teams.$inferSelect

/** The team's member rows in the organization, narrowed by `more` (a member, a user, a role). */
function inTeam(organizationId: string, teamId: string, ...more: SQL[]) {
  return and(
    eq(teamMembers.organizationId, organizationId),
    eq(teamMembers.teamId, teamId),
    ...more,
  )
}

/** The team of this id in the organization, narrowed by `more` (made by the directory). */
function theTeam(organizationId: string, teamId: string, ...more: SQL[]) {
  return and(eq(teams.organizationId, organizationId), eq(teams.id, teamId), ...more)
}

/** Joins a member row to its account, in the member's own organization. */
const memberAccount = tenantJoin(users, teamMembers, users.id, teamMembers.userId)

/** The user's teams with their role in each, newest first (spec §7, "List teams"). */
export function listTeamsForUser(db: Queryable, organizationId: string, userId: string) {
  return db
    .select({
      id: teams.id,
      name: teams.name,
      description: teams.description,
      createdAt: teams.createdAt,
      createdByUserId: teams.createdByUserId,
      myRole: teamMembers.role,
    })
    .from(teamMembers)
    .innerJoin(teams, tenantJoin(teams, teamMembers, teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.organizationId, organizationId), eq(teamMembers.userId, userId)))
    .orderBy(desc(teams.createdAt), desc(teams.id))
}

/** A new team with its creator as admin (spec §4: the creator becomes its admin). */
export async function createTeamWithAdmin(
  db: Queryable,
  organizationId: string,
  userId: string,
  fields: { name: string; description: string },
) {
  const [team] = await db
    .insert(teams)
    .values({ organizationId, createdByUserId: userId, ...fields })
    .returning()
  if (!team) throw new Error('team insert returned nothing')
  await db.insert(teamMembers).values({ organizationId, teamId: team.id, userId, role: 'admin' })
  return team
}

export async function updateTeam(
  db: Queryable,
  organizationId: string,
  teamId: string,
  fields: { name: string; description: string },
) {
  const [team] = await db
    .update(teams)
    .set({ ...fields, updatedAt: new Date() })
    .where(theTeam(organizationId, teamId))
    .returning()
  return team
}

export async function deleteTeam(db: Queryable, organizationId: string, teamId: string) {
  const deleted = await db
    .delete(teams)
    .where(theTeam(organizationId, teamId))
    .returning({ id: teams.id })
  return deleted.length > 0
}

/**
 * The team with the plan of its creator (who pays for it, so whose plan sets its member limit).
 * Every change to a team's people passes `lock`, holding the row for the rest of the
 * transaction, so two concurrent adds or accepts cannot both pass the member limit.
 */
export async function findTeamWithPlan(
  db: Queryable,
  organizationId: string,
  teamId: string,
  { lock = false } = {},
) {
  const team = await findOrganizationTeam(db, organizationId, teamId, { lock })
  if (!team) return undefined
  const [owner] = team.createdByUserId
    ? await db
        .select({ plan: users.plan })
        .from(users)
        .where(and(eq(users.organizationId, organizationId), eq(users.id, team.createdByUserId)))
    : []
  return {
    id: team.id,
    name: team.name,
    createdByUserId: team.createdByUserId,
    plan: owner?.plan ?? ('free' as const),
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Ids arrive from forms: anything that is not a uuid names no row (and must not reach a uuid column). */
export const isRowId = (value: string) => UUID.test(value)

export async function findMembership(
  db: Queryable,
  organizationId: string,
  teamId: string,
  userId: string,
) {
  if (!isRowId(teamId)) return undefined
  const [row] = await db
    .select({ id: teamMembers.id, role: teamMembers.role })
    .from(teamMembers)
    .where(inTeam(organizationId, teamId, eq(teamMembers.userId, userId)))
  return row
}

/**
 * The team's membership held by the account of this (normalized) email, if any: the inviter sees
 * the team's members, so this is the one thing the add-member form says about an address.
 */
export async function findTeamMemberByEmail(
  db: Queryable,
  organizationId: string,
  teamId: string,
  email: string,
) {
  if (!isRowId(teamId)) return undefined
  const [row] = await db
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .innerJoin(users, memberAccount)
    .where(inTeam(organizationId, teamId, eq(users.email, email)))
    .limit(1)
  return row
}

/**
 * Whether two people of the organization are members of one team together (a card shown to
 * 'team' only, §2.6). Both memberships must be in the organization: a team of another tenant
 * never counts.
 */
export async function sharesTeam(
  db: Queryable,
  organizationId: string,
  userId: string,
  otherUserId: string,
) {
  const other = alias(teamMembers, 'other_member')
  const [row] = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .innerJoin(other, tenantJoin(other, teamMembers, other.teamId, teamMembers.teamId))
    .where(
      and(
        eq(teamMembers.organizationId, organizationId),
        eq(teamMembers.userId, userId),
        eq(other.userId, otherUserId),
      ),
    )
    .limit(1)
  return row !== undefined
}

/** The team's members with their names and emails, admins first, then by when they joined. */
export function listTeamMembers(db: Queryable, organizationId: string, teamId: string) {
  return db
    .select({
      id: teamMembers.id,
      userId: teamMembers.userId,
      role: teamMembers.role,
      createdAt: teamMembers.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(teamMembers)
    .innerJoin(users, memberAccount)
    .where(inTeam(organizationId, teamId))
    .orderBy(
      sql`case ${teamMembers.role} when 'admin' then 0 when 'manager' then 1 when 'member' then 2 else 3 end`,
      teamMembers.createdAt,
      teamMembers.id,
    )
}

export async function findTeamMember(
  db: Queryable,
  organizationId: string,
  teamId: string,
  memberId: string,
) {
  if (!isRowId(memberId)) return undefined
  const [row] = await db
    .select({ id: teamMembers.id, userId: teamMembers.userId, role: teamMembers.role })
    .from(teamMembers)
    .where(inTeam(organizationId, teamId, eq(teamMembers.id, memberId)))
  return row
}

/** Adds the user; undefined when they already belong to the team. */
export async function addTeamMember(
  db: Queryable,
  organizationId: string,
  teamId: string,
  userId: string,
  role: TeamRole,
) {
  const [row] = await db
    .insert(teamMembers)
    .values({ organizationId, teamId, userId, role })
    .onConflictDoNothing({
      target: [teamMembers.organizationId, teamMembers.teamId, teamMembers.userId],
    })
    .returning()
  return row
}

export async function setTeamMemberRole(
  db: Queryable,
  organizationId: string,
  teamId: string,
  memberId: string,
  role: TeamRole,
) {
  const updated = await db
    .update(teamMembers)
    .set({ role })
    .where(inTeam(organizationId, teamId, eq(teamMembers.id, memberId)))
    .returning({ id: teamMembers.id })
  return updated.length > 0
}

export async function removeTeamMember(
  db: Queryable,
  organizationId: string,
  teamId: string,
  memberId: string,
) {
  const deleted = await db
    .delete(teamMembers)
    .where(inTeam(organizationId, teamId, eq(teamMembers.id, memberId)))
    .returning({ id: teamMembers.id })
  return deleted.length > 0
}

export async function countTeamAdmins(db: Queryable, organizationId: string, teamId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(teamMembers)
    .where(inTeam(organizationId, teamId, eq(teamMembers.role, 'admin')))
  return row?.n ?? 0
}

/**
 * The places a team's plan counts: its members plus its pending invitations that can still be
 * accepted (an accepted one becomes a member). `exceptInvitationId` leaves out the invitation
 * being accepted, which is about to become a member.
 */
export async function countTeamSeats(
  db: Queryable,
  organizationId: string,
  teamId: string,
  exceptInvitationId?: string,
) {
  const [members] = await db
    .select({ n: count() })
    .from(teamMembers)
    .where(inTeam(organizationId, teamId))
  const pending = [
    eq(teamInvitations.organizationId, organizationId),
    eq(teamInvitations.teamId, teamId),
    eq(teamInvitations.status, 'pending'),
    gt(teamInvitations.expiresAt, new Date()),
  ]
  if (exceptInvitationId) pending.push(ne(teamInvitations.id, exceptInvitationId))
  const [invited] = await db
    .select({ n: count() })
    .from(teamInvitations)
    .where(and(...pending))
  return { members: members?.n ?? 0, pendingInvitations: invited?.n ?? 0 }
}

/** A team with how many people it has: the agency profile's list and the REST API's. */
const teamWithMemberCount = {
  id: teams.id,
  name: teams.name,
  createdAt: teams.createdAt,
  members: sql<number>`count(${teamMembers.id})::int`,
}

/** Joins a team to its member rows, which it may have none of. */
const teamMemberRows = tenantJoin(teamMembers, teams, teamMembers.teamId, teams.id)

/** The organization's teams with how many people each has, newest first (the agency profile). */
export function listOrganizationTeams(db: Queryable, organizationId: string, limit = 50) {
  return db
    .select(teamWithMemberCount)
    .from(teams)
    .leftJoin(teamMembers, teamMemberRows)
    .where(eq(teams.organizationId, organizationId))
    .groupBy(teams.id)
    .orderBy(desc(teams.createdAt), desc(teams.id))
    .limit(limit)
}

/**
 * A keyset page of the organization's teams for the REST API, oldest first, with how many people
 * each has. Ordered by creation, not by change: a member joining or leaving changes the count but
 * not the team's row, so an order by change would say nothing a sync could trust.
 */
export function listOrganizationTeamsPage(db: Queryable, organizationId: string, page: KeysetPage) {
  const set = keyset(teams.createdAt, teams.id, page)
  return db
    .select({ ...teamWithMemberCount, position: set.position })
    .from(teams)
    .leftJoin(teamMembers, teamMemberRows)
    .where(and(eq(teams.organizationId, organizationId), set.where))
    .groupBy(teams.id)
    .orderBy(...set.orderBy)
    .limit(set.limit)
}

/**
 * One team of the organization (the REST API; with `fromDirectory`, only one the directory made);
 * undefined for another's or a malformed id. `lock` holds it for the rest of the transaction.
 */
export async function findOrganizationTeam(
  db: Queryable,
  organizationId: string,
  teamId: string,
  { lock = false, fromDirectory = false } = {},
) {
  if (!isRowId(teamId)) return undefined
  const query = db
    .select()
    .from(teams)
    .where(
      theTeam(organizationId, teamId, ...(fromDirectory ? [eq(teams.fromDirectory, true)] : [])),
    )
  const [team] = lock ? await query.for('update') : await query
  return team
}
