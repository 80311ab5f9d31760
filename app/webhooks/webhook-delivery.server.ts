// Delivering a webhook (issue 43 point 3, ADR 093), one job per attempt: sign the message per
// the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`
// with a `v1,` entry per secret, both during a rotation's overlap), POST it through callOutside
// (one deadline, cancelled at shutdown) to a public address only (checked after resolution on
// every attempt; redirects are not followed), log the attempt, and on failure queue the next one
// after an exponential, jittered delay for up to three days. An endpoint whose every attempt
// failed for three days is disabled and the agency's admins are emailed.
import { Webhook } from 'standardwebhooks'
import { queueEmailIn } from '#app/email/mailer.server'
import { getEnv } from '#app/env.server'
import { type JobHandler, tenantJobInput } from '#app/jobs/worker.server'
import { findAgency } from '#app/models/agencies.server'
import { listActiveUserIdsWithRoles } from '#app/models/people.server'
import { findUserById } from '#app/models/users.server'
import {
  findWebhookDelivery,
  markWebhookEndpointFailing,
  recordWebhookAttempt,
  updateWebhookDelivery,
  updateWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookMessage,
} from '#app/models/webhooks.server'
import { metrics } from '#app/observability/metrics.server'
import { webhookDisabledEmail } from '#app/services/emails/webhook-disabled-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { isRefusal } from '#app/utils/action-error'
import {
  callOutside,
  OutsideCallError,
  outsideCallDeadlineMs,
} from '#app/utils/outside-call.server'
import {
  type AddressPolicy,
  addressLiteral,
  isAllowedAddress,
  privateAddressRefusal,
  publicAddressDispatcher,
} from '#app/utils/public-address.server'
import { openAtRest } from '#app/utils/secret-box.server'
import {
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_RETRY_WINDOW_MS,
  WEBHOOK_URL_INVALID,
  WEBHOOK_URL_PRIVATE,
  webhookRetryDelayMs,
} from '#app/validation/webhooks'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { queueDeliveryAttempt } from './webhook-events.server'

export const WEBHOOKS_PAGE_PATH = '/dashboard/agency/webhooks'

/** Response bodies are read (to count them and free the connection) up to this many bytes. */
const MAX_COUNTED_BYTES = 1024 * 1024

/** Private, loopback and link-local targets (and plain http) only with WEBHOOK_ALLOW_PRIVATE=1. */
export function allowsPrivateTargets() {
  return getEnv().WEBHOOK_ALLOW_PRIVATE === '1'
}

const webhookPolicy = (): AddressPolicy => {
  const allowed = allowsPrivateTargets()
  return { loopback: allowed, private: allowed }
}

let dispatcher: ReturnType<typeof publicAddressDispatcher> | undefined

/** Every attempt opens its own connection, so each one's address is checked. */
function webhookDispatcher() {
  dispatcher ??= publicAddressDispatcher(webhookPolicy, { keepAlive: false })
  return dispatcher
}

/**
 * Why this URL is refused as a target before any lookup (an address literal in a private
 * range, plain http in production), or null. A name is checked when it is resolved.
 */
export function webhookTargetRefusal(value: string): string | null {
  if (!URL.canParse(value)) return WEBHOOK_URL_INVALID
  const url = new URL(value)
  const allowed = allowsPrivateTargets()
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:')) {
    return WEBHOOK_URL_INVALID
  }
  const literal = addressLiteral(url.hostname)
  if (literal && !isAllowedAddress(literal, webhookPolicy())) return WEBHOOK_URL_PRIVATE
  return null
}

/**
 * Every attempt's User-Agent: what sent it, and (the crawlers' `+URL` convention) where the
 * receiver's owner finds the endpoint: the agency's own Webhooks screen on its own origin. No
 * platform name: the agency's systems see its white label, as its API document's title does.
 */
export function webhookUserAgent(origin: string | null) {
  return origin ? `Webhooks/1.0 (+${origin}${WEBHOOKS_PAGE_PATH})` : 'Webhooks/1.0'
}

/** The agency's public origin, from its record (its verified domain, else its subdomain). */
async function agencyOrigin(tx: Transaction, organizationId: string) {
  const agency = await findAgency(tx, organizationId)
  if (!agency) return null
  return tenantOrigin({
    kind: 'agency',
    slug: agency.slug,
    customDomain: agency.customDomainVerifiedAt ? agency.customDomain : null,
  })
}

