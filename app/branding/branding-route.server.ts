// The agency's Branding screen (spec §2.12): logo, favicon, colours, company name, custom
// domain and white labeling. Agency admins change it; agency members read it. Saving applies to
// every page of the agency's hosts at once (the tenant cache is dropped after the commit).
import type { AppLoadContext } from '@remix-run/node'
import type { z } from 'zod'
import { type IntentDone, intentAction } from '#app/actions/intent-action.server'
import { requireRole, type SignedIn } from '#app/auth/guards.server'
import { DOMAIN_CLAIM_DAYS } from '#app/domains/claims'
import {
  changeCustomDomain,
  checkCustomDomain,
  DOMAIN_TAKEN,
  type DomainCheck,
  readDomainState,
} from '#app/domains/custom-domain-verification.server'
import {
  addSendingDomain,
  checkSendingDomain,
  PROVIDER_UNAVAILABLE,
  readSendingDomainState,
  removeSendingDomain,
  type SendingDomainCheck,
} from '#app/domains/sending-domain-verification.server'
import { saveConsentText } from '#app/leads/lead-consent.server'
import { resolveImageField } from '#app/media/uploads.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import { listConsentTexts } from '#app/models/consent-texts.server'
import {
  findBrandingImagePaths,
  findOrganizationBranding,
  updateOrganizationBranding,
} from '#app/models/organizations.server'
import { EmailProviderError } from '#app/services/resend-domains.server'
import { saveHostLanguages } from '#app/settings/language-settings.server'
import { followBrandingLogo } from '#app/templates/templates-route.server'
import { readLanguageSettings } from '#app/tenancy/languages.server'
import {
  readGetYourOwnCardUrl,
  readLegalLinks,
  saveGetYourOwnCardUrl,
  saveLegalLinks,
} from '#app/tenancy/legal.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { invalidateTenant } from '#app/tenancy/tenant.server'
import { BrandingActionSchema, type BrandingSchema } from '#app/validation/branding'
import { CONSENT_TOASTS } from '#app/validation/consent-text'
import { AREA_ROLES } from '#app/validation/roles'
import { type Transaction, withTenant } from '#drizzle/db.server'

export const BRANDING_PATH = '/dashboard/agency/branding'
export const BRANDING_UPDATED = 'Branding Updated'

const FORBIDDEN = () => new Response('Forbidden', { status: 403, statusText: 'Forbidden' })

async function requireAgency(request: Request, context: AppLoadContext, roles: readonly string[]) {
  const signedIn = await requireRole(request, context, AREA_ROLES.agency)
  if (signedIn.tenant.kind !== 'agency' || !roles.includes(signedIn.user.role)) throw FORBIDDEN()
  return signedIn
}

export async function loadBranding(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireAgency(request, context, AREA_ROLES.agency)
  return withTenant(tenant.id, async (tx) => {
    const row = await findOrganizationBranding(tx, tenant.id)
    if (!row) throw new Response('Not Found', { status: 404 })
    const images = await findBrandingImagePaths(tx, tenant.id, row)
    return {
      canManage: user.role === 'agency_admin',
      branding: {
        companyName: row.name,
        primaryColor: row.primaryColor,
        secondaryColor: row.secondaryColor,
        whiteLabelActive: row.whiteLabelActive,
        logoUrl: images.logoPath,
        faviconUrl: images.faviconPath,
      },
      // The agency's own links, not the host's: an empty field shows the platform's default.
      legal: await readLegalLinks(tx, tenant.id),
      // The card page footer's "Get your own card" address (ADR 083); empty for sign-up.
      getYourOwnCardUrl: await readGetYourOwnCardUrl(tx, tenant.id),
      // Its own choice of languages, else what its host follows (the platform's).
      languages: (await readLanguageSettings(tx, tenant.id)) ?? tenant.languages,
      domain: await readDomainState(tx, tenant.id),
      sendingDomain: await readSendingDomainState(tx, tenant.id, row.whiteLabelActive),
      subdomainHost: new URL(tenantOrigin({ ...tenant, customDomain: null })).host,
      // The lead forms' consent text, newest version first (ADR 050).
      consentTexts: (await listConsentTexts(tx, tenant.id)).map((text) => ({
        version: text.version,
        body: text.body,
        createdAt: text.createdAt,
      })),
    }
  })
}

/**
 * The stored branding as the agency profile's Agency Branding tab summarises it (§2.4): the
 * organization's own values, not the host's (which fall back to the platform's while white
 * labeling is off), so the tab shows what the Branding screen would edit.
 */
