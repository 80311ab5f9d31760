// Queries of an agency's email sending domain (ADR 026). sending_domains is a tenant table: every
// query runs inside withTenant for the organization it names.
import { and, eq, isNull } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { organizations, type SendingDomainRecord, sendingDomains } from '#drizzle/schema'

export type SendingDomainRow = typeof sendingDomains.$inferSelect

/** Held while the provider registers the domain: the row reserves the name for this agency. */
export const REGISTERING = 'registering'

export async function findSendingDomain(db: Queryable, organizationId: string) {
  const [row] = await db
    .select()
    .from(sendingDomains)
    .where(eq(sendingDomains.organizationId, organizationId))
  return row
}

/**
 * Reserves the domain for the organization before the provider hears of it. The unique index on
 * the domain refuses a name another agency holds (row-level security hides their row from a
 * lookup, not from the index).
 */
export async function reserveSendingDomain(
  db: Queryable,
  organizationId: string,
  domain: string,
  senderLocalPart: string,
) {
  await db.insert(sendingDomains).values({
    organizationId,
    domain,
    senderLocalPart,
    providerDomainId: '',
    status: REGISTERING,
  })
}

export type ProviderDomainState = {
  status: string
  records: SendingDomainRecord[]
}

/** Records what the provider said of the domain; only the row of that registration changes. */
export async function recordSendingDomainState(
  db: Queryable,
  organizationId: string,
  providerDomainId: string,
  state: ProviderDomainState & {
    verifiedAt: Date | null
    lostAt: Date | null
    checkedAt: Date
  },
) {
  const rows = await db
    .update(sendingDomains)
    .set({ ...state, updatedAt: new Date() })
    .where(
      and(
        eq(sendingDomains.organizationId, organizationId),
        eq(sendingDomains.providerDomainId, providerDomainId),
      ),
    )
    .returning({ organizationId: sendingDomains.organizationId })
  return rows.length > 0
}

/** The provider registered the reserved domain: its id, status and the records to publish. */
export async function completeSendingDomainRegistration(
  db: Queryable,
  organizationId: string,
  providerDomainId: string,
  state: ProviderDomainState,
) {
  await db
    .update(sendingDomains)
    .set({ providerDomainId, ...state, checkedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(sendingDomains.organizationId, organizationId),
        eq(sendingDomains.status, REGISTERING),
      ),
    )
}

export async function deleteSendingDomain(db: Queryable, organizationId: string) {
  const [row] = await db
    .delete(sendingDomains)
    .where(eq(sendingDomains.organizationId, organizationId))
    .returning()
  return row
}

/**
 * Deletes the organization's registration only while it is unverified (an expired claim): a
 * domain verified in the meantime, or a registration since replaced, stays.
 */
export async function deleteUnverifiedSendingDomain(
  db: Queryable,
  organizationId: string,
  providerDomainId: string,
) {
  const [row] = await db
    .delete(sendingDomains)
    .where(
      and(
        eq(sendingDomains.organizationId, organizationId),
        eq(sendingDomains.providerDomainId, providerDomainId),
        isNull(sendingDomains.verifiedAt),
      ),
    )
    .returning()
  return row
}

/**
 * The address an organization's emails leave from, when it has its own: a verified sending
 * domain, while white labeling is on (off, its emails carry the platform's branding and so its
 * address). Null means the platform's address.
 */
export async function findVerifiedSenderAddress(
  db: Queryable,
  organizationId: string,
): Promise<string | null> {
  const [row] = await db
    .select({
      domain: sendingDomains.domain,
      localPart: sendingDomains.senderLocalPart,
      verifiedAt: sendingDomains.verifiedAt,
      whiteLabelActive: organizations.whiteLabelActive,
    })
    .from(sendingDomains)
    .innerJoin(organizations, eq(organizations.id, sendingDomains.organizationId))
    .where(eq(sendingDomains.organizationId, organizationId))
  if (!row?.verifiedAt || !row.whiteLabelActive) return null
  return `${row.localPart}@${row.domain}`
}
