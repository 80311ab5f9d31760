// Resolves the organization behind a request's host, fail-closed, with a small
// in-memory cache, so only a host's first request in a while pays for the lookup.
import { LRUCache } from 'lru-cache'
import { dropPages } from '#app/cache/page-cache.server'
import { getEnv } from '#app/env.server'
import { findAgency } from '#app/models/agencies.server'
import { findBrandingImagePaths, findOrganizationForHost } from '#app/models/organizations.server'
import { getPlatformSettings } from '#app/models/platform-settings.server'
import { languagesFor, readLanguageSettings } from '#app/tenancy/languages.server'
import { readGetYourOwnCardUrl, readLegalLinks } from '#app/tenancy/legal.server'
import type { LanguageSettings } from '#app/validation/languages'
import { type LegalLinks, legalFor } from '#app/validation/legal'
import { withDatabase, withTenant } from '#drizzle/db.server'
import { isOutage } from '#drizzle/unavailable.server'
import { classifyHost, type PublicAddress } from './host'

export type Tenant = {
  id: string
  slug: string
  kind: 'platform' | 'agency'
  name: string
  /** The host this request reached the tenant on (no port). */
  host: string
  primaryColor: string
  secondaryColor: string
  logoUrl: string | null
  faviconUrl: string | null
  customDomain: string | null
  /**
   * Privacy policy, terms and support email shown in the footer, the sign-up form and every
   * email: the agency's own, each falling back to the platform's (all the platform's while white
   * labeling is off). Empty strings are not shown.
   */
  legal: LegalLinks
  /**
   * Where a recipient's card page footer sends "Get your own card" (ADR 083): the agency's
   * chosen page, or '' for the sign-up page of the host the card is on.
   */
  getYourOwnCardUrl: string
  /**
   * The languages its visitor pages speak and the one for a browser that asks for none of them
   * (ADR 105): the agency's choice, else the platform's, else all with English.
   */
  languages: LanguageSettings
  /**
   * The platform tenant only: the public URL saved in System Settings, which the links the
   * platform builds for the root domain start with (tenantOrigin). Null until one is saved.
   */
  platformUrl?: string | null
  /**
   * Per request, never cached: how the client reached this host through a trusted proxy
   * (scheme and port), so the links built for it (tenantOrigin) start the same way.
   */
  via?: PublicAddress | null
}

export type TenantResolution =
  | { status: 'found'; tenant: Tenant }
  | { status: 'not-found' }
  | { status: 'unavailable' }

type CacheEntry = { resolution: TenantResolution; organizationId?: string; freshUntil: number }
// Entries outlive their freshness (TENANT_CACHE_TTL_MS): a host whose lookup fails because the
// database is away keeps its last answer, so its pages stay branded and its 503s stay ours
// through an outage of any length (ADR 032). Changes still drop entries at once.
const cache = new LRUCache<string, CacheEntry>({ max: 5000 })

export async function resolveTenant(host: string | null): Promise<TenantResolution> {
  const key = host ?? ''
  const hit = cache.get(key)
  if (hit && hit.freshUntil > Date.now()) return hit.resolution
  let found: Omit<CacheEntry, 'freshUntil'>
  try {
    found = await lookup(host)
  } catch (error) {
    if (hit && isOutage(error)) return hit.resolution
    throw error
  }
  cache.set(key, { ...found, freshUntil: Date.now() + getEnv().TENANT_CACHE_TTL_MS })
  return found.resolution
}

/**
 * The cached answer for a host, without a lookup: callers that must stay cheap under a flood of
 * unknown names (the TLS ask, app/domains/ask.server.ts) rate limit only what would reach the
 * database.
 */
export function cachedTenantResolution(host: string | null): TenantResolution | undefined {
  const hit = cache.get(host ?? '')
  return hit && hit.freshUntil > Date.now() ? hit.resolution : undefined
}

