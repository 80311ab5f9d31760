// Email goes through the durable job queue (ADR 019): queueing writes the outbox row and its job
// in one transaction (a local write, whatever the provider is doing), and the worker delivers
// it: to Resend when RESEND_API_KEY is set (RESEND_BASE_URL points the SDK elsewhere, e.g. a
// local fake in tests), otherwise it stays in the outbox that /dev/outbox lists. A crash after
// the answer loses nothing: the job is still there when the process starts again.
import { Resend } from 'resend'
import { redactEmail, revealEmail, type SecretEmail } from '#app/email/email-secrets.server'
import { admitEmailIn, type EmailCause } from '#app/email/send-limits.server'
import { getEnv } from '#app/env.server'
import type { JobHandler } from '#app/jobs/worker.server'
import { insertJob } from '#app/models/jobs.server'
import {
  findOutboxEmail,
  insertOutboxEmail,
  markOutboxEmailSent,
  type OutboxEmail,
  recordOutboxEmailFailure,
} from '#app/models/outbox.server'
import { findVerifiedSenderAddress } from '#app/models/sending-domains.server'
import { metrics } from '#app/observability/metrics.server'
import { callOutside } from '#app/utils/outside-call.server'
import { type Transaction, withTenant } from '#drizzle/db.server'

/**
 * Queues an email inside the caller's transaction: it goes out exactly when that commits.
 * `fromName` is the sender's display name: the brand the email shows (never the platform's
 * configured name on an agency's email, issue 17). Every token the email's links carry must be
 * named in `email.secrets`: the outbox keeps the email without them (ADR 028). `cause` says who
 * made it happen: the email passes the send limits first (a rate_limited Refusal, which rolls the
 * caller's transaction back).
 */
export async function queueEmailIn(
  tx: Transaction,
  organizationId: string,
  email: SecretEmail,
  fromName: string,
  cause: EmailCause,
  /** Names the email's job (`email.send:{key}`) so a caller can tell it was queued before. */
  key?: string,
) {
  await admitEmailIn(tx, organizationId, email.to, cause)
  // The row keeps the subject as it is sent (one line): the outbox page and the data export show
  // what the recipient got, not a line break of a lead's choosing.
  const redacted = redactEmail(organizationId, { ...email, subject: headerValue(email.subject) })
  const outboxId = await insertOutboxEmail(
    tx,
    organizationId,
    redacted.email,
    fromName,
    redacted.secrets,
  )
  await insertJob(tx, {
    name: 'email.send',
    organizationId,
    payload: { outboxId },
    idempotencyKey: `email.send:${key ?? outboxId}`,
    maxAttempts: 8,
  })
}

/** Queues an email in its own transaction: the worker wakes at its commit. */
export async function queueEmail(
  organizationId: string,
  email: SecretEmail,
  fromName: string,
  cause: EmailCause,
) {
  await withTenant(organizationId, (tx) => queueEmailIn(tx, organizationId, email, fromName, cause))
}

/** The platform's configured address and display name (EMAIL_FROM, `Name <address>` or bare). */
function platformSender() {
  const from = getEnv().EMAIL_FROM
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>/.exec(from)
  return match
    ? { name: match[1] || null, address: match[2] ?? from }
    : { name: null, address: from }
}

/**
 * A value that becomes an email header: control characters (CR and LF above all, which would
 * start a header of the caller's choosing, e.g. a lead named "x\r\nBcc: …"), DEL, the C1 set
 * and Unicode line separators become one space.
 */
export function headerValue(value: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
}

/** `Name <address>`, with what would break the header taken out of the name. */
export function formatFrom(name: string | null, address: string) {
  const display = headerValue(name ?? '')
    .replace(/[<>"\\]/g, '')
    .trim()
  if (!display) return address
  // RFC 5322: a name with specials must be quoted; a plain one reads better bare.
  return /[,;:@()[\]]/.test(display) ? `"${display}" <${address}>` : `${display} <${address}>`
}

async function sendThroughResend(
  apiKey: string,
  outboxId: string,
  email: OutboxEmail,
  from: string,
) {
  const resend = new Resend(apiKey)
  // The one place an email's headers are built: every field that becomes one goes through
  // headerValue, whatever its source (a lead's name in a subject, a brand name in the From).
  const headers = Object.entries(email.headers ?? {}).map(
    ([name, value]) => [headerValue(name), headerValue(value)] as const,
  )
  // Resend answers in well under a second; one that hangs is given up at the outside-call
  // deadline (the SDK takes no signal: its late answer is ignored, the idempotency key below
  // keeps the retry from sending twice).
  const { data, error } = await callOutside('the email provider', () =>
    resend.emails.send(
      {
        from: headerValue(from),
        to: headerValue(email.to),
        subject: headerValue(email.subject),
        html: email.html,
        text: email.text,
        ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
        ...(email.attachments?.length
          ? {
              attachments: email.attachments.map((file) => ({
                filename: headerValue(file.filename),
                content: file.content,
                contentType: headerValue(file.contentType),
              })),
            }
          : {}),
      },
      // A retry after a lost answer is the same request to Resend, which sends it once.
      { idempotencyKey: `brandcard-email/${outboxId}` },
    ),
  )
  if (error) throw new Error(`Resend refused the email: ${error.message}`)
  return data?.id ?? null
}

/** The worker's delivery of one queued email. */
export const deliverEmail: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const outboxId = job.payload.outboxId
    if (!organizationId || !outboxId) return
    // The sender is decided now, not when queued: a domain verified since (or failing since)
    // applies at once.
    const { row, ownAddress } = await withTenant(organizationId, async (tx) => ({
      row: await findOutboxEmail(tx, organizationId, outboxId),
      ownAddress: await findVerifiedSenderAddress(tx, organizationId),
    }))
    // Delivered by an earlier run whose end was not recorded, or removed with its tenant.
    if (row?.state !== 'queued') return
    const platform = platformSender()
    const address = ownAddress ?? platform.address
    // Emails queued before senders were named carry none: the platform's name, as they would have.
    const from = formatFrom(row.fromName ?? platform.name, address)
    const apiKey = getEnv().RESEND_API_KEY
    let providerId: string | null = null
    if (apiKey) {
      // The links' tokens exist only in this request to the provider, never in the row.
      const email = revealEmail(
        organizationId,
        {
          to: row.toAddress,
          subject: row.subject,
          html: row.html,
          text: row.text,
          headers: row.headers,
          attachments: row.attachments,
        },
        row.secrets,
      )
      try {
        providerId = await sendThroughResend(apiKey, outboxId, email, from)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        // Counted per failed attempt; its last one is counted again, final, by onDead.
        metrics.deliveryFailures.labels('email', 'false').inc()
        await withTenant(organizationId, (tx) =>
          recordOutboxEmailFailure(tx, organizationId, outboxId, message, false),
        )
        throw error
      }
    }
    await withTenant(organizationId, (tx) =>
      markOutboxEmailSent(tx, organizationId, outboxId, providerId, address),
    )
  },
  async onDead(job, error) {
    const organizationId = job.organizationId
    const outboxId = job.payload.outboxId
    if (!organizationId || !outboxId) return
    metrics.deliveryFailures.labels('email', 'true').inc()
    await withTenant(organizationId, (tx) =>
      recordOutboxEmailFailure(tx, organizationId, outboxId, error, true),
    )
  },
}
