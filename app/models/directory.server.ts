// The people and teams a directory manages over SCIM (issue 42 point 2, ADR 089): lookups by
// the identity provider's filters (userName, externalId, displayName) within one organization.
import {
  type AnyColumn,
  and,
  asc,
  count,
  eq,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm'
import type { PgSelect } from 'drizzle-orm/pg-core'
import type { Queryable } from '#drizzle/db.server'
import { teamMembers, teams, users } from '#drizzle/schema'
import { findOrganizationTeam, isRowId } from './teams.server'

/** What a SCIM list may filter on (RFC 7644 §3.4.2.2, the `eq` subset identity providers send). */
export type DirectoryUserFilter =
  | { attribute: 'userName'; value: string }
  | { attribute: 'externalId'; value: string }
  | { attribute: 'id'; value: string }
  | null

/** An account a SCIM DELETE removed stays (deactivated), but SCIM no longer finds it. */
const notDeleted = isNull(sql`${users.directory} ->> 'deletedAt'`)

/** A SCIM list's window, from its startIndex and count. */
type DirectoryPage = { offset: number; limit: number }

/** One page of rows in creation order: a new row never moves another, so startIndex is stable. */
function inCreationOrder<T extends PgSelect>(
  query: T,
  table: { createdAt: AnyColumn; id: AnyColumn },
  page: DirectoryPage,
) {
  return query.orderBy(asc(table.createdAt), asc(table.id)).limit(page.limit).offset(page.offset)
}

function userWhere(organizationId: string, filter: DirectoryUserFilter) {
  const where: SQL[] = [eq(users.organizationId, organizationId), notDeleted]
  if (filter?.attribute === 'userName') {
    // userName is not case-sensitive (RFC 7643 §4.1.1): the email, or the directory's own name.
    const name = filter.value.trim().toLowerCase()
    const byName = or(
      and(eq(users.email, name), isNull(sql`${users.directory} ->> 'userName'`)),
      eq(sql`lower(${users.directory} ->> 'userName')`, name),
    )
    if (byName) where.push(byName)
  }
  if (filter?.attribute === 'externalId') where.push(eq(users.externalId, filter.value))
  if (filter?.attribute === 'id') {
    if (!isRowId(filter.value)) return undefined
    where.push(eq(users.id, filter.value))
  }
  return and(...where)
}

/** One page of the organization's accounts in creation order (SCIM's startIndex is stable). */
export async function listDirectoryUsers(
  db: Queryable,
  organizationId: string,
  filter: DirectoryUserFilter,
  page: DirectoryPage,
) {
  const where = userWhere(organizationId, filter)
  if (!where || page.limit === 0) return []
  return inCreationOrder(db.select().from(users).where(where).$dynamic(), users, page)
}

export async function countDirectoryUsers(
  db: Queryable,
  organizationId: string,
  filter: DirectoryUserFilter,
) {
  const where = userWhere(organizationId, filter)
  if (!where) return 0
  const [row] = await db.select({ n: count() }).from(users).where(where)
  return row?.n ?? 0
}

/** The accounts the directory manages (an external id, not deleted): their ids and fields. */
export function listDirectoryManagedUsers(db: Queryable, organizationId: string) {
  return db
    .select({ id: users.id, directory: users.directory })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), notDeleted, isNotNull(users.externalId)))
    .orderBy(asc(users.createdAt), asc(users.id))
}

/** Accounts of the organization by id or external id (a group's members, a manager). */
export async function findDirectoryUsers(
  db: Queryable,
  organizationId: string,
  ids: { ids?: string[]; externalIds?: string[] },
) {
  const rowIds = (ids.ids ?? []).filter(isRowId)
  const externalIds = ids.externalIds ?? []
  const found = []
  if (rowIds.length > 0) {
    found.push(
      ...(await db
        .select()
        .from(users)
        .where(
          and(eq(users.organizationId, organizationId), notDeleted, inArray(users.id, rowIds)),
        )),
    )
  }
  if (externalIds.length > 0) {
    found.push(
      ...(await db
        .select()
        .from(users)
        .where(
          and(
            eq(users.organizationId, organizationId),
            notDeleted,
            inArray(users.externalId, externalIds),
          ),
        )),
    )
  }
  return found
}

export type DirectoryTeamFilter =
  | { attribute: 'displayName'; value: string }
  | { attribute: 'externalId'; value: string }
  | { attribute: 'id'; value: string }
  | null

function teamWhere(organizationId: string, filter: DirectoryTeamFilter) {
  const where: SQL[] = [eq(teams.organizationId, organizationId), eq(teams.fromDirectory, true)]
  if (filter?.attribute === 'displayName') where.push(eq(teams.name, filter.value))
  if (filter?.attribute === 'externalId') where.push(eq(teams.externalId, filter.value))
  if (filter?.attribute === 'id') {
    if (!isRowId(filter.value)) return undefined
    where.push(eq(teams.id, filter.value))
  }
  return and(...where)
}

/** One page of the teams the directory made, in creation order. */
export async function listDirectoryTeams(
  db: Queryable,
  organizationId: string,
  filter: DirectoryTeamFilter,
  page: DirectoryPage,
) {
  const where = teamWhere(organizationId, filter)
  if (!where || page.limit === 0) return []
  return inCreationOrder(db.select().from(teams).where(where).$dynamic(), teams, page)
}

export async function countDirectoryTeams(
  db: Queryable,
  organizationId: string,
  filter: DirectoryTeamFilter,
) {
  const where = teamWhere(organizationId, filter)
  if (!where) return 0
  const [row] = await db.select({ n: count() }).from(teams).where(where)
  return row?.n ?? 0
}

/** A team the directory made; `lock` holds it for the rest of the transaction. */
export function findDirectoryTeam(
  db: Queryable,
  organizationId: string,
  teamId: string,
  { lock = false } = {},
) {
  return findOrganizationTeam(db, organizationId, teamId, { lock, fromDirectory: true })
}

export async function insertDirectoryTeam(
  db: Queryable,
  organizationId: string,
  fields: { name: string; externalId: string | null },
) {
  const [row] = await db
    .insert(teams)
    .values({ organizationId, ...fields, fromDirectory: true })
    .returning()
  if (!row) throw new Error('team insert returned nothing')
  return row
}

export async function updateDirectoryTeam(
  db: Queryable,
  organizationId: string,
  teamId: string,
  fields: { name?: string; externalId?: string | null },
) {
  const [row] = await db
    .update(teams)
    .set({ ...fields, updatedAt: new Date() })
    .where(
      and(
        eq(teams.organizationId, organizationId),
        eq(teams.id, teamId),
        eq(teams.fromDirectory, true),
      ),
    )
    .returning()
  return row
}

/** The user ids of a team's members. */
export async function listDirectoryTeamMemberIds(
  db: Queryable,
  organizationId: string,
  teamId: string,
) {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.organizationId, organizationId), eq(teamMembers.teamId, teamId)))
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.id))
  return rows.map((row) => row.userId)
}

/** Removes these accounts from the team; how many memberships went. */
export async function removeDirectoryTeamMembers(
  db: Queryable,
  organizationId: string,
  teamId: string,
  userIds: string[],
) {
  if (userIds.length === 0) return 0
  const rows = await db
    .delete(teamMembers)
    .where(
      and(
        eq(teamMembers.organizationId, organizationId),
        eq(teamMembers.teamId, teamId),
        inArray(teamMembers.userId, userIds),
      ),
    )
    .returning({ id: teamMembers.id })
  return rows.length
}
