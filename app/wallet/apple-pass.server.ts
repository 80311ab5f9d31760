// A card as an Apple Wallet pass (issue 29 point 1, ADR 042): a generic pass with the card's
// name, title, company, photo or logo, the agency's colours, and a QR code of the card's short
// link marked as the wallet's, signed with the pass certificate. What a pass shows is one
// value (PassContent), hashed to tell whether a change reached it; the card comes through the
// card gate, for the viewer the pass was made for, every time it is built.
import { createHash } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import sharp from 'sharp'
import {
  type AppleWalletConfig,
  appleWalletConfig,
  WALLET_WEB_SERVICE_PATH,
} from '#app/cards/apple-config.server'
import { cardViewerOf, openCard, type ShownCard } from '#app/cards/card-gate.server'
import { countCardEvent } from '#app/cards/count-card-events.server'
import { cardLinkUrl } from '#app/cards/short-link'
import { tenantMediaBytes } from '#app/media/drawn-image.server'
import { findUserById } from '#app/models/users.server'
import { findOrCreateWalletPass, type WalletPass } from '#app/models/wallet-passes.server'
import { renderAppIcon } from '#app/services/brand-images.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { withSource } from '#app/utils/view-sources'
import { readableTextColor, safeHexColor } from '#app/validation/hex-color'
import { type Queryable, withTenant } from '#drizzle/db.server'
import { passAuthenticationToken } from './pass-token.server'

export const PKPASS_CONTENT_TYPE = 'application/vnd.apple.pkpass'

/** Everything a pass shows; images by their media paths, which name their content hash. */
export type PassContent = {
  /** The card is no longer shown to the pass's viewer: the pass says so and carries nothing of it. */
  voided: boolean
  organizationName: string
  name: string
  jobTitle: string
  company: string
  /** The card's short link, marked as the wallet's (`?s=w`): views from the pass count so. */
  link: string
  backgroundColor: string
  foregroundColor: string
  labelColor: string
  photoPath: string | null
  logoPath: string | null
  webServiceUrl: string
}

// The address of the tenant as configured, not as this request reached it (a proxy's port):
// the job that refreshes passes has no request, and the same card must hash the same.
const originOf = (tenant: Tenant) => tenantOrigin({ ...tenant, via: null })

function brandOf(tenant: Tenant) {
  const background = safeHexColor(tenant.primaryColor, '#3b82f6')
  const foreground = readableTextColor(background)
  return {
    organizationName: tenant.name,
    backgroundColor: background,
    foregroundColor: foreground,
    labelColor: foreground,
    webServiceUrl: `${originOf(tenant)}${WALLET_WEB_SERVICE_PATH}`,
  }
}

/**
 * What the pass shows of the card the gate let through, or, when it let nothing through (the
 * card made private, its owner or the pass's viewer deactivated), a voided pass in the agency's
 * colours with nothing of the card: the next update takes the card off the device.
 */
export function passContentOf(tenant: Tenant, row: ShownCard | undefined): PassContent {
  if (!row) {
    return {
      voided: true,
      ...brandOf(tenant),
      name: '',
      jobTitle: '',
      company: '',
      link: '',
      photoPath: null,
      logoPath: tenant.logoUrl,
    }
  }
  return {
    voided: false,
    ...brandOf(tenant),
    name: `${row.card.firstName} ${row.card.lastName}`.trim(),
    jobTitle: row.card.jobTitle,
    company: row.card.company,
    link: withSource(cardLinkUrl(originOf(tenant), row), 'wallet'),
    photoPath: row.profilePictureUrl,
    logoPath: row.logoUrl ?? tenant.logoUrl,
  }
}

export const passContentHash = (content: PassContent) =>
  createHash('sha256').update(JSON.stringify(content)).digest('hex')

/**
 * The card behind a pass, as the gate shows it to the viewer the pass was made for: nothing
 * once that viewer may no longer see it (a card made private, a deactivated owner or viewer),
 * which makes the pass a voided one (passContentOf).
 */
export async function openPassCard(db: Queryable, organizationId: string, pass: WalletPass) {
  let viewer = null
  if (pass.viewerId) {
    const user = await findUserById(db, organizationId, pass.viewerId)
    if (user?.status !== 'active') return undefined
    viewer = user
  }
  return openCard(db, organizationId, { id: pass.cardId }, viewer)
}

