// What a change to cards concerns (the change trigger's payload, ADR 043): one card, one owner's
// cards, or with neither the whole organization. The wallets' rows (Apple passes, Google objects)
// are found by it; each model still names the organization itself.
import { type AnyColumn, and, eq } from 'drizzle-orm'
import { digitalCards } from '#drizzle/schema'
import { tenantJoin } from './tenant-join.server'

export type CardChangeScope = { cardId?: string; ownerId?: string }

type RowOfCard = { organizationId: AnyColumn; cardId: AnyColumn }

/** Joins a row kept per card to its card, in the row's own organization: the owner is the card's. */
export const cardOfRow = (row: RowOfCard) =>
  tenantJoin(digitalCards, row, digitalCards.id, row.cardId)

/** The rows the scope concerns, of a query that joined their cards by `cardOfRow`. */
export const inCardChangeScope = (row: RowOfCard, scope: CardChangeScope) =>
  and(
    scope.cardId ? eq(row.cardId, scope.cardId) : undefined,
    scope.ownerId ? eq(digitalCards.userId, scope.ownerId) : undefined,
  )
