// A tap on a card's link (ADR 082): `/card/{ref}/l/{linkId}` counts the tap and answers 302 to
// the link's stored URL. It leads only to a link of this card that this visitor may see (the
// card gate's list), so it is never an open redirect; an unknown id is the missing card's 404.
import type { AppLoadContext } from '@remix-run/node'
import { cardViewerOf, openCard } from '#app/cards/card-gate.server'
import { countCardEvent } from '#app/cards/count-card-events.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { withTenant } from '#drizzle/db.server'

/** The path a card page's link goes through to be counted; only web links take it. */
export function linkTapPath(cardId: string, link: { id?: string; url: string }) {
  if (!link.id || !/^https?:\/\//i.test(link.url)) return null
  return `/card/${cardId}/l/${link.id}`
}

export async function linkTapResponse(
  request: Request,
  context: AppLoadContext,
  reference: string,
  linkId: string,
) {
  const tenant = await requireTenant(context)
  const viewer = await cardViewerOf(request, context)
  const row = await withTenant(tenant.id, (tx) => openCard(tx, tenant.id, { reference }, viewer))
  const link = row?.links.find((candidate) => candidate.id === linkId)
  // Only a web link: a stored URL of another scheme is not followed by a redirect.
  if (!row?.cardId || !link || !/^https?:\/\//i.test(link.url)) {
    throw new Response('Link not found', { status: 404 })
  }
  countCardEvent(request, context, {
    organizationId: tenant.id,
    cardId: row.cardId,
    kind: 'link',
    linkId,
    isOwner: row.isOwner,
  })
  return new Response(null, {
    status: 302,
    headers: {
      Location: link.url,
      // Every tap reaches the server to be counted; the link may change any time.
      'Cache-Control': 'private, no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
    },
  })
}
