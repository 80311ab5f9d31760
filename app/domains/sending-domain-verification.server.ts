// An agency's email sending domain (issue 17, ADR 026): registered with the email provider, which
// returns the DNS records (SPF, DKIM) to publish and verifies them. Once verified, the agency's
// emails leave from `{senderLocalPart}@{domain}`; until then, and again whenever the provider
// stops calling it verified, from the platform's address. A durable job re-checks each domain
// (often while pending, rarely once verified), so a record removed later is noticed.
import { getEnv } from '#app/env.server'
import type { JobHandler } from '#app/jobs/worker.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import { insertJob } from '#app/models/jobs.server'
import {
  completeSendingDomainRegistration,
  deleteSendingDomain,
  deleteUnverifiedSendingDomain,
  findSendingDomain,
  REGISTERING,
  recordSendingDomainState,
  reserveSendingDomain,
  type SendingDomainRow,
} from '#app/models/sending-domains.server'
import {
  createProviderDomain,
  EmailProviderError,
  emailProviderConfigured,
  getProviderDomain,
  removeProviderDomain,
  verifyProviderDomain,
} from '#app/services/resend-domains.server'
import { Refusal, type RefusalCode } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import { type Transaction, withTenant } from '#drizzle/db.server'
import type { SendingDomainRecord } from '#drizzle/schema'
import { claimExpiresAt, isClaimExpired, SENDING_DOMAIN_UNAVAILABLE } from './claims'

/** What the Branding screen shows of the sending domain; serializable loader data. */
export type SendingDomainState = {
  /** Whether an email provider is configured at all (without one, nothing can be registered). */
  providerConfigured: boolean
  domain: string | null
  senderAddress: string | null
  /** The provider's status, or 'registering' while it has not answered yet. */
  status: string | null
  /** The emails of this agency leave from the sender address now. */
  sending: boolean
  /** It was verified and stopped being so: emails are back on the platform's address. */
  lost: boolean
  records: SendingDomainRecord[]
  checkedAt: string | null
  /** ISO time this state was read: "Last checked" counts from it, the same on server and browser. */
  shownAt: string
}

/**
 * Held by another agency (the provider's account takes each name once, so a pending claim holds
 * it too, until it expires); the message names no one (issue 26, ADR 031).
 */
export const SENDING_DOMAIN_TAKEN = SENDING_DOMAIN_UNAVAILABLE
export const SENDING_DOMAIN_IS_PLATFORM = 'Choose a domain of your own, not one of the platform'
export const NO_EMAIL_PROVIDER =
  'Sending domains need an email provider. Ask the platform administrator to set one up.'

export const PROVIDER_UNAVAILABLE =
  'The email provider could not be reached. Please try again in a few minutes.'

/** Refused before or by the provider: the message goes next to the Branding form's domain field. */
function refused(code: RefusalCode, message: string) {
  return new Refusal(code, message, { field: 'sendingDomain' })
}

export function isSendingStatus(row: Pick<SendingDomainRow, 'verifiedAt'>) {
  return row.verifiedAt !== null
}

export function toSendingDomainState(
  row: SendingDomainRow | undefined,
  whiteLabelActive: boolean,
): SendingDomainState {
  return {
    providerConfigured: emailProviderConfigured(),
    domain: row?.domain ?? null,
    senderAddress: row ? `${row.senderLocalPart}@${row.domain}` : null,
    status: row?.status ?? null,
    sending: Boolean(row?.verifiedAt && whiteLabelActive),
    lost: Boolean(row && !row.verifiedAt && row.lostAt),
    records: row?.records ?? [],
    checkedAt: row?.checkedAt?.toISOString() ?? null,
    shownAt: new Date().toISOString(),
  }
}

export async function readSendingDomainState(
  tx: Transaction,
  organizationId: string,
  whiteLabelActive: boolean,
) {
  return toSendingDomainState(await findSendingDomain(tx, organizationId), whiteLabelActive)
}

/** Seconds until the next background check: soon while records may still be appearing. */
function recheckDelaySeconds(status: string) {
  const env = getEnv()
  return status === 'verified'
    ? env.SENDING_DOMAIN_RECHECK_SECONDS
    : env.SENDING_DOMAIN_PENDING_RECHECK_SECONDS
}

/**
 * Queues the next check of the domain. Keyed by the registration and the time slot, so two
 * chains for the same domain (a check by hand beside the background one) merge into one.
 */
async function scheduleCheck(
  tx: Transaction,
  organizationId: string,
  providerDomainId: string,
  status: string,
) {
  const seconds = recheckDelaySeconds(status)
  if (seconds <= 0) return
  const slot = Math.floor(Date.now() / 1000 / seconds) + 1
  await insertJob(tx, {
    name: 'sending-domain.check',
    organizationId,
    payload: { providerDomainId },
    idempotencyKey: `sending-domain.check:${providerDomainId}:${seconds}:${slot}`,
    runAt: new Date(slot * seconds * 1000),
  })
}