const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(', ')})`

const png = (bytes: Buffer, width: number, height: number, fit: 'cover' | 'inside') =>
  sharp(bytes)
    .resize({ width, height, fit, withoutEnlargement: fit === 'inside' })
    .png()
    .toBuffer()

async function passImages(tenant: Tenant, content: PassContent) {
  const images: Record<string, Buffer> = {}
  const brandLogo = await tenantMediaBytes(tenant, tenant.logoUrl)
  // Wallet requires an icon (lock screen, notifications): the tenant's app icon.
  for (const [file, size] of [
    ['icon.png', 29],
    ['icon@2x.png', 58],
    ['icon@3x.png', 87],
  ] as const) {
    images[file] = await renderAppIcon(
      { name: tenant.name, primaryColor: content.backgroundColor, logo: brandLogo },
      size,
      'any',
    )
  }
  const logo = await tenantMediaBytes(tenant, content.logoPath)
  if (logo) {
    images['logo.png'] = await png(logo, 160, 50, 'inside')
    images['logo@2x.png'] = await png(logo, 320, 100, 'inside')
  }
  const photo = await tenantMediaBytes(tenant, content.photoPath)
  if (photo) {
    images['thumbnail.png'] = await png(photo, 90, 90, 'cover')
    images['thumbnail@2x.png'] = await png(photo, 180, 180, 'cover')
  }
  return images
}

function passJson(config: AppleWalletConfig, pass: WalletPass, content: PassContent) {
  const common = {
    formatVersion: 1,
    passTypeIdentifier: config.passTypeId,
    teamIdentifier: config.teamId,
    serialNumber: pass.id,
    authenticationToken: passAuthenticationToken(pass.organizationId, pass.id),
    webServiceURL: content.webServiceUrl,
    organizationName: content.organizationName,
    backgroundColor: rgb(content.backgroundColor),
    foregroundColor: rgb(content.foregroundColor),
    labelColor: rgb(content.labelColor),
  }
  if (content.voided) {
    return {
      ...common,
      voided: true,
      description: 'A business card no longer shared',
      logoText: content.organizationName,
      generic: { primaryFields: [{ key: 'name', label: 'Card', value: 'No longer shared' }] },
    }
  }
  const secondary = [
    content.jobTitle && { key: 'title', label: 'Title', value: content.jobTitle },
    content.company && { key: 'company', label: 'Company', value: content.company },
  ].filter(Boolean)
  return {
    ...common,
    description: `Business card of ${content.name}`,
    logoText: content.company || content.organizationName,
    sharingProhibited: false,
    generic: {
      primaryFields: [{ key: 'name', label: 'Name', value: content.name }],
      secondaryFields: secondary,
      backFields: [{ key: 'card', label: 'Card', value: content.link }],
    },
    barcodes: [
      {
        format: 'PKBarcodeFormatQR',
        message: content.link,
        messageEncoding: 'iso-8859-1',
        altText: content.link.replace(/^https?:\/\//, '').replace(/\?.*$/, ''),
      },
    ],
  }
}

/** The signed .pkpass file. */
export async function buildPkpass(
  config: AppleWalletConfig,
  tenant: Tenant,
  pass: WalletPass,
  content: PassContent,
): Promise<Buffer> {
  const files: Record<string, Buffer> = {
    'pass.json': Buffer.from(JSON.stringify(passJson(config, pass, content))),
    ...(await passImages(tenant, content)),
  }
  // Loaded on the first pass, not with the server: otherwise every process would hold
  // passkit-generator and its certificate library (node-forge) in its heap (ADR 114).
  const { PKPass } = await import('passkit-generator')
  return new PKPass(files, config.certificates).getAsBuffer()
}

const fileNameOf = (name: string) =>
  `${name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'card'}.pkpass`

/** A pass answer: never cached by anyone, dated by its version. */
export function pkpassResponse(body: Buffer, pass: WalletPass, content: PassContent) {
  return new Response(new Uint8Array(body), {
    headers: {
      'Content-Type': PKPASS_CONTENT_TYPE,
      'Content-Disposition': `attachment; filename="${fileNameOf(content.name)}"`,
      'Content-Length': String(body.length),
      'Last-Modified': pass.updatedAt.toUTCString(),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

const notFound = () => new Response('Not Found', { status: 404 })

/** GET /card/{ref}/pass.pkpass: the card's pass for whoever the gate shows it to. */
export async function cardPassResponse(
  request: Request,
  context: AppLoadContext,
  reference: string,
) {
  const tenant = await requireTenant(context)
  const config = appleWalletConfig()
  if (!config) throw notFound()
  const viewer = await cardViewerOf(request, context)
  const found = await withTenant(tenant.id, async (tx) => {
    const row = await openCard(tx, tenant.id, { reference }, viewer)
    // A profile standing in for a user without cards has no card to keep a pass of.
    if (!row?.cardId) return undefined
    const content = passContentOf(tenant, row)
    // A new pass starts at the content it is handed out with; an existing one keeps its version
    // until the refresh job records a change (one place moves versions).
    const pass = await findOrCreateWalletPass(
      tx,
      tenant.id,
      row.cardId,
      viewer?.id ?? null,
      passContentHash(content),
    )
    return { pass, content, cardId: row.cardId, isOwner: row.isOwner }
  })
  if (!found) throw new Response('Contact card not found', { status: 404 })
  const body = await buildPkpass(config, tenant, found.pass, found.content)
  // A save to a wallet (ADR 082), once the pass is made.
  countCardEvent(request, context, {
    organizationId: tenant.id,
    cardId: found.cardId,
    kind: 'wallet',
    isOwner: found.isOwner,
  })
  return pkpassResponse(body, found.pass, found.content)
}
