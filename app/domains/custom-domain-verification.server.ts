// An agency's custom domain (ADR 016): its TXT verification record and its state, as the
// anchors model them (dub, cal.com): pending until the record is seen, verified while it is,
// misconfigured when a verified domain's record disappears (it then stops serving).
import { randomBytes } from 'node:crypto'
import { getEnv } from '#app/env.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import {
  type DomainRow,
  findDomainRow,
  isDomainTaken,
  listDomainsToRecheck,
  recordDomainCheck,
  releaseClaimsBeatenBy,
  releaseDomainClaim,
  setCustomDomain,
} from '#app/models/custom-domains.server'
import { invalidateTenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import { type Transaction, withDatabase, withTenant } from '#drizzle/db.server'
import { DOMAIN_UNAVAILABLE, isClaimExpired } from './claims'
import { DnsLookupError, lookupTxt } from './dns.server'

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
  /** ISO time this state was read: "Last checked" counts from it, the same on server and browser. */
  shownAt: string
  /** A name under .localhost on a localhost platform: verified without DNS (isLocalDemoDomain). */
  local: boolean
}

/** Another agency has verified it; the message names no one (issue 26). */
export const DOMAIN_TAKEN = DOMAIN_UNAVAILABLE
export const DOMAIN_IS_PLATFORM = 'Choose a domain of your own, not one of the platform'

export function cnameTarget(): string {
  const env = getEnv()
  return env.CUSTOM_DOMAIN_CNAME_TARGET ?? `cname.${env.ROOT_DOMAIN}`
}

type VerificationRecordFormat = { nameLabel: string; valuePrefix: string }

/**
 * The TXT record that proves a domain is the agency's. The agency creates it in its own public
 * DNS, where anyone can read it, so it names no product (issue 17, "no trace of the platform").
 */
const VERIFICATION_RECORD: VerificationRecordFormat = {
  nameLabel: '_domain-verification',
  valuePrefix: 'domain-verification=',
}

/**
 * The record before issue 17, which carried the product's name. Domains verified before the
 * rename still have it in their DNS, so the check accepts it too (same token) and they do not
 * turn misconfigured; the UI never shows it. It can go once no verified domain relies on it:
 * after agencies have been asked to add the new record and a lookup of `_domain-verification`
 * for every verified domain finds it (ADR 016, addendum).
 */
const LEGACY_VERIFICATION_RECORD: VerificationRecordFormat = {
  nameLabel: '_brandcard-verification',
  valuePrefix: 'brandcard-verification=',
}

function recordFor(format: VerificationRecordFormat, domain: string, token: string) {
  return { name: `${format.nameLabel}.${domain}`, value: `${format.valuePrefix}${token}` }
}

/** The record agencies are told to create (the only one the UI shows). */
export function verificationRecord(domain: string, token: string) {
  return recordFor(VERIFICATION_RECORD, domain, token)
}

const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost')

/**
 * A name under `.localhost` while the platform itself runs under localhost (the demo and
 * development): such a name is this machine's own by definition (RFC 6761: it resolves to
 * loopback and has no DNS records, so no TXT record could ever be published for it), and only
 * the demo seed stores one (the Branding form refuses names under the platform's root). Its
 * verification is that rule, not a lookup that can only come back empty, so the seeded
 * 'Verified' is what every check finds (issue 30). On a real root domain a `.localhost` name is
 * looked up like any other, finds nothing, and never serves.
 */
export function isLocalDemoDomain(domain: string) {
  return isLocalName(getEnv().ROOT_DOMAIN) && isLocalName(domain)
}

/**
 * Whether the domain's DNS holds the verification record with exactly this token: the current
 * record, else the legacy one (asked only when the current one is not there). Throws
 * DnsLookupError when either lookup cannot be answered, so a failing server changes nothing.
 * The one verifier of a domain's proof: custom domains and single sign-on's email domains
 * (app/sso, ADR 088) both ask it.
 */
