import { and, eq, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { contacts, digitalCards, users } from '#drizzle/schema'

export async function countUserCardsAndContacts(
  db: Queryable,
  organizationId: string,
  userId: string,
) {
  const [cards] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(digitalCards)
    .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.userId, userId)))
  const [contactCount] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(contacts)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.userId, userId)))
  return { cards: cards?.count ?? 0, contacts: contactCount?.count ?? 0 }
}

export async function countOrganizationPeople(db: Queryable, organizationId: string) {
  const rows = await db
    .select({ role: users.role, count: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.organizationId, organizationId))
    .groupBy(users.role)
  const byRole = Object.fromEntries(rows.map((r) => [r.role, r.count]))
  return {
    endUsers: byRole.end_user ?? 0,
    teamMembers:
      (byRole.agency_admin ?? 0) + (byRole.agency_member ?? 0) + (byRole.team_admin ?? 0),
    total: rows.reduce((sum, r) => sum + r.count, 0),
  }
}