/** The `webhook-id` of a message: the same for every attempt and endpoint, so receivers dedupe. */
export const webhookMessageId = (messageId: string) => `msg_${messageId.replaceAll('-', '')}`

/** The secrets that sign now: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: WebhookEndpoint, at: Date) {
  const secrets = [openAtRest(endpoint.secretSealed)]
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousSecretUntil &&
    endpoint.previousSecretUntil > at
  ) {
    secrets.push(openAtRest(endpoint.previousSecretSealed))
  }
  return secrets
}

/** The three Standard Webhooks headers for this body, signed with each secret. */
export function signedHeaders(
  secrets: string[],
  id: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    // Space-separated `v1,<base64>` entries: a receiver accepts the message when any verifies.
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  }
}

type AttemptResult = {
  ok: boolean
  statusCode: number | null
  responseBytes: number | null
  error: string | null
  durationMs: number
}

async function countBody(response: Response) {
  if (!response.body) return 0
  let bytes = 0
  const reader = response.body.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength
    if (bytes >= MAX_COUNTED_BYTES) {
      await reader.cancel()
      break
    }
  }
  return bytes
}

/** The system error code behind a failed fetch (ECONNREFUSED, ENOTFOUND, a TLS code…). */
function errorCode(error: unknown): string | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string') return code
  }
  return null
}

/**
 * What the delivery log says of a failed attempt. Never the URL (it may hold a token) nor the
 * response's body; docs/webhooks.md explains each.
 */
function attemptError(error: unknown): string {
  const refused = privateAddressRefusal(error)
  if (refused) return `Refused: ${refused.address} is not a public address`
  if (error instanceof OutsideCallError) {
    return error.reason === 'deadline'
      ? `No answer within ${Math.round(outsideCallDeadlineMs() / 1000)} seconds`
      : 'Cancelled: the server was stopping; tried again later'
  }
  const code = errorCode(error)
  switch (code) {
    case 'ECONNREFUSED':
      return 'Connection refused (ECONNREFUSED)'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The endpoint's name was not found in DNS (${code})`
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `The connection was closed before an answer (${code})`
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `Could not connect in time (${code})`
    default:
      if (code && /CERT|SSL|TLS|SELF_SIGNED/.test(code)) {
        return `The endpoint's TLS certificate was refused (${code})`
      }
      return code ? `Could not deliver (${code})` : 'Could not deliver (network error)'
  }
}

/** One POST of the message to the endpoint. */
export async function sendWebhook(
  endpoint: WebhookEndpoint,
  message: WebhookMessage,
  at: Date,
  userAgent: string,
): Promise<AttemptResult> {
  const refusal = webhookTargetRefusal(endpoint.url)
  if (refusal) {
    return { ok: false, statusCode: null, responseBytes: null, error: refusal, durationMs: 0 }
  }
  const body = JSON.stringify(message.payload)
  const headers = signedHeaders(
    signingSecrets(endpoint, at),
    webhookMessageId(message.id),
    at,
    body,
  )
  const started = performance.now()
  const duration = () => Math.round(performance.now() - started)
  try {
    const answer = await callOutside('The webhook endpoint', async (signal) => {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...headers },
        body,
        signal,
        // A redirect is an answer like any other (a failure): following it would reach an
        // address nobody chose.
        redirect: 'manual',
        dispatcher: await webhookDispatcher(),
      } as RequestInit)
      return { status: response.status, bytes: await countBody(response) }
    })
    const ok = answer.status >= 200 && answer.status < 300
    return {
      ok,
      statusCode: answer.status,
      responseBytes: answer.bytes,
      error: ok
        ? null
        : answer.status >= 300 && answer.status < 400
          ? `Answered ${answer.status}: redirects are not followed`
          : `Answered ${answer.status}`,
      durationMs: duration(),
    }
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      responseBytes: null,
      error: attemptError(error),
      durationMs: duration(),
    }
  }
}