export async function hasVerificationRecord(domain: string, token: string): Promise<boolean> {
  if (isLocalDemoDomain(domain)) return true
  for (const format of [VERIFICATION_RECORD, LEGACY_VERIFICATION_RECORD]) {
    const record = recordFor(format, domain, token)
    if ((await lookupTxt(record.name)).includes(record.value)) return true
  }
  return false
}

export function domainStatus(row: Pick<DomainRow, 'domain' | 'verifiedAt' | 'lostAt'>) {
  if (!row.domain) return null
  if (row.verifiedAt) return 'verified'
  return row.lostAt ? 'misconfigured' : 'pending'
}

function toState(row: DomainRow | undefined): DomainState {
  const domain = row?.domain ?? null
  const record = domain && row?.token ? verificationRecord(domain, row.token) : null
  return {
    domain,
    status: row ? domainStatus(row) : null,
    cnameTarget: cnameTarget(),
    txtName: record?.name ?? null,
    txtValue: record?.value ?? null,
    checkedAt: row?.checkedAt?.toISOString() ?? null,
    shownAt: new Date().toISOString(),
    local: domain !== null && isLocalDemoDomain(domain),
  }
}

export async function readDomainState(
  tx: Transaction,
  organizationId: string,
): Promise<DomainState> {
  return toState(await findDomainRow(tx, organizationId))
}

/**
 * Sets (or with null clears) the organization's custom domain inside the caller's transaction.
 * A changed domain gets a fresh verification token and goes back to pending; an unchanged one
 * is left alone. A domain it may not take is a Refusal next to the Branding form's
 * `customDomain` field: 400 for the platform's own, 409 for one another agency holds. Writes no
 * audit event: the caller's save audits it. The caller invalidates the tenant cache after commit.
 */
export async function changeCustomDomain(
  tx: Transaction,
  organizationId: string,
  domain: string | null,
): Promise<{ changed: boolean; previous: string | null }> {
  const row = await findDomainRow(tx, organizationId)
  const previous = row?.domain ?? null
  if (previous === domain) return { changed: false, previous }
  if (domain) {
    const root = getEnv().ROOT_DOMAIN
    if (domain === root || domain.endsWith(`.${root}`)) {
      throw new Refusal('invalid', DOMAIN_IS_PLATFORM, { field: 'customDomain' })
    }
    if (await isDomainTaken(tx, domain, organizationId)) {
      throw new Refusal('conflict', DOMAIN_TAKEN, { field: 'customDomain' })
    }
  }
  const token = domain ? randomBytes(16).toString('hex') : null
  await setCustomDomain(tx, organizationId, domain, token)
  return { changed: true, previous }
}

export type DomainCheck =
  | { outcome: 'checked'; state: DomainState; changed: boolean }
  | { outcome: 'no-domain' }
  | { outcome: 'unreachable'; state: DomainState }
  /** The claim stayed unverified past DOMAIN_CLAIM_DAYS and has been released. */
  | { outcome: 'expired'; domain: string }
  /** Another agency verified the domain first; this claim has been released. */
  | { outcome: 'taken'; domain: string }

/** Since when a claim has gone unproven: its claim, or the loss of its proof. */
function unverifiedSince(row: DomainRow): Date | null {
  if (row.verifiedAt) return null
  return row.lostAt ?? row.claimedAt
}

/** Ends the organization's claim, audited; the tenant cache forgets the domain. */
async function releaseClaim(
  organizationId: string,
  actorUserId: string | null,
  checked: { domain: string; token: string },
  action: 'domain.expired' | 'domain.released',
) {
  const released = await withTenant(organizationId, async (tx) => {
    if (!(await releaseDomainClaim(tx, organizationId, checked))) return false
    await recordOrganizationAudit(tx, organizationId, actorUserId, action, {
      domain: checked.domain,
    })
    return true
  })
  if (released) invalidateTenant(organizationId)
}

