// Counting what visitors do on a card besides viewing it (ADR 082): saves (vCard, wallet), taps
// on its links and exchanges (lead forms, connects). Bots and the card's owner are not counted,
// as for views; each count is queued for the event batcher, never written on the request.
import type { AppLoadContext } from '@remix-run/node'
import { getEnv } from '#app/env.server'
import type { CardEventKind } from '#app/models/card-events.server'
import { isBotUserAgent } from '#app/utils/bot'
import { hmacSha256Hex } from '#app/utils/keyed-hash.server'
import { sourceOfRequest, type ViewSource } from '#app/utils/view-sources'
import { queueCardEvent } from './event-batcher.server'

/** A keyed hash of the visitor: repeat views can be told apart without storing an address. */
export function visitorHash(ip: string, userAgent: string, cardId: string) {
  return hmacSha256Hex(getEnv().APP_SECRET, `${ip}\n${userAgent}\n${cardId}`).slice(0, 32)
}

/**
 * The page cache's marker for a cached vCard: each hit records a save instead of a view (the
 * value of the view header, read back by recordPublicCardView).
 */
export const VCARD_SAVE_MARK = 'vcard:'

/** Counts a visitor's save, tap or exchange on a card, unless a bot's or the owner's. */
export function countCardEvent(
  request: Request,
  context: AppLoadContext,
  event: {
    organizationId: string
    cardId: string
    kind: CardEventKind
    isOwner: boolean
    linkId?: string
    source?: ViewSource
  },
) {
  const userAgent = request.headers.get('User-Agent') ?? ''
  if (event.isOwner || isBotUserAgent(userAgent)) return
  queueCardEvent({
    organizationId: event.organizationId,
    cardId: event.cardId,
    kind: event.kind,
    linkId: event.linkId,
    source: event.source ?? sourceOfRequest(request, context),
    // Exchanges are each a contact kept: every one counts. A save or tap repeated by the same
    // visitor within the repeat window counts once, as a repeat view does.
    visitorHash:
      event.kind === 'lead' || event.kind === 'connect'
        ? undefined
        : visitorHash(context.clientIp ?? 'unknown', userAgent, event.cardId),
  })
}

/** A cached vCard's hit (server.ts → recordPublicCardView): a save, with the hit's source. */
export function countCachedVcardSave(
  organizationId: string,
  cardId: string,
  clientIp: string,
  userAgent: string,
  source: ViewSource,
) {
  if (isBotUserAgent(userAgent)) return
  queueCardEvent({
    organizationId,
    cardId,
    kind: 'vcard',
    source,
    visitorHash: visitorHash(clientIp, userAgent, cardId),
  })
}
