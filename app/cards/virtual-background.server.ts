// A card's virtual background (issue 29 point 4) at /card/{ref}/background.png: through the card
// gate as the QR code is (a card hidden from this visitor has no background either), drawn by
// app/services/virtual-background-image.server.ts. The ETag is the hash of everything drawn, so an
// edited card or branding is a new image, and an unchanged one a cheap 304.
import type { AppLoadContext } from '@remix-run/node'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { conditional } from '#app/cards/card-files.server'
import { cardViewerOf, openCard } from '#app/cards/card-gate.server'
import { cardLinkUrl } from '#app/cards/short-link'
import { tenantMediaBytes } from '#app/media/drawn-image.server'
import { drawingHash } from '#app/services/brand-images.server'
import { renderVirtualBackground } from '#app/services/virtual-background-image.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { withSource } from '#app/utils/view-sources'
import { safeHexColor } from '#app/validation/hex-color'
import {
  VIRTUAL_BACKGROUND_SIZES,
  VirtualBackgroundSchema,
} from '#app/validation/virtual-background'
import { withTenant } from '#drizzle/db.server'

export { virtualBackgroundPath } from '#app/validation/virtual-background'

/** The options of the query, or the 400 that names what is wrong (never a 500). */
function optionsOf(request: Request) {
  const query = new URL(request.url).searchParams
  const parsed = VirtualBackgroundSchema.safeParse({
    size: query.get('size') ?? undefined,
    layout: query.get('layout') ?? undefined,
    theme: query.get('theme') ?? undefined,
  })
  if (parsed.success) return parsed.data
  const message = parsed.error.issues.map((issue) => issue.message).join('\n')
  throw new Response(message, {
    status: 400,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  })
}

export async function virtualBackgroundResponse(
  request: Request,
  context: AppLoadContext,
  reference: string,
) {
  const tenant = await requireTenant(context)
  const options = optionsOf(request)
  const viewer = await cardViewerOf(request, context)
  const row = await withTenant(tenant.id, (tx) => openCard(tx, tenant.id, { reference }, viewer))
  if (!row) throw new Response('Contact card not found', { status: 404 })
  const { card } = row
  // The card's logo, else the agency's: media paths carry their content hash, so the path
  // stands for the bytes in the hash below.
  const logoPath = row.logoUrl ?? tenant.logoUrl
  // The short link marked as the background's (ADR 039): a scan counts under "Background".
  const qrText = withSource(cardLinkUrl(tenantOrigin(tenant), row), 'background')
  const { width, height } = VIRTUAL_BACKGROUND_SIZES[options.size]
  const drawn = {
    width,
    height,
    layout: options.layout,
    theme: options.theme,
    name: `${card.firstName} ${card.lastName}`.trim(),
    jobTitle: card.jobTitle,
    company: card.company,
    primaryColor: safeHexColor(tenant.primaryColor, '#3b82f6'),
    secondaryColor: safeHexColor(tenant.secondaryColor, '#10b981'),
    qrText,
  }
  const hash = drawingHash([tenant.id, drawn, logoPath])
  const etag = `"${hash}"`
  const offer = row.isPublic ? pageCacheHeaders(context, tenant.id) : {}
  if (request.headers.get('If-None-Match') === etag) {
    return conditional(request, etag, Buffer.alloc(0), 'image/png', row.isPublic, offer)
  }
  const png = await renderVirtualBackground(hash, {
    ...drawn,
    logo: await tenantMediaBytes(tenant, logoPath),
  })
  return conditional(request, etag, png, 'image/png', row.isPublic, {
    ...offer,
    'Content-Disposition': 'inline; filename="background.png"',
  })
}