/** Since when the claim has gone unproven: its registration, or the loss of its proof. */
function unverifiedSince(row: SendingDomainRow): Date | null {
  if (row.verifiedAt) return null
  return row.lostAt ?? row.createdAt
}

/** Queues the release of the claim for when it expires, should it still be unverified then. */
async function scheduleExpiry(
  tx: Transaction,
  organizationId: string,
  providerDomainId: string,
  since: Date,
) {
  await insertJob(tx, {
    name: 'sending-domain.expire',
    organizationId,
    payload: { providerDomainId },
    idempotencyKey: `sending-domain.expire:${providerDomainId}:${since.getTime()}`,
    runAt: claimExpiresAt(since),
  })
}

/**
 * Releases a claim unverified for DOMAIN_CLAIM_DAYS: the provider forgets the domain (so another
 * agency can register it), then the row goes, audited. Returns whether it was expired. Throws
 * EmailProviderError when the provider cannot be reached (nothing changes here then).
 */
async function releaseIfExpired(
  organizationId: string,
  row: SendingDomainRow,
  actorUserId: string | null,
): Promise<boolean> {
  const since = unverifiedSince(row)
  if (!since || !isClaimExpired(since)) return false
  if (row.providerDomainId) await removeProviderDomain(row.providerDomainId)
  await withTenant(organizationId, async (tx) => {
    const deleted = await deleteUnverifiedSendingDomain(tx, organizationId, row.providerDomainId)
    if (!deleted) return
    await recordOrganizationAudit(tx, organizationId, actorUserId, 'sending_domain.expired', {
      domain: row.domain,
    })
  })
  return true
}

/**
 * Registers the domain with the provider for the organization. The row is reserved first, so a
 * domain another agency holds is refused before the provider hears of it; a provider that
 * refuses leaves nothing behind.
 */
export async function addSendingDomain(
  organizationId: string,
  actorUserId: string,
  input: { domain: string; senderLocalPart: string },
): Promise<void> {
  // Nothing the agency admin can fix: the platform has no provider to register it with.
  if (!emailProviderConfigured()) throw refused('unprocessable', NO_EMAIL_PROVIDER)
  const root = getEnv().ROOT_DOMAIN
  if (input.domain === root || input.domain.endsWith(`.${root}`)) {
    throw refused('invalid', SENDING_DOMAIN_IS_PLATFORM)
  }
  try {
    await withTenant(organizationId, async (tx) => {
      const existing = await findSendingDomain(tx, organizationId)
      if (existing) throw refused('conflict', 'Remove the current sending domain first')
      await reserveSendingDomain(tx, organizationId, input.domain, input.senderLocalPart)
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw refused('conflict', SENDING_DOMAIN_TAKEN)
    throw error
  }
  let registered: Awaited<ReturnType<typeof createProviderDomain>>
  try {
    registered = await createProviderDomain(input.domain)
  } catch (error) {
    await withTenant(organizationId, (tx) => deleteSendingDomain(tx, organizationId))
    if (error instanceof EmailProviderError) {
      throw error.unavailable
        ? refused('provider_failed', PROVIDER_UNAVAILABLE)
        : refused('invalid', `The email provider refused this domain: ${error.message}`)
    }
    throw error
  }
  await withTenant(organizationId, async (tx) => {
    await completeSendingDomainRegistration(tx, organizationId, registered.id, {
      status: registered.status,
      records: registered.records,
    })
    await recordOrganizationAudit(tx, organizationId, actorUserId, 'sending_domain.added', {
      domain: input.domain,
      sender: `${input.senderLocalPart}@${input.domain}`,
      status: registered.status,
    })
    await scheduleCheck(tx, organizationId, registered.id, registered.status)
    if (registered.status !== 'verified') {
      await scheduleExpiry(tx, organizationId, registered.id, new Date())
    }
  })
}

export type SendingDomainCheck =
  | { outcome: 'checked'; status: string; sending: boolean }
  | { outcome: 'no-domain' }
  | { outcome: 'unreachable'; message: string }
  /** Unverified past DOMAIN_CLAIM_DAYS: released here and at the provider. */
  | { outcome: 'expired' }

/**
 * Reads the domain's state from the provider and records it: verified starts sending from it,
 * anything else (after verified) falls back to the platform's address. `askToVerify` (a check
 * by hand) first asks the provider to look the records up again. `actorUserId` is null for the
 * background check.
 */
export async function checkSendingDomain(
  organizationId: string,
  actorUserId: string | null,
  options: { askToVerify?: boolean; providerDomainId?: string } = {},
): Promise<SendingDomainCheck> {
  const row = await withTenant(organizationId, (tx) => findSendingDomain(tx, organizationId))
  if (!row || row.status === REGISTERING) return { outcome: 'no-domain' }
  // A background check of a registration since removed (and perhaps replaced) stops its chain.
  if (options.providerDomainId && options.providerDomainId !== row.providerDomainId) {
    return { outcome: 'no-domain' }
  }
  try {
    if (await releaseIfExpired(organizationId, row, actorUserId)) return { outcome: 'expired' }
  } catch (error) {
    if (!(error instanceof EmailProviderError)) throw error
    return { outcome: 'unreachable', message: error.message }
  }
  let current: Awaited<ReturnType<typeof getProviderDomain>>
  try {
    if (options.askToVerify) await verifyProviderDomain(row.providerDomainId)
    current = await getProviderDomain(row.providerDomainId)
  } catch (error) {
    if (!(error instanceof EmailProviderError)) throw error
    // Gone at the provider (removed in its dashboard): it cannot send, whatever it was.
    if (error.notFound)
      current = { id: row.providerDomainId, status: 'failed', records: row.records }
    else return { outcome: 'unreachable', message: error.message }
  }
  const now = new Date()
  const verified = current.status === 'verified'
  const verifiedAt = verified ? (row.verifiedAt ?? now) : null
  const lostAt = verified ? null : row.verifiedAt ? now : row.lostAt
  const wasSending = row.verifiedAt !== null
  await withTenant(organizationId, async (tx) => {
    const recorded = await recordSendingDomainState(tx, organizationId, row.providerDomainId, {
      status: current.status,
      records: current.records,
      verifiedAt,
      lostAt,
      checkedAt: now,
    })
    if (!recorded) return
    if (wasSending !== verified) {
      await recordOrganizationAudit(
        tx,
        organizationId,
        actorUserId,
        verified ? 'sending_domain.verified' : 'sending_domain.failed',
        { domain: row.domain, from: row.status, to: current.status },
      )
    }
    await scheduleCheck(tx, organizationId, row.providerDomainId, current.status)
    // Verified no more: the claim now has its days to be proven again.
    if (wasSending && !verified && lostAt) {
      await scheduleExpiry(tx, organizationId, row.providerDomainId, lostAt)
    }
  })
  return { outcome: 'checked', status: current.status, sending: verified }
}

/** Releases the registration once its claim has expired, unless it was verified since. */
export const expireSendingDomainJob: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const providerDomainId = job.payload.providerDomainId
    if (!organizationId || !providerDomainId) return
    const row = await withTenant(organizationId, (tx) => findSendingDomain(tx, organizationId))
    if (!row || row.providerDomainId !== providerDomainId) return
    // A provider that cannot be reached throws: the queue tries again.
    await releaseIfExpired(organizationId, row, null)
  },
}

