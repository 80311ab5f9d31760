// The activity lists of the super admin, agency and team member dashboards (roles-teams-admin.md
// §2.3, issue 30 point 1): what happened in each role's scope, from the rows themselves (an
// account's, an agency's, a card's, a view's or a contact's creation time), newest first. Each
// branch takes its newest rows on its own (limited) and the branches are merged here, so a scope
// with many rows costs a few top-N reads, never a read of everything.
//
// What an item carries is what the role's own lists already show: a person's name (never an
// email or phone), an agency's name, a role. No card's contents (title, fields) and no contact's
// name: a contact belongs to the end user, and card data is the card gate's alone (ADR 027).
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { Queryable } from '#drizzle/db.server'
import { cardViews, contacts, digitalCards, organizations, users } from '#drizzle/schema'
import { viewedCard } from './card-views.server'

export type ScopeActivityKind =
  /** An agency was created (the platform's list). */
  | 'agency.created'
  /** An account was created: signed up, invited, or added by an admin. */
  | 'user.joined'
  /** Someone in the scope made a digital card. */
  | 'card.made'
  /** A card of someone the team member manages was viewed. */
  | 'member.card_viewed'
  /** Someone the team member manages gained a contact. */
  | 'member.contact_gained'

export type ScopeActivityItem = {
  id: string
  kind: ScopeActivityKind
  at: string
  /** Whose it is: a person's name, or the agency's; null when the account has no name yet. */
  subject: string | null
  /** The account's role (user.joined, but not on a team member's list, where all are end users). */
  role: string | null
  /** The organization's name, on the platform's list only. */
  organization: string | null
}

const DEFAULT_LIMIT = 8

const fullName = sql<string>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`

/** The end users assigned to a team member (users.assigned_to_user_id), as in the figures. */
const managedBy = (teamAdminId: string) =>
  and(eq(users.assignedToUserId, teamAdminId), eq(users.role, 'end_user'))

/** A card's or contact's owner: the same account in the same organization (composite keys). */
const ownerOf = (row: { organizationId: AnyPgColumn; userId: AnyPgColumn }) =>
  and(eq(users.organizationId, row.organizationId), eq(users.id, row.userId))

/** The newest accounts that `where` keeps, with their names and roles. */
function newestAccounts(db: Queryable, where: SQL | undefined, limit: number) {
  return db
    .select({ id: users.id, at: users.createdAt, subject: fullName, role: users.role })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt))
    .limit(limit)
}

/** The newest cards that `where` keeps, with their owners' names. */
function newestCards(db: Queryable, where: SQL | undefined, limit: number) {
  return db
    .select({ id: digitalCards.id, at: digitalCards.createdAt, subject: fullName })
    .from(digitalCards)
    .innerJoin(users, ownerOf(digitalCards))
    .where(where)
    .orderBy(desc(digitalCards.createdAt))
    .limit(limit)
}

type Row = {
  id: string
  at: Date | string
  subject: string | null
  role?: string | null
  organization?: string | null
}

function merge(branches: [ScopeActivityKind, Row[]][], limit: number): ScopeActivityItem[] {
  return branches
    .flatMap(([kind, rows]) =>
      rows.map((row) => ({
        id: row.id,
        kind,
        at: new Date(row.at).toISOString(),
        subject: row.subject,
        role: row.role ?? null,
        organization: row.organization ?? null,
      })),
    )
    .sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id))
    .slice(0, limit)
}

/** An agency's list: who joined the organization and who made a card, inside withTenant. */
export async function listOrganizationActivity(
  db: Queryable,
  organizationId: string,
  limit = DEFAULT_LIMIT,
) {
  const joined = await newestAccounts(db, eq(users.organizationId, organizationId), limit)
  const cards = await newestCards(db, eq(digitalCards.organizationId, organizationId), limit)
  return merge(
    [
      ['user.joined', joined],
      ['card.made', cards],
    ],
    limit,
  )
}

/**
 * A team member's list: the end users assigned to them joining, making cards, their cards'
 * views and the contacts they gained, inside withTenant. Each query stands on its own with the
 * organization filter on its own table, so none depends on another's answer (and the model
 * isolation test catches each filter's loss).
 */
export async function listAssignedEndUsersActivity(
  db: Queryable,
  organizationId: string,
  teamAdminId: string,
  limit = DEFAULT_LIMIT,
) {
  // All of them are end users: their list names no role.
  const joined = await newestAccounts(
    db,
    and(eq(users.organizationId, organizationId), managedBy(teamAdminId)),
    limit,
  )
  const cards = await newestCards(
    db,
    and(eq(digitalCards.organizationId, organizationId), managedBy(teamAdminId)),
    limit,
  )
  const views = await db
    .select({ id: cardViews.id, at: cardViews.viewedAt, subject: fullName })
    .from(cardViews)
    .innerJoin(digitalCards, viewedCard)
    .innerJoin(users, ownerOf(digitalCards))
    .where(and(eq(cardViews.organizationId, organizationId), managedBy(teamAdminId)))
    .orderBy(desc(cardViews.viewedAt))
    .limit(limit)
  const gained = await db
    .select({ id: contacts.id, at: contacts.createdAt, subject: fullName })
    .from(contacts)
    .innerJoin(users, ownerOf(contacts))
    .where(and(eq(contacts.organizationId, organizationId), managedBy(teamAdminId)))
    .orderBy(desc(contacts.createdAt))
    .limit(limit)
  return merge(
    [
      ['user.joined', joined.map((row) => ({ ...row, role: null }))],
      ['card.made', cards],
      ['member.card_viewed', views],
      ['member.contact_gained', gained],
    ],
    limit,
  )
}

/**
 * The platform's list: agencies created, accounts joining and cards made in every organization,
 * with the organization's name. Inside withPlatformScope only (the super admin's grant); inside
 * withTenant row-level security would narrow it to that tenant.
 */
export async function listPlatformActivity(db: Queryable, limit = DEFAULT_LIMIT) {
  const agencies = await db
    .select({
      id: organizations.id,
      at: organizations.createdAt,
      subject: organizations.name,
    })
    .from(organizations)
    .where(eq(organizations.kind, 'agency'))
    .orderBy(desc(organizations.createdAt))
    .limit(limit)
  const joined = await db
    .select({
      id: users.id,
      at: users.createdAt,
      subject: fullName,
      role: users.role,
      organization: organizations.name,
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .orderBy(desc(users.createdAt))
    .limit(limit)
  const cards = await db
    .select({
      id: digitalCards.id,
      at: digitalCards.createdAt,
      subject: fullName,
      organization: organizations.name,
    })
    .from(digitalCards)
    .innerJoin(users, ownerOf(digitalCards))
    .innerJoin(organizations, eq(organizations.id, digitalCards.organizationId))
    .orderBy(desc(digitalCards.createdAt))
    .limit(limit)
  return merge(
    [
      ['agency.created', agencies],
      ['user.joined', joined],
      ['card.made', cards],
    ],
    limit,
  )
}
