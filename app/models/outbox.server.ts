import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import {
  emailOutbox,
  type OutboxAttachment,
  type OutboxSecret,
  organizations,
} from '#drizzle/schema'

export type OutboxEmail = {
  to: string
  subject: string
  html: string
  text: string
  /** Extra message headers (List-Unsubscribe on notifications). */
  headers?: Record<string, string>
  /** Files sent with it (a followed card's vCard, ADR 102). */
  attachments?: OutboxAttachment[]
}

/**
 * Stores an email as queued; the job queue's worker delivers it (app/email/mailer.server.ts).
 * The email holds no token: `secrets` says how the mailer derives them (ADR 028).
 */
export async function insertOutboxEmail(
  db: Queryable,
  organizationId: string,
  email: OutboxEmail,
  fromName?: string,
  secrets: OutboxSecret[] = [],
) {
  const [row] = await db
    .insert(emailOutbox)
    .values({
      organizationId,
      toAddress: email.to,
      subject: email.subject,
      html: email.html,
      text: email.text,
      headers: email.headers ?? {},
      attachments: email.attachments ?? [],
      secrets,
      fromName: fromName ?? null,
    })
    .returning({ id: emailOutbox.id })
  if (!row) throw new Error('outbox insert returned nothing')
  return row.id
}

export async function findOutboxEmail(db: Queryable, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.organizationId, organizationId), eq(emailOutbox.id, id)))
  return row
}

/** Delivered: to the provider (with its message id) or, without one, kept here for /dev/outbox. */
export async function markOutboxEmailSent(
  db: Queryable,
  organizationId: string,
  id: string,
  providerMessageId: string | null,
  fromAddress: string,
) {
  await db
    .update(emailOutbox)
    .set({
      state: 'sent',
      providerMessageId,
      fromAddress,
      sentAt: new Date(),
      attempts: sql`${emailOutbox.attempts} + 1`,
      lastError: null,
    })
    .where(and(eq(emailOutbox.organizationId, organizationId), eq(emailOutbox.id, id)))
}

/** One failed delivery attempt; `failed` once the queue gives up on it. */
export async function recordOutboxEmailFailure(
  db: Queryable,
  organizationId: string,
  id: string,
  error: string,
  final: boolean,
) {
  await db
    .update(emailOutbox)
    .set({
      lastError: error,
      ...(final ? { state: 'failed' as const } : { attempts: sql`${emailOutbox.attempts} + 1` }),
    })
    .where(and(eq(emailOutbox.organizationId, organizationId), eq(emailOutbox.id, id)))
}

const outboxColumns = {
  id: emailOutbox.id,
  organizationId: emailOutbox.organizationId,
  to: emailOutbox.toAddress,
  subject: emailOutbox.subject,
  fromName: emailOutbox.fromName,
  fromAddress: emailOutbox.fromAddress,
  html: emailOutbox.html,
  text: emailOutbox.text,
  headers: emailOutbox.headers,
  secrets: emailOutbox.secrets,
  state: emailOutbox.state,
  attempts: emailOutbox.attempts,
  lastError: emailOutbox.lastError,
  providerMessageId: emailOutbox.providerMessageId,
  createdAt: emailOutbox.createdAt,
  organizationName: organizations.name,
}

/** One tenant's emails (the development outbox page on a tenant's host). */
export async function listOutboxForOrganization(db: Queryable, organizationId: string, limit = 50) {
  return db
    .select(outboxColumns)
    .from(emailOutbox)
    .innerJoin(organizations, eq(organizations.id, emailOutbox.organizationId))
    .where(eq(emailOutbox.organizationId, organizationId))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit)
}

/** Every tenant's emails: only inside the platform scope (super admins). */
export async function listOutboxForPlatform(db: Queryable, limit = 50) {
  return db
    .select(outboxColumns)
    .from(emailOutbox)
    .innerJoin(organizations, eq(organizations.id, emailOutbox.organizationId))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit)
}

/**
 * The emails of a tenant to one address whose links include one of a purpose, with the secrets
 * their tokens derive from: how a lead's deletion finds its own receipt (ADR 050), matched by
 * the token's hash in the caller since only the seed rests here.
 */
export async function listOutboxLinksTo(
  db: Queryable,
  organizationId: string,
  toAddress: string,
  purpose: string,
) {
  return db
    .select({ id: emailOutbox.id, secrets: emailOutbox.secrets })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.organizationId, organizationId),
        sql`lower(${emailOutbox.toAddress}) = lower(${toAddress.trim()})`,
        sql`${emailOutbox.secrets} @> ${JSON.stringify([{ purpose }])}::jsonb`,
      ),
    )
}

/** Deletes a tenant's emails by id (a deleted lead's receipt); how many went. */
export async function deleteOutboxEmails(db: Queryable, organizationId: string, ids: string[]) {
  if (ids.length === 0) return 0
  const deleted = await db
    .delete(emailOutbox)
    .where(and(eq(emailOutbox.organizationId, organizationId), inArray(emailOutbox.id, ids)))
    .returning({ id: emailOutbox.id })
  return deleted.length
}