export async function readBrandingSummary(tx: Transaction, organizationId: string) {
  const row = await findOrganizationBranding(tx, organizationId)
  if (!row) return null
  const images = await findBrandingImagePaths(tx, organizationId, row)
  const domain = await readDomainState(tx, organizationId)
  return {
    name: row.name,
    primaryColor: row.primaryColor,
    secondaryColor: row.secondaryColor,
    whiteLabelActive: row.whiteLabelActive,
    logoUrl: images.logoPath,
    customDomain: domain.domain,
    domainStatus: domain.status,
  }
}

export type BrandingSummary = NonNullable<Awaited<ReturnType<typeof readBrandingSummary>>>

export async function brandingAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => requireAgency(request, context, ['agency_admin']),
    schema: BrandingActionSchema,
    // The logo and favicon: an image refused is the reply next to its field.
    multipart: {},
    redirectTo: BRANDING_PATH,
    intents: {
      save: saveBranding,
      'verify-domain': verifyDomain,
      'check-sending-domain': checkSendingDomainNow,
      'remove-sending-domain': removeSendingDomainNow,
      // A refusal (taken, the platform's own, the provider's answer) is a Refusal next to
      // the domain field.
      'add-sending-domain': async ({ sendingDomain, senderLocalPart }, { tenant, user }) => {
        await addSendingDomain(tenant.id, user.id, { domain: sendingDomain, senderLocalPart })
        return { toast: SENDING_DOMAIN_TOASTS.added, redirectTo: DOMAIN_TAB }
      },
      // The languages its card and sign-in pages speak (ADR 105).
      languages: async (value, signedIn) => ({
        toast: await saveHostLanguages(signedIn, value),
        redirectTo: DOMAIN_TAB,
      }),
      // Each save is a new version; the cached card pages drop with it (its trigger).
      'save-consent': async ({ consentText }, { tenant, user }) => {
        await saveConsentText(tenant.id, user.id, consentText)
        return {
          toast: consentText ? CONSENT_TOASTS.saved : CONSENT_TOASTS.removed,
          redirectTo: DOMAIN_TAB,
        }
      },
    },
  })
}

const DOMAIN_TAB = `${BRANDING_PATH}?tab=domain`

async function saveBranding(
  value: z.output<typeof BrandingSchema>,
  { tenant, user }: SignedIn,
  formData: FormData,
) {
  await withTenant(tenant.id, async (tx) => {
    const before = await findOrganizationBranding(tx, tenant.id)
    const legalBefore = await readLegalLinks(tx, tenant.id)
    const getYourOwnCardUrlBefore = await readGetYourOwnCardUrl(tx, tenant.id)
    const legal = {
      privacyPolicyUrl: value.privacyPolicyUrl,
      termsOfServiceUrl: value.termsOfServiceUrl,
      supportEmail: value.supportEmail,
      accessibilityEmail: value.accessibilityEmail,
    }
    // An image refused here is an image Refusal: the reply next to its field, nothing written.
    const logoMediaId = await resolveImageField({ tenant, user }, formData, 'logo', 'brandLogo', tx)
    const faviconMediaId = await resolveImageField(
      { tenant, user },
      formData,
      'favicon',
      'favicon',
      tx,
    )
    // A domain it may not take is a Refusal next to its field, nothing written.
    const domain = await changeCustomDomain(tx, tenant.id, value.customDomain)
    await updateOrganizationBranding(tx, tenant.id, {
      name: value.companyName,
      primaryColor: value.primaryColor,
      secondaryColor: value.secondaryColor,
      whiteLabelActive: value.whiteLabelActive,
      ...(logoMediaId !== undefined ? { logoMediaId } : {}),
      ...(faviconMediaId !== undefined ? { faviconMediaId } : {}),
    })
    await saveLegalLinks(tx, tenant.id, legal)
    await saveGetYourOwnCardUrl(tx, tenant.id, value.getYourOwnCardUrl)
    // Cards whose template locks the agency's logo carry the new one from this save on (ADR 048).
    const cardsWithLogo = logoMediaId !== undefined ? await followBrandingLogo(tx, tenant.id) : 0
    await recordOrganizationAudit(tx, tenant.id, user.id, 'branding.updated', {
      from: before && {
        companyName: before.name,
        primaryColor: before.primaryColor,
        secondaryColor: before.secondaryColor,
        whiteLabelActive: before.whiteLabelActive,
        ...legalBefore,
        getYourOwnCardUrl: getYourOwnCardUrlBefore,
      },
      to: {
        companyName: value.companyName,
        primaryColor: value.primaryColor,
        secondaryColor: value.secondaryColor,
        whiteLabelActive: value.whiteLabelActive,
        ...legal,
        getYourOwnCardUrl: value.getYourOwnCardUrl,
      },
      logoChanged: logoMediaId !== undefined,
      ...(cardsWithLogo > 0 ? { cardsWithLogo } : {}),
      faviconChanged: faviconMediaId !== undefined,
    })
    if (domain.changed) {
      await recordOrganizationAudit(tx, tenant.id, user.id, 'domain.changed', {
        from: domain.previous,
        to: value.customDomain,
      })
    }
  })
  invalidateTenant(tenant.id)
  return BRANDING_UPDATED
}

