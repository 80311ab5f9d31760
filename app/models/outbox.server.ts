import { desc, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { emailOutbox, organizations } from '#drizzle/schema'

export type OutboxEmail = {
  to: string
  subject: string
  html: string
  text: string
  /** Extra message headers (List-Unsubscribe on notifications). */
  headers?: Record<string, string>
}

export async function insertOutboxEmail(db: Queryable, organizationId: string, email: OutboxEmail) {
  await db.insert(emailOutbox).values({
    organizationId,
    toAddress: email.to,
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: email.headers ?? {},
  })
}

const outboxColumns = {
  id: emailOutbox.id,
  to: emailOutbox.toAddress,
  subject: emailOutbox.subject,
  html: emailOutbox.html,
  text: emailOutbox.text,
  headers: emailOutbox.headers,
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
