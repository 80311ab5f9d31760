// A card's email signature (issue 29 point 3, ADR 044): `/card/{ref}/signature.html` and `.txt`,
// and the builder at /dashboard/{area}/digital-cards/signature/{cardId}. Only the card's owner gets
// either (anyone else: the missing card's 404), and both carry the card as the people it is shown
// to see it (card-gate.server.ts, openOwnCardAsShown): a signature goes out in every email.
import type { AppLoadContext } from '@remix-run/node'
import { requireRole } from '#app/auth/guards.server'
import { cardViewerOf, openOwnCardAsShown, type ShownCard } from '#app/cards/card-gate.server'
import { type CardArea, cardsListPath } from '#app/cards/card-paths'
import { cardLinkUrl } from '#app/cards/short-link'
import {
  renderSignatureHtml,
  renderSignatureText,
  type SignatureContent,
} from '#app/services/signature-render.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { redirectWithToast } from '#app/utils/toast.server'
import { withSource } from '#app/utils/view-sources'
import { dialable, linkName, PHONE_TYPE_LABELS } from '#app/validation/card-details'
import {
  SIGNATURE_LAYOUTS,
  SIGNATURE_MAX_BYTES,
  type SignatureLayout,
  SignatureOptionsSchema,
  signaturePath,
} from '#app/validation/email-signature'
import { safeHexColor } from '#app/validation/hex-color'
import { CARD_AREA_ROLES } from '#app/validation/roles'
import { withTenant } from '#drizzle/db.server'

const isWebUrl = (url: string) => /^https?:\/\/[^\s]+$/i.test(url)

/** What the signature shows of a card: everything by absolute URL on the tenant's host. */
function signatureContent(tenant: Tenant, row: ShownCard): SignatureContent {
  const origin = tenantOrigin(tenant)
  const { card } = row
  const absolute = (path: string | null) => (path ? `${origin}${path}` : null)
  const phones = [
    { number: card.phoneNumber, type: card.phoneType },
    { number: card.phone2, type: card.phone2Type },
  ]
    .filter((phone) => phone.number.trim())
    .map((phone) => ({
      label: PHONE_TYPE_LABELS[phone.type].charAt(0),
      number: phone.number,
      dial: dialable(phone.number),
    }))
  return {
    name: `${card.firstName} ${card.lastName}`.trim(),
    jobTitle: card.jobTitle,
    company: card.company,
    phones,
    website: isWebUrl(card.website) ? card.website : '',
    links: row.links
      .filter((item) => isWebUrl(item.url))
      .map((item) => ({ name: linkName(item), url: item.url })),
    // The short link marked as the signature's (ADR 039): a click counts under "Email signature".
    cardUrl: withSource(cardLinkUrl(origin, row), 'signature'),
    photoUrl: absolute(row.profilePictureUrl),
    logoUrl: absolute(row.logoUrl ?? tenant.logoUrl),
    // The QR code PNG (no SVG: Gmail and Outlook drop it), through the card gate as ever.
    qrUrl: `${origin}/card/${encodeURIComponent(row.card.id)}/qr.png`,
    primaryColor: safeHexColor(tenant.primaryColor, '#3b82f6'),
  }
}

/**
 * The signature's HTML within Gmail's limit: a card with many long links would pass it, so the
 * last links give way (the card they lead to lists them all).
 */
function signatureHtml(content: SignatureContent, layout: SignatureLayout) {
  let html = renderSignatureHtml(content, layout)
  for (let kept = content.links.length - 1; kept >= 0; kept--) {
    if (Buffer.byteLength(html, 'utf8') < SIGNATURE_MAX_BYTES) break
    html = renderSignatureHtml({ ...content, links: content.links.slice(0, kept) }, layout)
  }
  return html
}

/** The layout of the query, or the 400 that names what is wrong (never a 500). */
function layoutOf(request: Request): SignatureLayout {
  const parsed = SignatureOptionsSchema.safeParse({
    layout: new URL(request.url).searchParams.get('layout') ?? undefined,
  })
  if (parsed.success) return parsed.data.layout
  throw new Response(parsed.error.issues.map((issue) => issue.message).join('\n'), {
    status: 400,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  })
}

export async function signatureResponse(
  request: Request,
  context: AppLoadContext,
  reference: string,
  format: 'html' | 'txt',
) {
  const tenant = await requireTenant(context)
  const layout = layoutOf(request)
  const viewer = await cardViewerOf(request, context)
  const row = await withTenant(tenant.id, (tx) =>
    openOwnCardAsShown(tx, tenant.id, { reference }, viewer),
  )
  if (!row) throw new Response('Contact card not found', { status: 404 })
  const content = signatureContent(tenant, row)
  const body = format === 'html' ? signatureHtml(content, layout) : renderSignatureText(content)
  return new Response(body, {
    headers: {
      'Content-Type': `${format === 'html' ? 'text/html' : 'text/plain'}; charset=utf-8`,
      // The owner's alone, and current: never kept by a shared cache.
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      // Opened on its own, the HTML runs nothing and loads only images.
      'Content-Security-Policy':
        "default-src 'none'; img-src *; style-src 'unsafe-inline'; sandbox",
    },
  })
}

/** The builder: the owner's card, the signature in the chosen layout, and its HTML and text. */
export async function signatureBuilderLoader(
  request: Request,
  context: AppLoadContext,
  area: CardArea,
  cardId: string,
) {
  const { tenant, user } = await requireRole(request, context, CARD_AREA_ROLES[area])
  const row = await withTenant(tenant.id, (tx) =>
    openOwnCardAsShown(tx, tenant.id, { id: cardId }, user),
  )
  // Unknown, another user's, or another tenant's card: the editor's answer (spec §2.8).
  if (!row?.cardId) {
    throw await redirectWithToast(cardsListPath(area), {
      type: 'error',
      title: 'Digital card not found',
    })
  }
  // A layout the builder's links never make falls back to the first, as an unknown step does.
  const layout =
    SignatureOptionsSchema.safeParse({
      layout: new URL(request.url).searchParams.get('layout') ?? undefined,
    }).data?.layout ?? 'classic'
  const content = signatureContent(tenant, row)
  return {
    card: { id: row.card.id, title: row.card.title, name: content.name },
    layout,
    layouts: SIGNATURE_LAYOUTS,
    html: signatureHtml(content, layout),
    text: renderSignatureText(content),
    htmlPath: signaturePath(row.card.id, layout, 'html'),
    textPath: signaturePath(row.card.id, layout, 'txt'),
    // Images and links open for those the card is shown to: say so when that is not everyone.
    isPublic: row.isPublic,
    qrPath: `/qrcode/${encodeURIComponent(row.card.id)}`,
  }
}