async function lookup(host: string | null): Promise<Omit<CacheEntry, 'freshUntil'>> {
  const match = classifyHost(host, getEnv().ROOT_DOMAIN)
  if (match.kind === 'none' || !host) return { resolution: { status: 'not-found' } }
  const organization = await withDatabase((db) => findOrganizationForHost(db, match))
  if (!organization) return { resolution: { status: 'not-found' } }
  if (
    organization.kind === 'agency' &&
    (organization.status !== 'active' || organization.approvalStatus !== 'approved')
  ) {
    return { resolution: { status: 'unavailable' }, organizationId: organization.id }
  }
  // White labeling off (ADR 016): the agency's host shows the platform's name, colours and
  // images instead of its own.
  const platform =
    organization.kind === 'agency'
      ? await withDatabase((db) => findOrganizationForHost(db, { kind: 'platform' }))
      : organization
  const brand =
    organization.kind === 'agency' && !organization.whiteLabelActive
      ? (platform ?? organization)
      : organization
  // organization_settings is a tenant table: each organization's links are read in its own scope.
  const ownLegal = await withTenant(organization.id, (tx) => readLegalLinks(tx, organization.id))
  const platformLegal =
    platform && platform.id !== organization.id
      ? await withTenant(platform.id, (tx) => readLegalLinks(tx, platform.id))
      : ownLegal
  const legal = legalFor(organization, ownLegal, platformLegal)
  const getYourOwnCardUrl =
    organization.kind === 'agency'
      ? await withTenant(organization.id, (tx) => readGetYourOwnCardUrl(tx, organization.id))
      : ''
  const ownLanguages = await withTenant(organization.id, (tx) =>
    readLanguageSettings(tx, organization.id),
  )
  const platformLanguages =
    platform && platform.id !== organization.id
      ? await withTenant(platform.id, (tx) => readLanguageSettings(tx, platform.id))
      : null
  const languages = languagesFor(ownLanguages, platformLanguages)
  // The logo and favicon are media rows, which row-level security shows only inside their
  // tenant: read them there, as the app login would (ADR 004).
  const images = await withTenant(brand.id, (tx) => findBrandingImagePaths(tx, brand.id, brand))
  // Cached with the tenant: a save of System Settings drops both (invalidateTenant, and the
  // change feed's '*' on other processes).
  const platformUrl =
    organization.kind === 'platform'
      ? (await withDatabase((db) => getPlatformSettings(db))).platformUrl || null
      : null
  return {
    organizationId: organization.id,
    resolution: {
      status: 'found',
      tenant: {
        id: organization.id,
        slug: organization.slug,
        kind: organization.kind,
        name: brand.name,
        host,
        primaryColor: brand.primaryColor,
        secondaryColor: brand.secondaryColor,
        logoUrl: images.logoPath,
        faviconUrl: images.faviconPath,
        customDomain: organization.customDomainVerifiedAt ? organization.customDomain : null,
        legal,
        getYourOwnCardUrl,
        languages,
        platformUrl,
      },
    },
  }
}

/**
 * An organization's tenant read afresh, on its own host (its verified custom domain, else its
 * subdomain, else the root domain): for work outside a request, such as a job that runs right
 * after a branding change another process's cache may not have heard of yet.
 */
export async function freshTenantOf(organizationId: string): Promise<Tenant | undefined> {
  const organization =
    (await withDatabase((db) => findAgency(db, organizationId))) ??
    (await withDatabase((db) => findOrganizationForHost(db, { kind: 'platform' })))
  if (organization?.id !== organizationId) return undefined
  const root = getEnv().ROOT_DOMAIN
  const host =
    organization.customDomainVerifiedAt && organization.customDomain
      ? organization.customDomain
      : organization.kind === 'platform'
        ? root
        : `${organization.slug}.${root}`
  const { resolution } = await lookup(host)
  return resolution.status === 'found' ? resolution.tenant : undefined
}

/**
 * Drops every cached host of an organization, and its cached pages; call after changing it.
 * Other processes hear of the change from the database (app/tenancy/change-feed.server.ts).
 */
export function invalidateTenant(organizationId: string) {
  dropPages(organizationId)
  for (const [key, entry] of cache.entries()) {
    if (entry.organizationId === organizationId) cache.delete(key)
  }
  // A host that did not resolve before (e.g. a newly verified domain) may resolve now.
  for (const [key, entry] of cache.entries()) {
    if (entry.resolution.status === 'not-found') cache.delete(key)
  }
}

export function clearTenantCache() {
  dropPages('*')
  cache.clear()
}