/** Removes the domain at the provider and here; the agency's emails go back to the platform's. */
export async function removeSendingDomain(
  organizationId: string,
  actorUserId: string,
): Promise<'removed' | 'no-domain'> {
  const row = await withTenant(organizationId, (tx) => findSendingDomain(tx, organizationId))
  if (!row) return 'no-domain'
  if (row.providerDomainId) await removeProviderDomain(row.providerDomainId)
  await withTenant(organizationId, async (tx) => {
    await deleteSendingDomain(tx, organizationId)
    await recordOrganizationAudit(tx, organizationId, actorUserId, 'sending_domain.removed', {
      domain: row.domain,
    })
  })
  return 'removed'
}

/** The background check: a provider that cannot be reached is tried again by the queue. */
export const checkSendingDomainJob: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const providerDomainId = job.payload.providerDomainId
    if (!organizationId || !providerDomainId) return
    const check = await checkSendingDomain(organizationId, null, { providerDomainId })
    if (check.outcome === 'unreachable') throw new Error(check.message)
  },
  // Out of retries (a long provider outage): the chain of checks must not end with it.
  async onDead(job) {
    const organizationId = job.organizationId
    const providerDomainId = job.payload.providerDomainId
    if (!organizationId || !providerDomainId) return
    await withTenant(organizationId, (tx) =>
      scheduleCheck(tx, organizationId, providerDomainId, 'pending'),
    )
  },
}

/**
 * Inside the deletion of an organization: the provider forgets its sending domain once that
 * commits. The job names no organization (it would go with it) and carries only the provider's id.
 */
export async function queueProviderRemovalIn(tx: Transaction, organizationId: string) {
  const row = await findSendingDomain(tx, organizationId)
  if (!row?.providerDomainId) return
  await insertJob(tx, {
    name: 'sending-domain.remove',
    payload: { providerDomainId: row.providerDomainId },
    idempotencyKey: `sending-domain.remove:${row.providerDomainId}`,
  })
}

/** Removes a deleted organization's domain at the provider; an outage is retried by the queue. */
export const removeProviderDomainJob: JobHandler = {
  async run(job) {
    const providerDomainId = job.payload.providerDomainId
    if (providerDomainId) await removeProviderDomain(providerDomainId)
  },
}
