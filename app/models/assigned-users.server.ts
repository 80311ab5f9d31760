// The end users a team member (role team_admin) looks after (roles-teams-admin.md §2.13,
// `users.assigned_to_user_id`), with the card their QR code shares.
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { cardSlugs, digitalCards, userSettings, users } from '#drizzle/schema'
import { currentSlugOfCard } from './card-slugs.server'
import { userNameOrEmailMatches } from './search.server'
import { tenantJoin } from './tenant-join.server'

// The one rule of whom a team member looks after: the list, its count on the dashboard, the
// plan's seat limit and the dashboard's cards, contacts and views of "their" end users all read it.
const assignedTo = (organizationId: string, teamAdminId: string) =>
  and(
    eq(users.organizationId, organizationId),
    eq(users.assignedToUserId, teamAdminId),
    eq(users.role, 'end_user'),
  )

/** The ids of the end users assigned to `teamAdminId`, as a subquery (or awaited, the rows). */
export function selectAssignedEndUserIds(
  db: Queryable,
  organizationId: string,
  teamAdminId: string,
) {
  return db.select({ id: users.id }).from(users).where(assignedTo(organizationId, teamAdminId))
}

/** How many end users `teamAdminId` looks after: the rows of listAssignedEndUsers unsearched. */
export async function countAssignedEndUsers(
  db: Queryable,
  organizationId: string,
  teamAdminId: string,
) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(assignedTo(organizationId, teamAdminId))
  return row?.count ?? 0
}

/**
 * The end users assigned to `teamAdminId`, by name, with their default card (else their newest
 * one) and how many cards they have; `search` matches name or email.
 */
export async function listAssignedEndUsers(
  db: Queryable,
  organizationId: string,
  teamAdminId: string,
  search = '',
) {
  const matches = userNameOrEmailMatches(search)
  // One read, one tenant filter: each person with each of their cards (left join), default
  // card first, then newest; the first card seen per person is the one their QR shares.
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      status: users.status,
      lastActiveAt: users.lastActiveAt,
      createdAt: users.createdAt,
      cardId: digitalCards.id,
      // The card's short link (ADR 041), which its QR and link share.
      cardSlug: cardSlugs.slug,
      // The owner's stored preferences, whose privacy says who may see the card.
      preferences: userSettings.preferences,
    })
    .from(users)
    .leftJoin(digitalCards, tenantJoin(digitalCards, users, digitalCards.userId, users.id))
    .leftJoin(userSettings, tenantJoin(userSettings, users, userSettings.userId, users.id))
    .leftJoin(cardSlugs, currentSlugOfCard)
    .where(and(assignedTo(organizationId, teamAdminId), matches))
    .orderBy(
      asc(users.firstName),
      asc(users.lastName),
      desc(users.createdAt),
      users.id,
      // A person's card is the default; an archived card (ADR 095) never stands for them.
      asc(isNotNull(digitalCards.archivedAt)),
      desc(digitalCards.isDefault),
      desc(digitalCards.createdAt),
    )
    .limit(5000)
  const people = new Map<
    string,
    Omit<(typeof rows)[number], 'cardId' | 'cardSlug'> & {
      cardId: string | null
      cardSlug: string | null
      cardCount: number
    }
  >()
  for (const { cardId, cardSlug, ...person } of rows) {
    const seen = people.get(person.id)
    if (!seen) people.set(person.id, { ...person, cardId, cardSlug, cardCount: cardId ? 1 : 0 })
    else if (cardId) seen.cardCount++
  }
  return [...people.values()]
}

export type AssignedEndUser = Awaited<ReturnType<typeof listAssignedEndUsers>>[number]
