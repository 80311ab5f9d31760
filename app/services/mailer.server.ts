// Email goes through the durable job queue (ADR 019): queueing writes the outbox row and its job
// in one transaction (a local write, whatever the provider is doing), and the worker delivers
// it: to Resend when RESEND_API_KEY is set (RESEND_BASE_URL points the SDK elsewhere, e.g. a
// local fake in tests), otherwise it stays in the outbox that /dev/outbox lists. A crash after
// the answer loses nothing: the job is still there when the process starts again.
import { Resend } from 'resend'
import { getEnv } from '#app/env.server'
import { type JobHandler, wakeJobWorker } from '#app/jobs/worker.server'
import { insertJob } from '#app/models/jobs.server'
import {
  findOutboxEmail,
  insertOutboxEmail,
  markOutboxEmailSent,
  type OutboxEmail,
  recordOutboxEmailFailure,
} from '#app/models/outbox.server'
import { type Transaction, withTenant } from '#drizzle/db.server'

// Resend answers in well under a second; a call that hangs must not hold the worker for long.
const PROVIDER_TIMEOUT_MS = 30_000

/** Queues an email inside the caller's transaction: it goes out exactly when that commits. */
export async function queueEmailIn(
  tx: Transaction,
  organizationId: string,
  email: OutboxEmail,
  fromName?: string,
  /** Names the email's job (`email.send:{key}`) so a caller can tell it was queued before. */
  key?: string,
) {
  const outboxId = await insertOutboxEmail(tx, organizationId, email, fromName)
  await insertJob(tx, {
    name: 'email.send',
    organizationId,
    payload: { outboxId },
    idempotencyKey: `email.send:${key ?? outboxId}`,
    maxAttempts: 8,
  })
}

/** Queues an email in its own transaction and wakes the worker. */
export async function queueEmail(organizationId: string, email: OutboxEmail, fromName?: string) {
  await withTenant(organizationId, (tx) => queueEmailIn(tx, organizationId, email, fromName))
  wakeJobWorker()
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the email provider did not answer in ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

async function sendThroughResend(
  apiKey: string,
  outboxId: string,
  email: OutboxEmail,
  fromName: string | null,
) {
  const env = getEnv()
  const resend = new Resend(apiKey)
  const address = /<([^>]+)>/.exec(env.EMAIL_FROM)?.[1] ?? env.EMAIL_FROM
  const { data, error } = await withTimeout(
    resend.emails.send(
      {
        // Sent in the tenant's name from the platform's verified address.
        from: fromName ? `${fromName.replace(/[<>"]/g, '')} <${address}>` : env.EMAIL_FROM,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        ...(email.headers && Object.keys(email.headers).length > 0
          ? { headers: email.headers }
          : {}),
      },
      // A retry after a lost answer is the same request to Resend, which sends it once.
      { idempotencyKey: `brandcard-email/${outboxId}` },
    ),
    PROVIDER_TIMEOUT_MS,
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
    const row = await withTenant(organizationId, (tx) =>
      findOutboxEmail(tx, organizationId, outboxId),
    )
    // Delivered by an earlier run whose end was not recorded, or removed with its tenant.
    if (row?.state !== 'queued') return
    const apiKey = getEnv().RESEND_API_KEY
    let providerId: string | null = null
    if (apiKey) {
      const email = {
        to: row.toAddress,
        subject: row.subject,
        html: row.html,
        text: row.text,
        headers: row.headers,
      }
      try {
        providerId = await sendThroughResend(apiKey, outboxId, email, row.fromName)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        await withTenant(organizationId, (tx) =>
          recordOutboxEmailFailure(tx, organizationId, outboxId, message, false),
        )
        throw error
      }
    }
    await withTenant(organizationId, (tx) =>
      markOutboxEmailSent(tx, organizationId, outboxId, providerId),
    )
  },
  async onDead(job, error) {
    const organizationId = job.organizationId
    const outboxId = job.payload.outboxId
    if (!organizationId || !outboxId) return
    await withTenant(organizationId, (tx) =>
      recordOutboxEmailFailure(tx, organizationId, outboxId, error, true),
    )
  },
}
