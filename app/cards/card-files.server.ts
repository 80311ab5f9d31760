// Files made from a card: its vCard (which the NFC button writes to a tag) and its QR code.
// They pass the card gate as the page does: a card hidden from this visitor, or whose owner is
// inactive, has no files either, the QR code included (it names the card).
import type { AppLoadContext } from '@remix-run/node'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { cardViewerOf, openCard } from '#app/cards/card-gate.server'
import { countCardEvent, VCARD_SAVE_MARK } from '#app/cards/count-card-events.server'
import { cardLinkUrl, qrTextOf } from '#app/cards/short-link'
import { getMediaBytes } from '#app/models/media.server'
import { PRINT_QR_WIDTH, renderQrPng, renderQrSvg, SCREEN_QR } from '#app/services/qr.server'
import { buildCardVCard, vcardFileName, vcardPhoto } from '#app/services/vcard.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { EMBEDDABLE_IMAGE_HEADERS } from '#app/utils/route-headers'
import { sourceOfCode, type ViewSource } from '#app/utils/view-sources'
import { brandTextOnWhite, safeHexColor } from '#app/validation/hex-color'
import { slugWords } from '#app/validation/slug-words'
import { withTenant } from '#drizzle/db.server'

async function requireCard(request: Request, context: AppLoadContext, reference: string) {
  const tenant = await requireTenant(context)
  const viewer = await cardViewerOf(request, context)
  const row = await withTenant(tenant.id, (tx) => openCard(tx, tenant.id, { reference }, viewer))
  if (!row) throw new Response('Contact card not found', { status: 404 })
  return {
    tenant,
    card: row.card,
    links: row.links,
    // The short link (ADR 041): what the vCard's URL line and the QR code carry.
    cardUrl: cardLinkUrl(tenantOrigin(tenant), row),
    isPublic: row.isPublic,
    cardId: row.cardId,
    isOwner: row.isOwner,
  }
}

/**
 * The query parameter with which a channel that hands out the vCard itself asks for its card
 * link to be marked as its own (`?for=n`: the NFC tag's). Not the page's marker `s`, which the
 * page cache takes off: a vCard asked for this way is made for the request, never cached.
 */
export const VCARD_FOR_PARAM = 'for'

function vcardLinkSource(request: Request): ViewSource {
  const source = sourceOfCode(new URL(request.url).searchParams.get(VCARD_FOR_PARAM))
  return source === 'direct' ? 'vcard' : source
}

export async function vcardResponse(request: Request, context: AppLoadContext, reference: string) {
  const { tenant, card, links, cardUrl, isPublic, cardId, isOwner } = await requireCard(
    request,
    context,
    reference,
  )
  const photo = await withTenant(tenant.id, (tx) =>
    getMediaBytes(tx, tenant.id, card.profilePictureMediaId),
  )
  // Everything the gate let through, and nothing else: hidden phones and WhatsApp links are
  // already blank or gone.
  const body = buildCardVCard(card, {
    cardUrl,
    cardUrlSource: vcardLinkSource(request),
    links,
    photoJpeg: await vcardPhoto(photo?.data),
  })
  // A save (ADR 082). A response the page cache may keep is counted by server.ts, on this
  // request and every hit after it, through the view header's vCard mark.
  const cached = isPublic && context.pageCacheCandidate
  if (cardId && !cached) {
    countCardEvent(request, context, { organizationId: tenant.id, cardId, kind: 'vcard', isOwner })
  }
  return new Response(body, {
    headers: {
      'Content-Type': 'text/vcard; charset=utf-8',
      'Content-Disposition': `attachment; filename="${vcardFileName(card.firstName, card.lastName)}"`,
      'Cache-Control': 'private, no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...(isPublic
        ? pageCacheHeaders(context, tenant.id, {
            viewOf: cardId ? `${VCARD_SAVE_MARK}${cardId}` : null,
          })
        : {}),
    },
  })
}

/**
 * A drawn file of a card, answered or 304 by its ETag: the card's QR codes and its virtual
 * background (virtual-background.server.ts).
 */
export function conditional(
  request: Request,
  etag: string,
  body: Buffer,
  contentType: string,
  isPublic: boolean,
  offer: Record<string, string>,
  download?: { filename: string },
) {
  const headers = {
    ETag: etag,
    // A download for print is saved under its own name (the name holds only [a-z0-9-.]).
    ...(download ? { 'Content-Disposition': `attachment; filename="${download.filename}"` } : {}),
    // Revalidated every time (a cheap 304; the render itself is cached by content), so a card
    // made private or deleted stops answering at once; only a public card's may be shared.
    'Cache-Control': isPublic ? 'public, no-cache' : 'private, no-cache',
    'X-Content-Type-Options': 'nosniff',
    // A QR code's SVG carries its logo as a data: image.
    'Content-Security-Policy':
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    // A public card's files go out in signatures and emails; a private one's stay on its host.
    ...(isPublic ? EMBEDDABLE_IMAGE_HEADERS : {}),
  }
  if (request.headers.get('If-None-Match') === etag)
    return new Response(null, { status: 304, headers })
  return new Response(new Uint8Array(body), {
    headers: { ...headers, ...offer, 'Content-Type': contentType },
  })
}

export async function qrResponse(
  request: Request,
  context: AppLoadContext,
  reference: string,
  format: 'png' | 'svg',
) {
  const { tenant, card, cardUrl, isPublic } = await requireCard(request, context, reference)
  const offer = isPublic ? pageCacheHeaders(context, tenant.id) : {}
  // `?print` is the download for print (issue 41 point 13): 1200 px or SVG, in the agency's
  // colour, with the card's logo on both; without it, the spec's screen code.
  const print = new URL(request.url).searchParams.has('print')
  const logoId = card.logoMediaId
  const logo = logoId
    ? {
        key: logoId,
        bytes: async () =>
          (await withTenant(tenant.id, (tx) => getMediaBytes(tx, tenant.id, logoId)))?.data ?? null,
      }
    : undefined
  const style = print
    ? {
        width: PRINT_QR_WIDTH,
        dark: brandTextOnWhite(safeHexColor(tenant.primaryColor, '#000000')),
      }
    : SCREEN_QR
  const download = print ? { filename: `${qrFileName(card)}.${format}` } : undefined
  if (format === 'svg') {
    const { body, etag } = await renderQrSvg(qrTextOf(cardUrl), style, print ? logo : undefined)
    return conditional(request, etag, body, 'image/svg+xml', isPublic, offer, download)
  }
  const { body, etag } = await renderQrPng(qrTextOf(cardUrl), logo, style)
  return conditional(request, etag, body, 'image/png', isPublic, offer, download)
}

/** The download's name: the card owner's name as slug words, and "qr" (pia-print-qr). */
function qrFileName(card: { firstName: string; lastName: string }) {
  return `${slugWords(`${card.firstName} ${card.lastName}`, 60) || 'card'}-qr`
}
