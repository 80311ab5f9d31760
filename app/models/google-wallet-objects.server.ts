// The cards whose Google Wallet object someone may hold (ADR 043): a row per card whose save link
// was issued. A card edit patches the object only when its card has a row here.
import { and, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { digitalCards, googleWalletObjects } from '#drizzle/schema'

const ofCard = (organizationId: string, cardId: string) =>
  and(
    eq(googleWalletObjects.organizationId, organizationId),
    eq(googleWalletObjects.cardId, cardId),
  )

/** Records that the card's save link was issued; a second issue changes nothing. */
export async function recordGoogleWalletObject(
  db: Queryable,
  organizationId: string,
  cardId: string,
  objectId: string,
) {
  await db
    .insert(googleWalletObjects)
    .values({ organizationId, cardId, objectId })
    .onConflictDoNothing()
}

/** The card's object with the card's owner (whose view of the card the patch carries), if any. */
export async function findGoogleWalletObject(
  db: Queryable,
  organizationId: string,
  cardId: string,
) {
  const [row] = await db
    .select({
      objectId: googleWalletObjects.objectId,
      patchedAt: googleWalletObjects.patchedAt,
      ownerId: digitalCards.userId,
    })
    .from(googleWalletObjects)
    .innerJoin(
      digitalCards,
      and(
        eq(digitalCards.organizationId, googleWalletObjects.organizationId),
        eq(digitalCards.id, googleWalletObjects.cardId),
      ),
    )
    .where(ofCard(organizationId, cardId))
    .limit(1)
  return row
}

/** Every card of the organization with an object: a branding change patches them all. */
export async function listGoogleWalletCards(db: Queryable, organizationId: string) {
  const rows = await db
    .select({ cardId: googleWalletObjects.cardId })
    .from(googleWalletObjects)
    .where(eq(googleWalletObjects.organizationId, organizationId))
  return rows.map((row) => row.cardId)
}

export async function markGoogleWalletObjectPatched(
  db: Queryable,
  organizationId: string,
  cardId: string,
  at: Date,
) {
  await db.update(googleWalletObjects).set({ patchedAt: at }).where(ofCard(organizationId, cardId))
}