/** The agency's admins are told their endpoint was disabled, in the transaction that did it. */
async function emailAdmins(
  tx: Transaction,
  tenant: Tenant,
  endpoint: WebhookEndpoint,
  lastError: string,
) {
  const branding = tenantEmailBranding(tenant)
  const host = URL.canParse(endpoint.url) ? new URL(endpoint.url).host : 'your endpoint'
  for (const id of await listActiveUserIdsWithRoles(tx, tenant.id, ['agency_admin'])) {
    const admin = await findUserById(tx, tenant.id, id)
    if (!admin) continue
    try {
      await queueEmailIn(
        tx,
        tenant.id,
        webhookDisabledEmail({
          branding,
          to: admin.email,
          firstName: admin.firstName,
          endpointHost: host,
          lastError,
          screenUrl: `${branding.origin}${WEBHOOKS_PAGE_PATH}`,
        }),
        tenant.name,
        { userId: admin.id },
        `webhook.disabled:${endpoint.id}:${admin.id}:${Date.now()}`,
      )
    } catch (error) {
      // Past a send limit the endpoint is still disabled; the screen says so.
      if (!isRefusal(error, 'rate_limited')) throw error
    }
  }
}

/** The `webhook.deliver` job: one attempt of one delivery. */
export const deliverWebhookJob: JobHandler = {
  async run(job) {
    const { organizationId, deliveryId } = tenantJobInput(job, 'deliveryId')
    const manual = job.payload.attempt === 'resend'
    const found = await withTenant(organizationId, async (tx) => {
      const row = await findWebhookDelivery(tx, organizationId, deliveryId)
      return row && { ...row, origin: await agencyOrigin(tx, organizationId) }
    })
    if (found?.delivery.status !== 'pending') return
    const { delivery, endpoint, message, origin } = found
    // A retry queued before an admin's "Resend" took its turn.
    if (!manual && job.payload.attempt !== String(delivery.attempts + 1)) return
    if (endpoint.disabledAt) {
      await withTenant(organizationId, (tx) =>
        updateWebhookDelivery(tx, organizationId, deliveryId, {
          status: 'failed',
          nextAttemptAt: null,
        }),
      )
      return
    }
    const attempt = delivery.attempts + 1
    const at = new Date()
    const result = await sendWebhook(endpoint, message, at, webhookUserAgent(origin))
    // Read outside the transaction (it takes its own): branding for the email if one is due.
    const tenant = result.ok ? undefined : await freshTenantOf(organizationId)
    await withTenant(organizationId, async (tx) => {
      await recordWebhookAttempt(tx, organizationId, {
        deliveryId,
        attemptedAt: at,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        responseBytes: result.responseBytes,
        error: result.error,
        manual,
      })
      if (result.ok) {
        await updateWebhookDelivery(tx, organizationId, deliveryId, {
          status: 'succeeded',
          attempts: attempt,
          lastAttemptAt: at,
          nextAttemptAt: null,
        })
        await updateWebhookEndpoint(tx, organizationId, endpoint.id, {
          failingSince: null,
          lastSuccessAt: at,
        })
        return
      }
      const now = new Date()
      const next = new Date(
        now.getTime() + webhookRetryDelayMs(attempt, getEnv().WEBHOOK_RETRY_BASE_MS),
      )
      const final = next.getTime() > delivery.createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS
      metrics.deliveryFailures.labels('webhook', String(final)).inc()
      await updateWebhookDelivery(tx, organizationId, deliveryId, {
        status: final ? 'failed' : 'pending',
        attempts: attempt,
        lastAttemptAt: at,
        nextAttemptAt: final ? null : next,
      })
      if (!final) {
        await queueDeliveryAttempt(tx, organizationId, deliveryId, {
          attempt: attempt + 1,
          runAt: next,
        })
      }
      const failing = await markWebhookEndpointFailing(tx, organizationId, endpoint.id, at)
      if (manual || !failing?.failingSince || failing.disabledAt) return
      // Failing for days: every attempt since failing_since failed, for three days, or this
      // delivery ran out of retries with no success anywhere since it was made.
      const failedForDays =
        now.getTime() - failing.failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_MS
      const noSuccessSince = !failing.lastSuccessAt || failing.lastSuccessAt < delivery.createdAt
      if (!failedForDays && !(final && noSuccessSince)) return
      const disabled = await updateWebhookEndpoint(tx, organizationId, endpoint.id, {
        disabledAt: now,
        disabledReason: `Every attempt failed for three days; the last: ${result.error}`,
      })
      if (disabled && tenant) await emailAdmins(tx, tenant, disabled, result.error ?? 'unknown')
    })
  },
}
