// Webhook endpoints, the messages they are sent, each delivery and its attempts (issue 43 point
// 3, ADR 093). Queries only: signing, sending and retrying are app/webhooks/'s.

import { and, arrayContains, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import {
  contacts,
  jobs,
  webhookAttempts,
  webhookDeliveries,
  webhookDigestCursors,
  webhookEndpoints,
  webhookMessages,
} from '#drizzle/schema'
import { rowsOf } from './raw-rows.server'

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type WebhookMessage = typeof webhookMessages.$inferSelect
export type WebhookAttempt = typeof webhookAttempts.$inferSelect

/**
 * The job of a delivery's attempt (one per attempt, so each is stored and run once). The
 * delivery's own schedule retries (app/webhooks/webhook-delivery.server.ts); the queue's attempts
 * only cover a run that could not record its attempt (the database away).
 */
export const DELIVERY_JOB = { name: 'webhook.deliver', maxAttempts: 5 } as const

/** The idempotency key of a delivery's attempt's job; insertContactDeletedEvents writes it in SQL. */
export const deliveryJobKey = (deliveryId: string, attempt: number | string) =>
  `${DELIVERY_JOB.name}:${deliveryId}:${attempt}`

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

/**
 * Redacts as redactWebhookMessagesAbout does, for every contact of this owner at once: an
 * account's contacts about to be deleted with it (set-based: an account may hold thousands).
 */
export async function redactWebhookMessagesAboutContactsOf(
  db: Queryable,
  organizationId: string,
  ownerId: string,
) {
  const ownersContacts = db
    .select({ id: sql`${contacts.id}::text` })
    .from(contacts)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.userId, ownerId)))
  return db
    .update(webhookMessages)
    .set({
      payload: sql`jsonb_build_object('type', ${webhookMessages.payload} -> 'type', 'timestamp', ${webhookMessages.payload} -> 'timestamp', 'data', jsonb_build_object('id', ${webhookMessages.payload} -> 'data' -> 'id', 'redacted', true))`,
    })
    .where(
      and(
        eq(webhookMessages.organizationId, organizationId),
        inArray(webhookMessages.eventType, ['contact.created', 'lead.created']),
        inArray(sql`${webhookMessages.payload} -> 'data' ->> 'id'`, ownersContacts),
      ),
    )
    .returning({ id: webhookMessages.id })
}

/**
 * `contact.deleted` for every contact of this owner, as emitWebhookEvent writes one event, in one
 * statement whatever their number: a message per contact (`{ id, ownerId, reason, deletedAt }`),
 * a delivery per enabled endpoint subscribed to the type, and each delivery's first attempt as a
 * job. Nothing when no endpoint subscribes. Called before the contacts go (an account's deletion
 * takes them by cascade). How many messages and deliveries were written.
 */
export async function insertContactDeletedEvents(
  db: Queryable,
  organizationId: string,
  ownerId: string,
  event: { reason: string; at: Date },
) {
  const at = event.at.toISOString()
  const result = await db.execute(sql`
    with endpoints as (
      select id from ${webhookEndpoints}
      where organization_id = ${organizationId}::uuid and disabled_at is null
        and event_types @> array['contact.deleted']::text[]
    ), messages as (
      insert into ${webhookMessages} (organization_id, event_type, payload)
      select c.organization_id, 'contact.deleted', jsonb_build_object(
        'type', 'contact.deleted', 'timestamp', ${at}::text,
        'data', jsonb_build_object(
          'id', c.id::text, 'ownerId', c.user_id::text, 'reason', ${event.reason}::text,
          'deletedAt', ${at}::text))
      from ${contacts} c
      where c.organization_id = ${organizationId}::uuid and c.user_id = ${ownerId}::uuid
        and exists (select 1 from endpoints)
      returning id
    ), deliveries as (
      insert into ${webhookDeliveries} (organization_id, endpoint_id, message_id, next_attempt_at)
      select ${organizationId}::uuid, e.id, m.id, ${at}::timestamptz
      from messages m cross join endpoints e
      returning id
    ), queued as (
      insert into ${jobs} (name, payload, organization_id, idempotency_key, run_at, max_attempts)
      select ${DELIVERY_JOB.name}, jsonb_build_object('deliveryId', d.id::text, 'attempt', '1'),
        ${organizationId}::uuid, ${`${DELIVERY_JOB.name}:`} || d.id::text || ':1',
        ${at}::timestamptz, ${DELIVERY_JOB.maxAttempts}::int
      from deliveries d
      returning id
    )
    select (select count(*)::int from messages) as messages,
      (select count(*)::int from queued) as deliveries`)
  const [row] = rowsOf<{ messages: number; deliveries: number }>(result)
  return { messages: Number(row?.messages ?? 0), deliveries: Number(row?.deliveries ?? 0) }
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

const cursorOf = (organizationId: string, eventType: string) =>
  and(
    eq(webhookDigestCursors.organizationId, organizationId),
    eq(webhookDigestCursors.eventType, eventType),
  )

/**
 * The start of the last hour the agency's digest of this type was made for (none before its
 * first run), its row locked until the transaction ends: two runs for one agency take turns.
 */
export async function lockWebhookDigestCursor(
  db: Queryable,
  organizationId: string,
  eventType: string,
) {
  const [row] = await db
    .select({ lastHour: webhookDigestCursors.lastHour })
    .from(webhookDigestCursors)
    .where(cursorOf(organizationId, eventType))
    .for('update')
  return row?.lastHour
}

/** Moves the digest's cursor to `lastHour`, never back: a late run of an older hour leaves it. */
export async function saveWebhookDigestCursor(
  db: Queryable,
  organizationId: string,
  eventType: string,
  lastHour: Date,
) {
  await db
    .insert(webhookDigestCursors)
    .values({ organizationId, eventType, lastHour })
    .onConflictDoUpdate({
      target: [webhookDigestCursors.organizationId, webhookDigestCursors.eventType],
      set: {
        lastHour: sql`greatest(${webhookDigestCursors.lastHour}, excluded.last_hour)`,
        updatedAt: sql`now()`,
      },
    })
}
