// Google Wallet (issue 29 point 2, ADR 043). `/card/{ref}/google-wallet` answers with Google's
// save link: a JWT signed RS256 with the service account's key that carries the card as a
// generic object. The object's id comes from the card's, so the card's later changes reach it:
// the card's row in google_wallet_objects says its save link was issued, and the database then
// queues a job on every change (migration 0020) that updates the object through the REST API.
// Without GOOGLE_WALLET_ISSUER_ID and
// GOOGLE_WALLET_KEY there is no link: the route answers 404 and googleWalletConfigured()
// (google-wallet-config.server.ts) is false, which hides the button.
import { createHash } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { SignJWT } from 'jose'
import { cardViewerOf, openCard, type ShownCard } from '#app/cards/card-gate.server'
import { countCardEvent } from '#app/cards/count-card-events.server'
import {
  type GoogleWalletConfig,
  googleWalletConfig,
  googleWalletObjectId,
} from '#app/cards/google-wallet-config.server'
import { cardLinkUrl } from '#app/cards/short-link'
import { type JobHandler, PermanentJobError } from '#app/jobs/worker.server'
import {
  listGoogleWalletObjects,
  markGoogleWalletObjectPatched,
  recordGoogleWalletObject,
} from '#app/models/google-wallet-objects.server'
import { GoogleWalletApiError, updateGenericObject } from '#app/services/google-wallet-api.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
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
 * GET /card/{ref}/google-wallet: through the card gate as a signed-out visitor, whoever asks. A
 * card has one object, shared by everyone who saves it and kept current as such a visitor sees
 * the card (ADR 043): only a public card has one to offer. A card that is not public, a profile
 * standing in for a card (it has no object to keep current), or no configuration is the missing
 * card's 404.
 */
export async function googleWalletResponse(
  request: Request,
  context: AppLoadContext,
  reference: string,
) {
  const tenant = await requireTenant(context)
  const config = await googleWalletConfig()
  if (!config) throw new Response('Not Found', { status: 404 })
  const row = await withTenant(tenant.id, async (tx) => {
    const shown = await openCard(tx, tenant.id, { reference }, null)
    if (!shown?.cardId) return undefined
    await recordGoogleWalletObject(
      tx,
      tenant.id,
      shown.cardId,
      googleWalletObjectId(config.issuerId, shown.cardId),
    )
    return shown
  })
  if (!row?.cardId) throw new Response('Contact card not found', { status: 404 })
  const origin = tenantOrigin(tenant)
  const jwt = await saveJwt(config, origin, genericObjectOf(config.issuerId, tenant, origin, row))
  // A save to a wallet (ADR 082). The card is opened as a stranger sees it: the owner is told
  // apart by the session, as on the page.
  const viewer = await cardViewerOf(request, context)
  countCardEvent(request, context, {
    organizationId: tenant.id,
    cardId: row.cardId,
    kind: 'wallet',
    isOwner: viewer?.id === row.card.userId,
  })
  return new Response(null, {
    status: 302,
    headers: {
      Location: `${GOOGLE_SAVE_URL}${jwt}`,
      // Signed for this request (its time): never a shared cache's.
      'Cache-Control': 'private, no-store',
    },
  })
}

/**
 * What an object whose card a stranger may no longer see becomes (a card made non-public, its
 * owner deactivated): inactive, in the agency's colours, with nothing of the card: no name, no
 * pictures, no QR code. The whole object is sent (an update replaces it), so nothing of the
 * earlier version stays behind. Made public again, the next change sends the card once more.
 */
export function voidedObjectOf(issuerId: string, tenant: Branded, cardId: string) {
  return {
    id: googleWalletObjectId(issuerId, cardId),
    classId: `${issuerId}.${CLASS_SUFFIX}`,
    state: 'INACTIVE',
    cardTitle: localized(tenant.name),
    header: localized('Card no longer available'),
    hexBackgroundColor: safeHexColor(tenant.primaryColor, '#3b82f6'),
  }
}

const contentHash = (object: Record<string, unknown>) =>
  createHash('sha256').update(JSON.stringify(object)).digest('hex')

/**
 * The `google-wallet.patch` job, queued by the database for every write that may change what an
 * object shows or who may see it (migration 0020's trigger, the one place that decides, ADR 042
 * and 043); the payload names the scope: a card, an owner's cards, or the whole organization.
 * Each object in it is sent as a signed-out visitor sees its card now (one object per card,
 * shared by whoever saved it: ADR 043), or voided when such a visitor sees nothing; an object
 * whose content hash did not change is not sent. An object nobody saved yet (404: the first
 * save creates it from the save link) is left alone; one Google refused for good is logged and
 * skipped; any other failure retries the job, which then sends only what is still owed.
 */
export const googleWalletPatchJob: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const { cardId, ownerId } = job.payload as { cardId?: string; ownerId?: string }
    if (!organizationId) throw new PermanentJobError('malformed payload')
    const config = await googleWalletConfig()
    if (!config) return
    const tenant = await freshTenantOf(organizationId)
    // An agency deactivated or deleted meanwhile: no card of it is shown anywhere.
    if (!tenant) return
    const origin = tenantOrigin(tenant)
    const objects = await withTenant(organizationId, (tx) =>
      listGoogleWalletObjects(tx, organizationId, { cardId, ownerId }),
    )
    const refused: string[] = []
    let failure: unknown
    for (const object of objects) {
      const row = await withTenant(organizationId, (tx) =>
        openCard(tx, organizationId, { id: object.cardId }, null),
      )
      const body = row
        ? genericObjectOf(config.issuerId, tenant, origin, row)
        : voidedObjectOf(config.issuerId, tenant, object.cardId)
      const hash = contentHash(body)
      if (hash === object.contentHash) continue
      let outcome: 'patched' | 'missing'
      try {
        outcome = await updateGenericObject(config.apiUrl, config.account, object.objectId, body)
      } catch (error) {
        if (error instanceof GoogleWalletApiError && error.permanent) {
          refused.push(`${object.objectId}: ${error.message}`)
        } else {
          failure ??= error
        }
        continue
      }
      if (outcome === 'missing') continue
      await withTenant(organizationId, (tx) =>
        markGoogleWalletObjectPatched(tx, organizationId, object.cardId, hash, new Date()),
      )
    }
    if (failure) throw failure
    if (refused.length > 0) throw new PermanentJobError(refused.join('; ').slice(0, 400))
  },
}
