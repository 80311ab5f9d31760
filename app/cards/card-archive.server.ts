// Archiving a card (issue 43, ADR 095): the owner's card list and the agency's REST API take a
// card offline and bring it back through this one function, so both move the default card the
// same way and tell webhook receivers once per change. Who did it is audited by the caller.
import { setCardArchivedState } from '#app/models/cards.server'
import { emitCardUpdated } from '#app/webhooks/webhook-events.server'
import type { Queryable } from '#drizzle/db.server'

/** The card after the change, or undefined for a card that is not this owner's. */
export async function setCardArchived(
  db: Queryable,
  organizationId: string,
  ownerId: string,
  cardId: string,
  archived: boolean,
) {
  const result = await setCardArchivedState(db, organizationId, ownerId, cardId, archived)
  if (!result) return undefined
  if (result.changed) await emitCardUpdated(db, organizationId, result.card)
  return result.card
}