/** Other agencies' claims a verification beat: each hears of it in its own audit log. */
async function recordBeatenClaims(organizationIds: string[], domain: string) {
  for (const organizationId of organizationIds) {
    invalidateTenant(organizationId)
    await withTenant(organizationId, (tx) =>
      // Not who verified it: another tenant is never named.
      recordOrganizationAudit(tx, organizationId, null, 'domain.released', {
        domain,
        reason: 'verified elsewhere',
      }),
    )
  }
}

/**
 * Looks the TXT record up (the current one, else the legacy one) and records the state. The
 * value must match exactly; a missing record means pending (or misconfigured for a domain that
 * was verified). A DNS server that cannot answer changes nothing. `actorUserId` is null for the background re-check.
 */
export async function checkCustomDomain(
  organizationId: string,
  actorUserId: string | null,
): Promise<DomainCheck> {
  const row = await withDatabase((tx) => findDomainRow(tx, organizationId))
  if (!row?.domain || !row.token) return { outcome: 'no-domain' }
  const checked = { domain: row.domain, token: row.token }
  // An unproven claim does not hold a name forever (ADR 031): past its days it is released,
  // and a record published later no longer proves this token.
  const since = unverifiedSince(row)
  if (since && isClaimExpired(since)) {
    await releaseClaim(organizationId, actorUserId, checked, 'domain.expired')
    return { outcome: 'expired', domain: checked.domain }
  }
  let found: boolean
  try {
    found = await hasVerificationRecord(checked.domain, checked.token)
  } catch (error) {
    if (error instanceof DnsLookupError) return { outcome: 'unreachable', state: toState(row) }
    throw error
  }
  const before = domainStatus(row)
  const now = new Date()
  const next = found
    ? { verifiedAt: row.verifiedAt ?? now, lostAt: null }
    : { verifiedAt: null, lostAt: row.verifiedAt ? now : row.lostAt }
  const after = domainStatus({ ...row, ...next })
  const changed = before !== after
  let beaten: string[] = []
  let recorded: boolean
  try {
    recorded = await withTenant(organizationId, async (tx) => {
      const updated = await recordDomainCheck(tx, organizationId, checked, {
        ...next,
        checkedAt: now,
      })
      if (updated && changed) {
        await recordOrganizationAudit(tx, organizationId, actorUserId, `domain.${after}`, {
          domain: checked.domain,
          from: before,
          to: after,
        })
      }
      // Verified: the pending claims of other agencies on this name end with it.
      if (updated && after === 'verified') {
        beaten = await releaseClaimsBeatenBy(tx, organizationId, checked.domain)
      }
      return updated
    })
  } catch (error) {
    // Another agency verified it in the meantime (the index allows one verified claim).
    if (!isUniqueViolation(error)) throw error
    await releaseClaim(organizationId, actorUserId, checked, 'domain.released')
    return { outcome: 'taken', domain: checked.domain }
  }
  await recordBeatenClaims(beaten, checked.domain)
  if (recorded && changed) invalidateTenant(organizationId)
  const state = await withDatabase((tx) => readDomainState(tx, organizationId))
  return { outcome: 'checked', state, changed: recorded && changed }
}

/** One pass of the background re-check: the domains checked longest ago, one at a time. */
export async function recheckOldestDomains(limit = 20): Promise<number> {
  const batch = await withDatabase((tx) => listDomainsToRecheck(tx, limit))
  for (const { organizationId } of batch) await checkCustomDomain(organizationId, null)
  return batch.length
}

/**
 * The scheduled pass (issue 41 point 17: "Last checked" is current): every domain not checked
 * since `dueBefore`, oldest first, each once (one whose DNS cannot be reached keeps its old time
 * and waits for the next pass rather than being asked again in this one). Capped, so a pass on a
 * very large platform ends and the next one carries on.
 */
export async function recheckDueDomains(dueBefore: Date, cap = 1000): Promise<number> {
  const due = await withDatabase((tx) => listDomainsToRecheck(tx, cap, dueBefore))
  for (const { organizationId } of due) await checkCustomDomain(organizationId, null)
  return due.length
}
