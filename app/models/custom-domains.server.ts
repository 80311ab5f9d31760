// Queries of an organization's custom domain. The organizations table is the tenant registry
// (no row-level security): every query names the organization, or is the platform's re-check,
// or releases the pending claims a verified one beat (ADR 031).
import { and, asc, eq, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { organizations } from '#drizzle/schema'

export type DomainRow = {
  domain: string | null
  token: string | null
  claimedAt: Date | null
  verifiedAt: Date | null
  checkedAt: Date | null
  lostAt: Date | null
}

const domainColumns = {
  domain: organizations.customDomain,
  token: organizations.customDomainVerificationToken,
  claimedAt: organizations.customDomainClaimedAt,
  verifiedAt: organizations.customDomainVerifiedAt,
  checkedAt: organizations.customDomainCheckedAt,
  lostAt: organizations.customDomainLostAt,
}

export async function findDomainRow(
  db: Queryable,
  organizationId: string,
): Promise<DomainRow | undefined> {
  const [row] = await db
    .select(domainColumns)
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return row
}

/**
 * Whether another organization has verified the domain. Pending claims do not count: several
 * agencies may claim a name, and the first to prove it takes it.
 */
export async function isDomainTaken(db: Queryable, domain: string, exceptOrganizationId: string) {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(
      and(
        eq(organizations.customDomain, domain),
        ne(organizations.id, exceptOrganizationId),
        isNotNull(organizations.customDomainVerifiedAt),
      ),
    )
    .limit(1)
  return Boolean(row)
}

/** A new domain (or none) with a new token: a new claim, pending, never checked. */
export async function setCustomDomain(
  db: Queryable,
  organizationId: string,
  domain: string | null,
  token: string | null,
) {
  await db
    .update(organizations)
    .set({
      customDomain: domain,
      customDomainVerificationToken: token,
      customDomainClaimedAt: domain ? new Date() : null,
      customDomainVerifiedAt: null,
      customDomainCheckedAt: null,
      customDomainLostAt: null,
    })
    .where(eq(organizations.id, organizationId))
}

/**
 * Records a check's outcome, only if the domain and token are still the ones checked (a domain
 * changed during the lookup keeps its fresh state). Returns whether the row was updated.
 */
export async function recordDomainCheck(
  db: Queryable,
  organizationId: string,
  checked: { domain: string; token: string },
  outcome: Pick<DomainRow, 'verifiedAt' | 'lostAt'> & { checkedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(organizations)
    .set({
      customDomainVerifiedAt: outcome.verifiedAt,
      customDomainLostAt: outcome.lostAt,
      customDomainCheckedAt: outcome.checkedAt,
    })
    .where(
      and(
        eq(organizations.id, organizationId),
        eq(organizations.customDomain, checked.domain),
        eq(organizations.customDomainVerificationToken, checked.token),
      ),
    )
    .returning({ id: organizations.id })
  return rows.length > 0
}

/**
 * Ends the organization's claim, only if it is still the one checked and not verified (an
 * expired claim; a verification lost to another agency's). Returns whether it was ended.
 */
export async function releaseDomainClaim(
  db: Queryable,
  organizationId: string,
  checked: { domain: string; token: string },
): Promise<boolean> {
  const rows = await db
    .update(organizations)
    .set(releasedClaim)
    .where(
      and(
        eq(organizations.id, organizationId),
        eq(organizations.customDomain, checked.domain),
        eq(organizations.customDomainVerificationToken, checked.token),
        isNull(organizations.customDomainVerifiedAt),
      ),
    )
    .returning({ id: organizations.id })
  return rows.length > 0
}

/**
 * The organization has just verified the domain: every other agency's unverified claim on it
 * ends (pending or misconfigured; they could no longer verify it). Returns their ids.
 */
export async function releaseClaimsBeatenBy(
  db: Queryable,
  winnerOrganizationId: string,
  domain: string,
): Promise<string[]> {
  const rows = await db
    .update(organizations)
    .set(releasedClaim)
    .where(
      and(
        eq(organizations.customDomain, domain),
        ne(organizations.id, winnerOrganizationId),
        isNull(organizations.customDomainVerifiedAt),
      ),
    )
    .returning({ id: organizations.id })
  return rows.map((row) => row.id)
}

const releasedClaim = {
  customDomain: null,
  customDomainVerificationToken: null,
  customDomainClaimedAt: null,
  customDomainVerifiedAt: null,
  customDomainCheckedAt: null,
  customDomainLostAt: null,
}

/**
 * The background re-check's batch: custom domains checked longest ago (never first), and with
 * `dueBefore` only those not checked since then.
 */
export async function listDomainsToRecheck(db: Queryable, limit: number, dueBefore?: Date) {
  return db
    .select({ organizationId: organizations.id })
    .from(organizations)
    .where(
      and(
        isNotNull(organizations.customDomain),
        isNotNull(organizations.customDomainVerificationToken),
        eq(organizations.kind, 'agency'),
        dueBefore
          ? or(
              isNull(organizations.customDomainCheckedAt),
              lt(organizations.customDomainCheckedAt, dueBefore),
            )
          : undefined,
      ),
    )
    .orderBy(sql`${organizations.customDomainCheckedAt} asc nulls first`, asc(organizations.id))
    .limit(limit)
}
