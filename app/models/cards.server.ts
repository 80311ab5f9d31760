import { and, eq, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { digitalCards } from '#drizzle/schema'

export type DigitalCard = typeof digitalCards.$inferSelect
export type NewCard = Omit<
  typeof digitalCards.$inferInsert,
  'id' | 'organizationId' | 'userId' | 'isDefault' | 'createdAt' | 'updatedAt' | 'title'
> & { title?: string }

/** Spec: a blank title becomes "{first name}'s Card". */
export function defaultCardTitle(firstName: string) {
  return `${firstName.trim()}'s Card`
}

/** Creates a card; the user's first card becomes the default (spec, digital card defaults). */
export async function createCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  input: NewCard,
) {
  const [existing] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(digitalCards)
    .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.userId, userId)))
  const [card] = await db
    .insert(digitalCards)
    .values({
      ...input,
      title: input.title?.trim() || defaultCardTitle(input.firstName),
      organizationId,
      userId,
      isDefault: (existing?.count ?? 0) === 0,
    })
    .returning()
  if (!card) throw new Error('card insert returned nothing')
  return card
}
