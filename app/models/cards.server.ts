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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A card by the reference in a shared link (spec §5, contact lookup): its id, else
 * "{first}-{last}" split at the first hyphen and matched case-insensitively. Within one
 * organization only.
 */
export async function findCardByReference(
  db: Queryable,
  organizationId: string,
  reference: string,
) {
  if (UUID.test(reference)) {
    const [byId] = await db
      .select()
      .from(digitalCards)
      .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.id, reference)))
      .limit(1)
    if (byId) return byId
  }
  const hyphen = reference.indexOf('-')
  if (hyphen <= 0) return undefined
  const first = reference.slice(0, hyphen).toLowerCase()
  const last = reference
    .slice(hyphen + 1)
    .replaceAll('-', ' ')
    .toLowerCase()
  const [byName] = await db
    .select()
    .from(digitalCards)
    .where(
      and(
        eq(digitalCards.organizationId, organizationId),
        sql`lower(${digitalCards.firstName}) = ${first}`,
        sql`lower(${digitalCards.lastName}) = ${last}`,
      ),
    )
    .orderBy(sql`${digitalCards.isDefault} desc`, digitalCards.createdAt)
    .limit(1)
  return byName
}
