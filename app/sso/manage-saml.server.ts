// The agency admin's SAML identity providers (issue 42 point 1, ADR 090): added by the IdP's
// metadata URL (fetched now, so a wrong one is said next to its field) or its metadata XML
// pasted, both read by ./saml.server.ts; what the IdP must be told (entity id, ACS URLs, this
// provider's metadata URL) is derived from the agency's hosts. Every change is audited.
import { X509Certificate } from 'node:crypto'
import type { Actor } from '#app/auth/guards.server'
import { findSsoProvider, type SsoProvider } from '#app/models/sso.server'
import { insertSamlProvider, updateSamlProvider } from '#app/models/sso-saml.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { callOutside, OutsideCallError } from '#app/utils/outside-call.server'
import { isPrivateAddressRefusal } from '#app/utils/public-address.server'
import { SSO_MESSAGES, type SsoSettingsForm } from '#app/validation/sso'
import { withTenant } from '#drizzle/db.server'
import { idpDispatcher, isFetchableIdpUrl } from './identity-provider-url.server'
import {
  MAX_METADATA_BYTES,
  parseIdpMetadata,
  type SamlIdentityProvider,
  type SamlServiceProvider,
} from './saml.server'
import { writeAuditedProvider } from './save-provider.server'

export const samlMetadataPath = (providerId: string) => `/auth/sso/saml/${providerId}/metadata`
export const samlAcsPath = (providerId: string) => `/auth/sso/saml/${providerId}/acs`

/** The agency's subdomain origin, and its custom domain's when it has one. */
function agencyOrigins(tenant: Tenant) {
  const origins = [tenantOrigin({ ...tenant, customDomain: null, via: null })]
  if (tenant.customDomain) origins.push(tenantOrigin({ ...tenant, via: null }))
  return origins
}

/**
 * The service provider the IdP knows: one entity id whatever host a person signs in on (the
 * subdomain's metadata URL), and the ACS of the host the request came to. An IdP registers both
 * ACS URLs (its reply URLs) when the agency has a custom domain.
 */
export function serviceProviderFor(tenant: Tenant, providerId: string): SamlServiceProvider {
  const [canonical] = agencyOrigins(tenant)
  const origin = new URL(tenantOrigin(tenant))
  origin.hostname = tenant.host
  return {
    entityId: `${canonical}${samlMetadataPath(providerId)}`,
    acsUrl: `${origin.origin}${samlAcsPath(providerId)}`,
  }
}

/** What the settings screen shows the admin to copy into the IdP. */
export function serviceProviderValues(tenant: Tenant, providerId: string) {
  const origins = agencyOrigins(tenant)
  return {
    entityId: `${origins[0]}${samlMetadataPath(providerId)}`,
    acsUrls: origins.map((origin) => `${origin}${samlAcsPath(providerId)}`),
    metadataUrl: `${origins[0]}${samlMetadataPath(providerId)}`,
  }
}

/** The IdP as sign-in uses it, from the stored row; null for an OIDC provider. */
export function identityProviderOf(provider: SsoProvider): SamlIdentityProvider | null {
  if (provider.kind !== 'saml' || !provider.samlEntityId || !provider.samlSsoUrl) return null
  return {
    entityId: provider.samlEntityId,
    ssoUrl: provider.samlSsoUrl,
    certificates: provider.samlCertificates ?? [],
  }
}

/** When the IdP's signing certificates stop being valid, the latest first (for the screen). */
export function certificateExpiries(certificates: string[]) {
  return certificates
    .map((body) => {
      try {
        return new Date(new X509Certificate(Buffer.from(body, 'base64')).validTo).toISOString()
      } catch {
        return null
      }
    })
    .filter((date): date is string => date !== null)
    .sort()
    .reverse()
}

/** The metadata at the URL, read under the outside-call deadline, never more than the limit. */
async function fetchMetadata(address: string): Promise<string> {
  const url = new URL(address)
  if (!isFetchableIdpUrl(url)) {
    const message =
      url.protocol === 'https:' ? SSO_MESSAGES.privateAddress : SSO_MESSAGES.metadataUrlNotHttps
    throw new Refusal('invalid', message, { field: 'metadataUrl' })
  }
  try {
    return await callOutside('The identity provider', async (signal) => {
      // Every connection, a redirect's too, only to an address the server may reach.
      const response = await fetch(url, {
        signal,
        redirect: 'follow',
        dispatcher: await idpDispatcher(),
      } as RequestInit)
      const final = new URL(response.url || url.href)
      if (!response.ok || !isFetchableIdpUrl(final) || !response.body) {
        throw new Refusal('invalid', SSO_MESSAGES.metadataUnreachable, { field: 'metadataUrl' })
      }
      const chunks: Buffer[] = []
      let size = 0
      const reader = response.body.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        size += read.value.byteLength
        if (size > MAX_METADATA_BYTES) {
          await reader.cancel()
          throw new Refusal('invalid', SSO_MESSAGES.metadataTooLarge, { field: 'metadataUrl' })
        }
        chunks.push(Buffer.from(read.value))
      }
      return Buffer.concat(chunks).toString('utf8')
    })
  } catch (error) {
    if (error instanceof Refusal) throw error
    if (isPrivateAddressRefusal(error)) {
      throw new Refusal('invalid', SSO_MESSAGES.privateAddress, { field: 'metadataUrl' })
    }
    if (error instanceof OutsideCallError || error instanceof TypeError) {
      throw new Refusal('invalid', SSO_MESSAGES.metadataUnreachable, { field: 'metadataUrl' })
    }
    throw error
  }
}

type SamlProviderForm = Extract<
  SsoSettingsForm,
  { intent: 'add-saml-provider' | 'edit-saml-provider' }
>

/**
 * Adds or changes a SAML provider from its metadata: the URL when one was given (fetched now),
 * else the XML pasted. What the metadata lacks (no signing certificate, no redirect sign-in URL)
 * is said next to the field it came from.
 */
export async function saveSamlProvider(actor: Actor, value: SamlProviderForm): Promise<string> {
  const organizationId = actor.tenant.id
  const editing = value.intent === 'edit-saml-provider' ? value.providerId : null
  if (editing) {
    const stored = await withTenant(organizationId, (tx) =>
      findSsoProvider(tx, organizationId, editing),
    )
    if (stored?.kind !== 'saml') throw new Refusal('not_found', SSO_MESSAGES.providerNotFound)
  }
  const field = value.metadataUrl ? 'metadataUrl' : 'metadataXml'
  const xml = value.metadataUrl ? await fetchMetadata(value.metadataUrl) : (value.metadataXml ?? '')
  const parsed = parseIdpMetadata(xml)
  if (!parsed.ok) throw new Refusal('invalid', parsed.message, { field })
  return writeAuditedProvider(actor, editing, value, {
    columns: {
      samlEntityId: parsed.idp.entityId,
      samlSsoUrl: parsed.idp.ssoUrl,
      samlCertificates: parsed.idp.certificates,
      samlMetadataUrl: value.metadataUrl ?? null,
    },
    store: { insert: insertSamlProvider, update: updateSamlProvider },
    details: (saved) => ({
      protocol: 'saml',
      idpEntityId: saved.samlEntityId,
      metadataUrl: saved.samlMetadataUrl,
      certificates: saved.samlCertificates?.length ?? 0,
    }),
  })
}
