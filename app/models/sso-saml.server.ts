// An agency's SAML identity providers and the AuthnRequests they have yet to answer (issue 42,
// ADR 090). Every function takes the organization; a request is found only together with it and
// its provider, so another agency's (or another provider's) answer consumes nothing here.
import { and, eq, gt, lt } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { ssoProviders, ssoSamlRequests } from '#drizzle/schema'

/** What the settings form stores for a SAML provider, from the IdP's metadata. */
export type SamlProviderValues = {
  displayName: string
  samlEntityId: string
  samlSsoUrl: string
  samlCertificates: string[]
  samlMetadataUrl: string | null
  jitRole: (typeof ssoProviders.$inferSelect)['jitRole']
  enabled: boolean
}

export async function insertSamlProvider(
  db: Queryable,
  organizationId: string,
  values: SamlProviderValues,
) {
  const [row] = await db
    .insert(ssoProviders)
    .values({ organizationId, kind: 'saml', ...values })
    .returning()
  if (!row) throw new Error('sso provider insert returned nothing')
  return row
}

/** Changes a SAML provider; undefined when the agency has no such SAML provider. */
export async function updateSamlProvider(
  db: Queryable,
  organizationId: string,
  providerId: string,
  values: SamlProviderValues,
) {
  const [row] = await db
    .update(ssoProviders)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(ssoProviders.organizationId, organizationId),
        eq(ssoProviders.id, providerId),
        eq(ssoProviders.kind, 'saml'),
      ),
    )
    .returning()
  return row
}

/** A request just sent; requests older than `staleBefore` are deleted on the way. */
export async function rememberSamlRequest(
  db: Queryable,
  organizationId: string,
  request: { id: string; providerId: string; createdAt: Date; staleBefore: Date },
) {
  await db
    .delete(ssoSamlRequests)
    .where(
      and(
        eq(ssoSamlRequests.organizationId, organizationId),
        lt(ssoSamlRequests.createdAt, request.staleBefore),
      ),
    )
  await db.insert(ssoSamlRequests).values({
    id: request.id,
    organizationId,
    providerId: request.providerId,
    createdAt: request.createdAt,
  })
}

/** When the provider's request was sent, if it is still unanswered. */
export async function findSamlRequestCreatedAt(
  db: Queryable,
  organizationId: string,
  providerId: string,
  requestId: string,
) {
  const [row] = await db
    .select({ createdAt: ssoSamlRequests.createdAt })
    .from(ssoSamlRequests)
    .where(
      and(
        eq(ssoSamlRequests.organizationId, organizationId),
        eq(ssoSamlRequests.providerId, providerId),
        eq(ssoSamlRequests.id, requestId),
      ),
    )
    .limit(1)
  return row?.createdAt ?? null
}

/**
 * Consumes the request an answer names: true for the one answer that deletes it, false for any
 * other (a replay, a request of another provider, one sent before `sentAfter`).
 */
export async function consumeSamlRequest(
  db: Queryable,
  organizationId: string,
  providerId: string,
  request: { id: string; sentAfter: Date },
) {
  const rows = await db
    .delete(ssoSamlRequests)
    .where(
      and(
        eq(ssoSamlRequests.organizationId, organizationId),
        eq(ssoSamlRequests.providerId, providerId),
        eq(ssoSamlRequests.id, request.id),
        gt(ssoSamlRequests.createdAt, request.sentAfter),
      ),
    )
    .returning({ id: ssoSamlRequests.id })
  return rows.length > 0
}
