// A card's link preview image (ADR 024), at /card/{id}/og/{hash}.png. The hash covers everything
// drawn (name, title, photo, the tenant's colours and logo), so the address never changes meaning
// and a changed card or branding is a new address: the card page names the current one, and
// the page cache drops that page on any change (ADR 021).
import type { AppLoadContext } from '@remix-run/node'
import { openCard } from '#app/cards/card-gate.server'
import { bioLine, cardTitleLine } from '#app/cards/card-view'
import { drawnPngResponse, tenantMediaBytes } from '#app/media/drawn-image.server'
import { drawingHash, OG_HEIGHT, OG_WIDTH, renderOgImage } from '#app/services/brand-images.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { safeHexColor } from '#app/validation/hex-color'
import { withTenant } from '#drizzle/db.server'

export { OG_HEIGHT, OG_WIDTH }

type Drawn = {
  id: string
  firstName: string
  lastName: string
  jobTitle: string
  company: string
  /** The headline or bio (issue 28), drawn under the title. */
  bio: string
  profilePictureUrl: string | null
}
type Branded = Pick<Tenant, 'primaryColor' | 'secondaryColor' | 'logoUrl'>

const FILE = /^([0-9a-f]{20})\.png$/

const nameOf = (card: Drawn) => `${card.firstName} ${card.lastName}`.trim()

function colours(tenant: Branded) {
  return {
    primaryColor: safeHexColor(tenant.primaryColor, '#3b82f6'),
    secondaryColor: safeHexColor(tenant.secondaryColor, '#10b981'),
  }
}

/** Media paths carry their content hash, so the photo and logo paths stand for their bytes. */
export function ogImageHash(tenant: Branded, card: Drawn) {
  const { primaryColor, secondaryColor } = colours(tenant)
  return drawingHash([
    nameOf(card),
    cardTitleLine(card),
    bioLine(card.bio),
    card.profilePictureUrl,
    primaryColor,
    secondaryColor,
    tenant.logoUrl,
  ])
}

export function ogImagePath(tenant: Branded, card: Drawn) {
  return `/card/${card.id}/og/${ogImageHash(tenant, card)}.png`
}

export async function ogImageResponse(context: AppLoadContext, reference: string, file: string) {
  const tenant = await requireTenant(context)
  const hash = FILE.exec(file)?.[1]
  // Link previews are fetched by anyone's crawler, signed out: the gate, asked for nobody in
  // particular, opens only a public card of an active owner.
  const found = hash
    ? await withTenant(tenant.id, (tx) => openCard(tx, tenant.id, { reference }, null))
    : undefined
  if (!found) throw new Response('Not Found', { status: 404 })
  const card: Drawn = { ...found.card, profilePictureUrl: found.profilePictureUrl }
  if (hash !== ogImageHash(tenant, card)) {
    // A preview of the card as it was (a link shared before an edit): the current one, which
    // the redirect does not pin, unlike the cached answer below.
    return new Response(null, {
      status: 302,
      headers: { Location: ogImagePath(tenant, card), 'Cache-Control': 'no-cache' },
    })
  }
  const png = await renderOgImage(`${tenant.id}\n${hash}`, {
    name: nameOf(card),
    title: cardTitleLine(card),
    bio: bioLine(card.bio),
    photo: await tenantMediaBytes(tenant, card.profilePictureUrl),
    logo: await tenantMediaBytes(tenant, tenant.logoUrl),
    ...colours(tenant),
  })
  return drawnPngResponse(context, tenant, png)
}
