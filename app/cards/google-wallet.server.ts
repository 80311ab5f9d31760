// Google Wallet (issue 29 point 2, ADR 043). `/card/{ref}/google-wallet` answers with Google's
// save link: a JWT signed RS256 with the service account's key that carries the card as a
// generic object. The object's id comes from the card's, so the card's later edits reach it: the
// card's row in google_wallet_objects says its save link was issued, and an edit then queues a
// job that PATCHes the object through the REST API. Without GOOGLE_WALLET_ISSUER_ID and
// GOOGLE_WALLET_KEY there is no link: the route answers 404 and googleWalletConfigured()
// (google-wallet-config.server.ts) is false, which hides the button.
import type { AppLoadContext } from '@remix-run/node'
import { SignJWT } from 'jose'
import { cardViewerOf, openCard, type ShownCard } from '#app/cards/card-gate.server'
import {
  type GoogleWalletConfig,
  googleWalletConfig,
  googleWalletObjectId,
} from '#app/cards/google-wallet-config.server'
import { cardLinkUrl } from '#app/cards/short-link'
import { type JobHandler, PermanentJobError } from '#app/jobs/worker.server'
import {
  findGoogleWalletObject,
  markGoogleWalletObjectPatched,
  recordGoogleWalletObject,
} from '#app/models/google-wallet-objects.server'
import { GoogleWalletApiError, patchGenericObject } from '#app/services/google-wallet-api.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import { withSource } from '#app/utils/view-sources'
import { safeHexColor } from '#app/validation/hex-color'
import { withTenant } from '#drizzle/db.server'

/** Where Google's save link starts; the signed JWT follows. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/'

/** The one class every card's object belongs to (a generic class holds no fields of its own). */
const CLASS_SUFFIX = 'brandcard_card'

const localized = (value: string) => ({ defaultValue: { language: 'en-US', value } })

type Branded = Pick<Tenant, 'name' | 'primaryColor' | 'logoUrl'>

/**
 * The card as a generic object: what a recipient needs to know it again and to open it. Only
 * the name, title, company, pictures and the short link: nothing the owner's privacy settings
 * hide (email, phones) is ever on it, so the owner's view and a visitor's carry the same.
 */
export function genericObjectOf(
  issuerId: string,
  tenant: Branded,
  origin: string,
  row: Pick<ShownCard, 'card' | 'shortSlug' | 'profilePictureUrl' | 'logoUrl'>,
) {
  const { card } = row
  const name = `${card.firstName} ${card.lastName}`.trim() || card.title
  const logo = row.logoUrl ?? tenant.logoUrl ?? row.profilePictureUrl
  const image = (path: string, description: string) => ({
    sourceUri: { uri: `${origin}${path}` },
    contentDescription: localized(description),
  })
  return {
    id: googleWalletObjectId(issuerId, card.id),
    classId: `${issuerId}.${CLASS_SUFFIX}`,
    state: 'ACTIVE',
    cardTitle: localized(card.company || tenant.name),
    header: localized(name),
    ...(card.jobTitle ? { subheader: localized(card.jobTitle) } : {}),
    hexBackgroundColor: safeHexColor(tenant.primaryColor, '#3b82f6'),
    ...(logo ? { logo: image(logo, card.company || tenant.name) } : {}),
    ...(row.profilePictureUrl ? { heroImage: image(row.profilePictureUrl, name) } : {}),
    ...(card.company
      ? { textModulesData: [{ id: 'company', header: 'Company', body: card.company }] }
      : {}),
    barcode: {
      type: 'QR_CODE',
      // The short link marked as the wallet's (ADR 039): a scan counts under "Wallet".
      value: withSource(cardLinkUrl(origin, row), 'wallet'),
    },
  }
}

/** The save link's JWT (Google's "savetowallet" token), with the class made on first save. */
async function saveJwt(
  config: GoogleWalletConfig,
  origin: string,
  object: ReturnType<typeof genericObjectOf>,
) {
  const { account } = config
  return new SignJWT({
    typ: 'savetowallet',
    origins: [origin],
    payload: {
      genericClasses: [{ id: object.classId }],
      genericObjects: [object],
    },
  })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(account.keyId ? { kid: account.keyId } : {}),
    })
    .setIssuer(account.clientEmail)
    .setAudience('google')
    .setIssuedAt()
    .sign(account.privateKey)
}

/**
 * GET /card/{ref}/google-wallet: through the card gate, as the card page; a card hidden from
 * this visitor, a profile standing in for a card (it has no object to keep current), or no
 * configuration is the missing card's 404.
 */
export async function googleWalletResponse(
  request: Request,
  context: AppLoadContext,
  reference: string,
) {
  const tenant = await requireTenant(context)
  const config = await googleWalletConfig()
  if (!config) throw new Response('Not Found', { status: 404 })
  const viewer = await cardViewerOf(request, context)
  const row = await withTenant(tenant.id, async (tx) => {
    const shown = await openCard(tx, tenant.id, { reference }, viewer)
    if (!shown?.cardId) return undefined
    await recordGoogleWalletObject(
      tx,
      tenant.id,
      shown.cardId,
      googleWalletObjectId(config.issuerId, shown.cardId),
    )
    return shown
  })
  if (!row) throw new Response('Contact card not found', { status: 404 })
  const origin = tenantOrigin(tenant)
  const jwt = await saveJwt(config, origin, genericObjectOf(config.issuerId, tenant, origin, row))
  return new Response(null, {
    status: 302,
    headers: {
      Location: `${GOOGLE_SAVE_URL}${jwt}`,
      // Signed for this request (its time, this viewer's card): never a shared cache's.
      'Cache-Control': 'private, no-store',
    },
  })
}

/**
 * The job: the card as its owner's card page shows it (the object carries nothing the privacy
 * settings hide), patched onto its object. A card deleted or an owner deactivated since, an
 * object nobody saved yet (404: the first save creates it from the save link), or Google Wallet
 * switched off meanwhile: nothing to do.
 */
export const googleWalletPatchJob: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const { cardId, host } = job.payload as { cardId?: string; host?: string }
    if (!organizationId || !cardId || !host) throw new PermanentJobError('malformed payload')
    const config = await googleWalletConfig()
    if (!config) return
    const resolution = await resolveTenant(host)
    // The host was the tenant's when the edit was made; a tenant that moved or went away since
    // has no card to show.
    if (resolution.status !== 'found' || resolution.tenant.id !== organizationId) return
    const tenant = resolution.tenant
    const found = await withTenant(organizationId, async (tx) => {
      const object = await findGoogleWalletObject(tx, organizationId, cardId)
      if (!object) return undefined
      const owner = { id: object.ownerId, email: '', emailConfirmedAt: null }
      const row = await openCard(tx, organizationId, { id: cardId }, owner)
      return row && { object, row }
    })
    if (!found) return
    const origin = tenantOrigin(tenant)
    const body = genericObjectOf(config.issuerId, tenant, origin, found.row)
    let outcome: 'patched' | 'missing'
    try {
      outcome = await patchGenericObject(config.apiUrl, config.account, found.object.objectId, body)
    } catch (error) {
      if (error instanceof GoogleWalletApiError && error.permanent) {
        throw new PermanentJobError(error.message)
      }
      throw error
    }
    if (outcome === 'missing') return
    await withTenant(organizationId, (tx) =>
      markGoogleWalletObjectPatched(tx, organizationId, cardId, new Date()),
    )
  },
}
