// Files made from a public card: its vCard and its QR code. Same tenant rules as the page.
import type { AppLoadContext } from '@remix-run/node'
import { getOptionalUser } from '#app/auth/guards.server'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { getOwnerPrivacy, mayViewCard, withPrivacy } from '#app/cards/card-privacy.server'
import { findCardByReference } from '#app/models/cards.server'
import { getMediaBytes } from '#app/models/media.server'
import { renderQrPng, renderQrSvg } from '#app/services/qr.server'
import { buildVCard, vcardFileName } from '#app/services/vcard.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { withTenant } from '#drizzle/db.server'

/**
 * The card a file is made from. With a `request`, the owner's privacy applies as on the page
 * (files are for visitors, so a card hidden from this visitor has none). The QR code holds only
 * the link, which the owner's own QR screen shows too, so it is served whatever the privacy.
 */
async function requireCard(context: AppLoadContext, reference: string, request?: Request) {
  const tenant = await requireTenant(context)
  // Only a request with a session cookie can come from someone a hidden card is shown to.
  const viewer =
    request && (request.headers.get('Cookie') ?? '').includes('session')
      ? (await getOptionalUser(request, context)).user
      : null
  const row = await withTenant(tenant.id, async (tx) => {
    const found = await findCardByReference(tx, tenant.id, reference)
    if (!found || !request) return found && { ...found, isPublic: true }
    const privacy = await getOwnerPrivacy(tx, tenant.id, found.card.userId)
    if (!(await mayViewCard(tx, tenant.id, found.card.userId, privacy, viewer))) return undefined
    return {
      ...found,
      card: withPrivacy(found.card, privacy),
      isPublic: privacy.visibility === 'public',
    }
  })
  if (!row) throw new Response('Contact card not found', { status: 404 })
  return {
    tenant,
    card: row.card,
    cardUrl: `${tenantOrigin(tenant)}/card/${row.card.id}`,
    isPublic: row.isPublic,
  }
}

export async function vcardResponse(request: Request, context: AppLoadContext, reference: string) {
  const { tenant, card, cardUrl, isPublic } = await requireCard(context, reference, request)
  const photo = await withTenant(tenant.id, (tx) =>
    getMediaBytes(tx, tenant.id, card.profilePictureMediaId),
  )
  const body = buildVCard({ ...card, cardUrl, photoJpeg: photo?.data ?? null })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/vcard; charset=utf-8',
      'Content-Disposition': `attachment; filename="${vcardFileName(card.firstName, card.lastName)}"`,
      'Cache-Control': 'private, no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...(isPublic ? pageCacheHeaders(context, tenant.id) : {}),
    },
  })
}

function conditional(
  request: Request,
  etag: string,
  body: Buffer,
  contentType: string,
  offer: Record<string, string>,
) {
  const headers = {
    ETag: etag,
    // Revalidated cheaply (304) after a few minutes; the render itself is cached by content.
    'Cache-Control': 'public, max-age=300, stale-while-revalidate=86400',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
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
  const { tenant, card, cardUrl } = await requireCard(context, reference)
  const offer = pageCacheHeaders(context, tenant.id)
  if (format === 'svg') {
    const { body, etag } = await renderQrSvg(cardUrl)
    return conditional(request, etag, body, 'image/svg+xml', offer)
  }
  const logoId = card.logoMediaId
  const { body, etag } = await renderQrPng(
    cardUrl,
    logoId
      ? {
          key: logoId,
          bytes: async () =>
            (await withTenant(tenant.id, (tx) => getMediaBytes(tx, tenant.id, logoId)))?.data ??
            null,
        }
      : undefined,
  )
  return conditional(request, etag, body, 'image/png', offer)
}
