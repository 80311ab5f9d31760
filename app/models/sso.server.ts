// An agency's single sign-on (issue 42 point 1, ADR 088): its identity providers and the email
// domains it claims for them. Every function takes the organization; a provider or domain is
// found by its id only together with it, so another agency's id finds nothing.
import { and, asc, eq, isNotNull, type SQL } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { ssoDomains, ssoProviders } from '#drizzle/schema'
import { tenantJoin } from './tenant-join.server'

export type SsoProvider = typeof ssoProviders.$inferSelect
export type SsoDomain = typeof ssoDomains.$inferSelect

/** What the settings form stores for an OIDC provider; the secret is sealed by the caller. */
export type OidcProviderValues = {
  displayName: string
  issuerUrl: string
  clientId: string
  clientSecretSealed: string
  jitRole: SsoProvider['jitRole']
  enabled: boolean
}

/** The agency's provider of this id, narrowed by `more`: another agency's id finds nothing. */
function theProvider(organizationId: string, providerId: string, ...more: SQL[]) {
  return and(
    eq(ssoProviders.organizationId, organizationId),
    eq(ssoProviders.id, providerId),
    ...more,
  )
}

/** The agency's claim of this id, narrowed by `more` (its token, verified). */
function theDomain(organizationId: string, domainId: string, ...more: SQL[]) {
  return and(eq(ssoDomains.organizationId, organizationId), eq(ssoDomains.id, domainId), ...more)
}

/** The agency's providers, oldest first. */
export function listSsoProviders(db: Queryable, organizationId: string) {
  return db
    .select()
    .from(ssoProviders)
    .where(eq(ssoProviders.organizationId, organizationId))
    .orderBy(asc(ssoProviders.createdAt), asc(ssoProviders.id))
}

export async function findSsoProvider(db: Queryable, organizationId: string, providerId: string) {
  const [row] = await db
    .select()
    .from(ssoProviders)
    .where(theProvider(organizationId, providerId))
    .limit(1)
  return row
}

export async function insertOidcProvider(
  db: Queryable,
  organizationId: string,
  values: OidcProviderValues,
) {
  const [row] = await db
    .insert(ssoProviders)
    .values({ organizationId, kind: 'oidc', ...values })
    .returning()
  if (!row) throw new Error('sso provider insert returned nothing')
  return row
}

/** Changes the provider; undefined when the agency has no such provider. */
export async function updateOidcProvider(
  db: Queryable,
  organizationId: string,
  providerId: string,
  values: OidcProviderValues,
) {
  const [row] = await db
    .update(ssoProviders)
    .set({ ...values, updatedAt: new Date() })
    .where(theProvider(organizationId, providerId))
    .returning()
  return row
}

/** Removes the provider and, by the foreign key, its domains; false when there was none. */
export async function deleteSsoProvider(db: Queryable, organizationId: string, providerId: string) {
  const rows = await db
    .delete(ssoProviders)
    .where(theProvider(organizationId, providerId))
    .returning({ id: ssoProviders.id })
  return rows.length > 0
}

/** The agency's claimed domains, by name. */
export function listSsoDomains(db: Queryable, organizationId: string) {
  return db
    .select()
    .from(ssoDomains)
    .where(eq(ssoDomains.organizationId, organizationId))
    .orderBy(asc(ssoDomains.domain))
}

export async function findSsoDomain(db: Queryable, organizationId: string, domainId: string) {
  const [row] = await db
    .select()
    .from(ssoDomains)
    .where(theDomain(organizationId, domainId))
    .limit(1)
  return row
}

/**
 * A new claim, or undefined when the agency has claimed that name already. The provider must be
 * the agency's: the composite foreign key refuses another's.
 */
export async function insertSsoDomain(
  db: Queryable,
  organizationId: string,
  values: { providerId: string; domain: string; token: string },
) {
  const [row] = await db
    .insert(ssoDomains)
    .values({ organizationId, ...values })
    .onConflictDoNothing({ target: [ssoDomains.organizationId, ssoDomains.domain] })
    .returning()
  return row
}

/**
 * Records a DNS check of the claim whose token was looked up: verified (or no longer), and when.
 * Losing the proof also ends enforcement, which only a verified domain may have. Undefined when
 * the claim is gone or its token changed meanwhile.
 */
export async function recordSsoDomainCheck(
  db: Queryable,
  organizationId: string,
  check: { domainId: string; token: string; verifiedAt: Date | null; checkedAt: Date },
) {
  const [row] = await db
    .update(ssoDomains)
    .set({
      verifiedAt: check.verifiedAt,
      checkedAt: check.checkedAt,
      ...(check.verifiedAt ? {} : { enforced: false }),
    })
    .where(theDomain(organizationId, check.domainId, eq(ssoDomains.token, check.token)))
    .returning()
  return row
}

/** Turns "Require SSO" on or off for a verified domain; undefined for any other. */
export async function setSsoDomainEnforced(
  db: Queryable,
  organizationId: string,
  domainId: string,
  enforced: boolean,
) {
  const [row] = await db
    .update(ssoDomains)
    .set({ enforced })
    .where(theDomain(organizationId, domainId, isNotNull(ssoDomains.verifiedAt)))
    .returning()
  return row
}

export async function deleteSsoDomain(db: Queryable, organizationId: string, domainId: string) {
  const rows = await db
    .delete(ssoDomains)
    .where(theDomain(organizationId, domainId))
    .returning({ id: ssoDomains.id })
  return rows.length > 0
}

/** Joins a claimed domain to its provider, in the claim's own organization. */
const domainProvider = tenantJoin(ssoProviders, ssoDomains, ssoProviders.id, ssoDomains.providerId)

/** The agency's verified claims (what sign-in goes by), narrowed by `more`. */
function verifiedDomains(organizationId: string, ...more: SQL[]) {
  return and(
    eq(ssoDomains.organizationId, organizationId),
    isNotNull(ssoDomains.verifiedAt),
    ...more,
  )
}

/**
 * The agency's verified claim on an email domain with its provider: where "Sign in with SSO"
 * sends an address, and whether password sign-in is refused for it. Undefined when the agency
 * has no verified claim on the name.
 */
export async function findVerifiedSsoDomain(db: Queryable, organizationId: string, domain: string) {
  const [row] = await db
    .select({ domain: ssoDomains, provider: ssoProviders })
    .from(ssoDomains)
    .innerJoin(ssoProviders, domainProvider)
    .where(verifiedDomains(organizationId, eq(ssoDomains.domain, domain)))
    .limit(1)
  return row
}

/** Whether anyone can sign in with SSO here: a verified domain of an enabled provider. */
export async function hasSsoSignIn(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({ id: ssoDomains.id })
    .from(ssoDomains)
    .innerJoin(ssoProviders, domainProvider)
    .where(verifiedDomains(organizationId, eq(ssoProviders.enabled, true)))
    .limit(1)
  return Boolean(row)
}
