// The cards whose Google Wallet object someone may hold (ADR 043): a row per card whose save link
// was issued. The database queues a patch on a change only for a card with a row here (migration
// 0020's trigger).
import { and, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { digitalCards, googleWalletObjects } from '#drizzle/schema'
import { type CardChangeScope, cardOfRow, inCardChangeScope } from './card-change-scope.server'

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

/**
 * The objects in a change's scope (the trigger's payload, ADR 043): one card's, an owner's cards',
 * or the whole organization's.
 */
export async function listGoogleWalletObjects(
  db: Queryable,
  organizationId: string,
  scope: CardChangeScope,
) {
  return db
    .select({
      cardId: googleWalletObjects.cardId,
      objectId: googleWalletObjects.objectId,
      contentHash: googleWalletObjects.contentHash,
    })
    .from(googleWalletObjects)
    .innerJoin(digitalCards, cardOfRow(googleWalletObjects))
    .where(
      and(
        eq(googleWalletObjects.organizationId, organizationId),
        inCardChangeScope(googleWalletObjects, scope),
      ),
    )
}

/** Google accepted the object with this content: the same content is not sent again. */
export async function markGoogleWalletObjectPatched(
  db: Queryable,
  organizationId: string,
  cardId: string,
  contentHash: string,
  at: Date,
) {
  await db
    .update(googleWalletObjects)
    .set({ patchedAt: at, contentHash })
    .where(ofCard(organizationId, cardId))
}
