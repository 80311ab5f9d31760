// Cards' short links (ADR 041): each card's current slug and the retired ones that still lead
// to it. A slug, current or retired, belongs to one card of its organization (the unique index
// card_slugs_org_slug_key has the last word when two cards ask at once).
import { and, eq, isNull, sql } from 'drizzle-orm'
import { slugBaseFromName, slugCandidate } from '#app/validation/card-slug'
import type { Queryable } from '#drizzle/db.server'
import { cardSlugs, digitalCards } from '#drizzle/schema'
import { listHeldDepartedSlugs } from './account-deletions.server'
import { tenantJoin } from './tenant-join.server'

/** Joins a card to its current short link (not a retired one), in the card's own organization. */
export const currentSlugOfCard = tenantJoin(
  cardSlugs,
  digitalCards,
  cardSlugs.cardId,
  digitalCards.id,
  isNull(cardSlugs.retiredAt),
)

const ofCard = (organizationId: string, cardId: string) =>
  and(eq(cardSlugs.organizationId, organizationId), eq(cardSlugs.cardId, cardId))

/** Adds a slug as the card's current one; false when its organization already has it. */
async function insertCurrentSlug(
  db: Queryable,
  organizationId: string,
  cardId: string,
  slug: string,
) {
  const inserted = await db
    .insert(cardSlugs)
    .values({ organizationId, cardId, slug })
    .onConflictDoNothing()
    .returning({ id: cardSlugs.id })
  return inserted.length > 0
}

/**
 * Gives a new card the first free slug its owner's name suggests ("ada-lovelace", then
 * "ada-lovelace-2", …). Taken slugs are read once; a card that took one since is stepped over,
 * and so is a departed account's slug still in quarantine (ADR 058): a namesake hired after
 * someone left does not take over their printed short link.
 */
export async function claimDefaultSlug(
  db: Queryable,
  organizationId: string,
  cardId: string,
  name: { firstName: string; lastName: string },
) {
  const base = slugBaseFromName(name.firstName, name.lastName)
  const stem = base.slice(0, 12)
  const taken = new Set(
    (
      await db
        .select({ slug: cardSlugs.slug })
        .from(cardSlugs)
        .where(
          and(
            eq(cardSlugs.organizationId, organizationId),
            sql`starts_with(${cardSlugs.slug}, ${stem})`,
          ),
        )
    ).map((row) => row.slug),
  )
  for (const held of await listHeldDepartedSlugs(db, organizationId, { startingWith: stem })) {
    taken.add(held)
  }
  for (let n = 1; n < 10_000; n++) {
    const candidate = slugCandidate(base, n)
    if (taken.has(candidate)) continue
    if (await insertCurrentSlug(db, organizationId, cardId, candidate)) return candidate
  }
  throw new Error('no free slug for the card')
}

export type SlugChange = 'changed' | 'unchanged' | 'taken' | 'held'

/**
 * Makes `slug` the card's current slug and retires the one it had, which keeps leading to the
 * card. A slug the card had before comes back; another card's, current or retired, is taken; a
 * departed account's, still in quarantine (ADR 058), is held.
 * Run inside a transaction (withTenant): a refusal after the retirement rolls both back.
 */
export async function changeCardSlug(
  db: Queryable,
  organizationId: string,
  cardId: string,
  slug: string,
): Promise<SlugChange> {
  const [holder] = await db
    .select({ cardId: cardSlugs.cardId, retiredAt: cardSlugs.retiredAt })
    .from(cardSlugs)
    .where(and(eq(cardSlugs.organizationId, organizationId), eq(cardSlugs.slug, slug)))
    .limit(1)
  if (holder && holder.cardId !== cardId) return 'taken'
  if (holder && holder.retiredAt === null) return 'unchanged'
  if (!holder && (await listHeldDepartedSlugs(db, organizationId, { exactly: slug })).size > 0) {
    return 'held'
  }
  await db
    .update(cardSlugs)
    .set({ retiredAt: new Date() })
    .where(and(ofCard(organizationId, cardId), isNull(cardSlugs.retiredAt)))
  if (holder) {
    await db
      .update(cardSlugs)
      .set({ retiredAt: null })
      .where(and(ofCard(organizationId, cardId), eq(cardSlugs.slug, slug)))
    return 'changed'
  }
  return (await insertCurrentSlug(db, organizationId, cardId, slug)) ? 'changed' : 'taken'
}
