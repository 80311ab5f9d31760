// CONTRACT STUB (replaced by the custom-domain work): an agency's custom domain, its TXT
// verification record and its state (pending, verified, misconfigured). The branding screen
// reads the state and saves the domain through these two functions only.
import { eq } from 'drizzle-orm'
import type { Transaction } from '#drizzle/db.server'
import { organizations } from '#drizzle/schema'

export type DomainStatus = 'pending' | 'verified' | 'misconfigured'

/** What the Domain Settings tab shows; serializable, so it goes straight into loader data. */
export type DomainState = {
  domain: string | null
  /** null when no custom domain is set. */
  status: DomainStatus | null
  /** The host the agency's CNAME points at. */
  cnameTarget: string
  /** The TXT record to create (name and exact value); null when no domain is set. */
  txtName: string | null
  txtValue: string | null
  /** ISO time of the last DNS check, if any. */
  checkedAt: string | null
}

/** A domain the organization may not take (in use elsewhere, the platform's own). */
export class DomainError extends Error {
  readonly field = 'customDomain' as const
}

export async function readDomainState(
  tx: Transaction,
  organizationId: string,
): Promise<DomainState> {
  const [row] = await tx
    .select({ domain: organizations.customDomain })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  const domain = row?.domain ?? null
  return {
    domain,
    status: domain ? 'pending' : null,
    cnameTarget: 'cname.localhost',
    txtName: domain ? `_domain-verification.${domain}` : null,
    txtValue: domain ? 'stub' : null,
    checkedAt: null,
  }
}

/**
 * Sets (or with null clears) the organization's custom domain inside the caller's transaction.
 * A changed domain gets a fresh verification token and goes back to pending; an unchanged one
 * is left alone. Throws DomainError for a domain it may not take. Writes no audit event: the
 * caller's save audits it. The caller invalidates the tenant cache after commit.
 */
export async function changeCustomDomain(
  tx: Transaction,
  organizationId: string,
  domain: string | null,
): Promise<{ changed: boolean }> {
  const [row] = await tx
    .select({ domain: organizations.customDomain })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  if ((row?.domain ?? null) === domain) return { changed: false }
  await tx
    .update(organizations)
    .set({ customDomain: domain, customDomainVerifiedAt: null })
    .where(eq(organizations.id, organizationId))
  return { changed: true }
}