export const DOMAIN_TOASTS = {
  verified: 'Domain verified',
  notYet:
    'The verification record was not found yet. DNS changes can take up to 24 to 48 hours to propagate.',
  unreachable: 'The DNS lookup failed. Please try again in a few minutes.',
  noDomain: 'Save a custom domain first',
  expired: `The domain was not verified within ${DOMAIN_CLAIM_DAYS} days, so it was released. Save it again to get a new record.`,
  taken: DOMAIN_TAKEN,
} as const

function domainToast(check: DomainCheck) {
  if (check.outcome === 'no-domain')
    return { type: 'error' as const, toast: DOMAIN_TOASTS.noDomain }
  if (check.outcome === 'unreachable')
    return { type: 'error' as const, toast: DOMAIN_TOASTS.unreachable }
  if (check.outcome === 'expired') return { type: 'error' as const, toast: DOMAIN_TOASTS.expired }
  if (check.outcome === 'taken') return { type: 'error' as const, toast: DOMAIN_TOASTS.taken }
  return check.state.status === 'verified'
    ? { type: 'success' as const, toast: DOMAIN_TOASTS.verified }
    : { type: 'error' as const, toast: DOMAIN_TOASTS.notYet }
}

async function verifyDomain(_value: unknown, { tenant, user }: SignedIn): Promise<IntentDone> {
  const check = await checkCustomDomain(tenant.id, user.id)
  return { ...domainToast(check), redirectTo: DOMAIN_TAB }
}

export const SENDING_DOMAIN_TOASTS = {
  added: 'Sending domain added: publish its DNS records, then check verification',
  verified: 'Sending domain verified',
  notYet:
    'The email provider has not verified the records yet. DNS changes can take up to 24 to 48 hours to propagate.',
  failed: 'Verification failed. Check the DNS records and try again.',
  unreachable: PROVIDER_UNAVAILABLE,
  noDomain: 'Add a sending domain first',
  expired: `The sending domain was not verified within ${DOMAIN_CLAIM_DAYS} days, so it was released. Add it again to get new records.`,
  removed: 'Sending domain removed: your emails leave from the platform address again',
} as const

function sendingDomainToast(check: SendingDomainCheck) {
  if (check.outcome === 'no-domain') {
    return { type: 'error' as const, toast: SENDING_DOMAIN_TOASTS.noDomain }
  }
  if (check.outcome === 'unreachable') {
    return { type: 'error' as const, toast: SENDING_DOMAIN_TOASTS.unreachable }
  }
  if (check.outcome === 'expired') {
    return { type: 'error' as const, toast: SENDING_DOMAIN_TOASTS.expired }
  }
  if (check.sending) return { type: 'success' as const, toast: SENDING_DOMAIN_TOASTS.verified }
  return check.status === 'failed'
    ? { type: 'error' as const, toast: SENDING_DOMAIN_TOASTS.failed }
    : { type: 'error' as const, toast: SENDING_DOMAIN_TOASTS.notYet }
}

async function checkSendingDomainNow(
  _value: unknown,
  { tenant, user }: SignedIn,
): Promise<IntentDone> {
  const check = await checkSendingDomain(tenant.id, user.id, { askToVerify: true })
  return { ...sendingDomainToast(check), redirectTo: DOMAIN_TAB }
}

async function removeSendingDomainNow(
  _value: unknown,
  { tenant, user }: SignedIn,
): Promise<IntentDone> {
  try {
    const outcome = await removeSendingDomain(tenant.id, user.id)
    return outcome === 'removed'
      ? { toast: SENDING_DOMAIN_TOASTS.removed, redirectTo: DOMAIN_TAB }
      : { toast: SENDING_DOMAIN_TOASTS.noDomain, type: 'error', redirectTo: DOMAIN_TAB }
  } catch (error) {
    if (!(error instanceof EmailProviderError)) throw error
    return { toast: SENDING_DOMAIN_TOASTS.unreachable, type: 'error', redirectTo: DOMAIN_TAB }
  }
}
