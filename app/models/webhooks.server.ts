// Webhook endpoints, the messages they are sent, each delivery and its attempts (issue 43 point
// 3, ADR 093). Queries only: signing, sending and retrying are app/webhooks/'s.
import { and, arrayContains, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import {
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookMessages,
} from '#drizzle/schema'

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type WebhookMessage = typeof webhookMessages.$inferSelect
export type WebhookAttempt = typeof webhookAttempts.$inferSelect

const endpointOf = (organizationId: string, endpointId: string) =>
  and(eq(webhookEndpoints.organizationId, organizationId), eq(webhookEndpoints.id, endpointId))

export async function insertWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  values: Pick<
    typeof webhookEndpoints.$inferInsert,
    'url' | 'description' | 'eventTypes' | 'secretSealed' | 'createdByUserId'
  >,
) {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ ...values, organizationId })
    .returning()
  if (!row) throw new Error('webhook endpoint insert returned nothing')
  return row
}

export function listWebhookEndpoints(db: Queryable, organizationId: string) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
}

export async function findWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  endpointId: string,
) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(endpointOf(organizationId, endpointId))
  return row
}

/** The row as changed, or undefined when it is not this organization's. */
export async function updateWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  endpointId: string,
  changes: Partial<
    Pick<
      WebhookEndpoint,
      | 'url'
      | 'description'
      | 'eventTypes'
      | 'secretSealed'
      | 'previousSecretSealed'
      | 'previousSecretUntil'
      | 'disabledAt'
      | 'disabledReason'
      | 'failingSince'
      | 'lastSuccessAt'
    >
  >,
) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...changes, updatedAt: new Date() })
    .where(endpointOf(organizationId, endpointId))
    .returning()
  return row
}

/**
 * A failed attempt's mark on its endpoint: failing since now unless it already was. The first
 * failure since the last success, as the row then says.
 */
export async function markWebhookEndpointFailing(
  db: Queryable,
  organizationId: string,
  endpointId: string,
  at: Date,
) {
  const [row] = await db
    .update(webhookEndpoints)
    // A bare Date parameter has no type postgres.js can name inside coalesce: cast it.
    .set({
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)`,
    })
    .where(endpointOf(organizationId, endpointId))
    .returning()
  return row
}

export async function deleteWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  endpointId: string,
) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(endpointOf(organizationId, endpointId))
    .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url })
  return rows[0]
}

/** The enabled endpoints that subscribe to this event type. */
export function listSubscribedWebhookEndpoints(
  db: Queryable,
  organizationId: string,
  eventType: string,
) {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organizationId, organizationId),
        isNull(webhookEndpoints.disabledAt),
        arrayContains(webhookEndpoints.eventTypes, [eventType]),
      ),
    )
}

/** The message, or undefined when one with its dedupe key was made before. */
export async function insertWebhookMessage(
  db: Queryable,
  organizationId: string,
  values: { eventType: string; payload: Record<string, unknown>; dedupeKey?: string },
) {
  const [row] = await db
    .insert(webhookMessages)
    .values({ ...values, organizationId })
    .onConflictDoNothing({
      target: [webhookMessages.organizationId, webhookMessages.dedupeKey],
      where: sql`${webhookMessages.dedupeKey} is not null`,
    })
    .returning()
  return row
}

/**
 * A deleted contact's earlier messages (contact.created, lead.created) keep only which contact
 * they were about: a delivery still to come sends that, and nothing of the person stays here.
 */
export async function redactWebhookMessagesAbout(
  db: Queryable,
  organizationId: string,
  contactId: string,
) {
  return db
    .update(webhookMessages)
    .set({
      payload: sql`jsonb_build_object('type', ${webhookMessages.payload} -> 'type', 'timestamp', ${webhookMessages.payload} -> 'timestamp', 'data', jsonb_build_object('id', ${contactId}::text, 'redacted', true))`,
    })
    .where(
      and(
        eq(webhookMessages.organizationId, organizationId),
        inArray(webhookMessages.eventType, ['contact.created', 'lead.created']),
        sql`${webhookMessages.payload} -> 'data' ->> 'id' = ${contactId}`,
      ),
    )
    .returning({ id: webhookMessages.id })
}

export async function insertWebhookDelivery(
  db: Queryable,
  organizationId: string,
  values: { endpointId: string; messageId: string; nextAttemptAt: Date },
) {
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ ...values, organizationId })
    .returning()
  if (!row) throw new Error('webhook delivery insert returned nothing')
  return row
}

/** A delivery with its endpoint and message, as an attempt needs them. */
export async function findWebhookDelivery(
  db: Queryable,
  organizationId: string,
  deliveryId: string,
) {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, message: webhookMessages })
    .from(webhookDeliveries)
    .innerJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.organizationId, webhookDeliveries.organizationId),
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
      ),
    )
    .innerJoin(
      webhookMessages,
      and(
        eq(webhookMessages.organizationId, webhookDeliveries.organizationId),
        eq(webhookMessages.id, webhookDeliveries.messageId),
      ),
    )
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    )
  return row
}

export async function updateWebhookDelivery(
  db: Queryable,
  organizationId: string,
  deliveryId: string,
  changes: Partial<
    Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'lastAttemptAt'>
  >,
) {
  const [row] = await db
    .update(webhookDeliveries)
    .set(changes)
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    )
    .returning()
  return row
}

/** One line of the delivery log. */
export async function recordWebhookAttempt(
  db: Queryable,
  organizationId: string,
  values: Omit<typeof webhookAttempts.$inferInsert, 'id' | 'organizationId'>,
) {
  await db.insert(webhookAttempts).values({ ...values, organizationId })
}

const deliveriesWhere = (organizationId: string, endpointId?: string) =>
  and(
    eq(webhookDeliveries.organizationId, organizationId),
    endpointId ? eq(webhookDeliveries.endpointId, endpointId) : undefined,
  )

/** The delivery log's page: newest first, with each message's type. */
export function listWebhookDeliveries(
  db: Queryable,
  organizationId: string,
  options: { endpointId?: string; limit: number; offset: number },
) {
  return db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      messageId: webhookDeliveries.messageId,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
      eventType: webhookMessages.eventType,
    })
    .from(webhookDeliveries)
    .innerJoin(
      webhookMessages,
      and(
        eq(webhookMessages.organizationId, webhookDeliveries.organizationId),
        eq(webhookMessages.id, webhookDeliveries.messageId),
      ),
    )
    .where(deliveriesWhere(organizationId, options.endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(options.limit)
    .offset(options.offset)
}

export async function countWebhookDeliveries(
  db: Queryable,
  organizationId: string,
  endpointId?: string,
) {
  const [row] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(deliveriesWhere(organizationId, endpointId))
  return row?.n ?? 0
}

/** The attempts of these deliveries, oldest first. */
export function listWebhookAttempts(db: Queryable, organizationId: string, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return Promise.resolve([])
  return db
    .select()
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.organizationId, organizationId),
        inArray(webhookAttempts.deliveryId, deliveryIds),
      ),
    )
    .orderBy(webhookAttempts.attemptedAt, webhookAttempts.id)
}
