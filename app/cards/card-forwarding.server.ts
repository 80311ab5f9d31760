// What the links of a departed person's cards answer (issue 31 point 2, ADR 049), asked by the
// card gate alone when a card's owner is inactive: the successor's card when the agency handed
// the seat over (and the successor is active with a card), else the agency's default, a message
// or its own contact page. Nothing of the departed person's card is part of the answer.
import { cardLinkPath } from '#app/cards/short-link'
import { getOrganizationPreferences } from '#app/models/organization-settings.server'
import { findSeatSuccessorCard, findSuccessorCard } from '#app/models/seat-successors.server'
import { readSeatForwarding } from '#app/validation/seat-forwarding'
import type { Queryable } from '#drizzle/db.server'

export type Forwarding =
  /** A path on the same host: the successor's card, by its short link. */
  | { kind: 'successor'; path: string }
  /** The agency's own contact page, an absolute https URL it set. */
  | { kind: 'contact_page'; url: string }
  /** The agency's words, shown on a page of its own. */
  | { kind: 'message'; message: string }

export async function forwardingFor(
  db: Queryable,
  organizationId: string,
  departedUserId: string,
): Promise<Forwarding> {
  return forwardingVia(
    db,
    organizationId,
    await findSeatSuccessorCard(db, organizationId, departedUserId),
  )
}

/**
 * What a deleted account's departed address answers (ADR 053): the same rule, with the
 * successor the address keeps (the seat's row went with the account).
 */
export async function forwardingForDeparted(
  db: Queryable,
  organizationId: string,
  successorId: string | null,
): Promise<Forwarding> {
  const successor = successorId
    ? await findSuccessorCard(db, organizationId, successorId)
    : undefined
  return forwardingVia(db, organizationId, successor)
}

async function forwardingVia(
  db: Queryable,
  organizationId: string,
  successor: Awaited<ReturnType<typeof findSuccessorCard>>,
): Promise<Forwarding> {
  // A successor who left too, or has no card yet, forwards nowhere: no chains, no loops.
  if (successor?.successorStatus === 'active' && successor.cardId) {
    return { kind: 'successor', path: cardLinkPath({ id: successor.cardId }, successor.slug) }
  }
  const preferences = await getOrganizationPreferences(db, organizationId)
  const chosen = readSeatForwarding(preferences.seatForwarding)
  return chosen.kind === 'contact_page'
    ? { kind: 'contact_page', url: chosen.contactPageUrl }
    : { kind: 'message', message: chosen.message }
}
