// Webhook events are written where their fact happens, in the fact's own transaction (a
// transactional outbox, ADR 093): a lead that rolls back sends nothing, and one that commits is
// delivered even if the process dies a moment later. Only an agency with an endpoint subscribed
// to the type stores anything; each subscribed endpoint gets a delivery and a queued job.
import { insertJob } from '#app/models/jobs.server'
import {
  DELIVERY_JOB,
  deliveryJobKey,
  insertContactDeletedEvents,
  insertWebhookDelivery,
  insertWebhookMessage,
  listSubscribedWebhookEndpoints,
  redactWebhookMessagesAbout,
  redactWebhookMessagesAboutContactsOf,
} from '#app/models/webhooks.server'
import { type ContactPerson, contactPerson } from '#app/validation/contact-fields'
import type { WebhookEventType } from '#app/validation/webhooks'
import type { Queryable } from '#drizzle/db.server'

/** A new job for a delivery's next attempt (the first, a retry, or an admin's "Resend"). */
export async function queueDeliveryAttempt(
  db: Queryable,
  organizationId: string,
  deliveryId: string,
  options: { attempt: number | 'resend'; runAt?: Date; key?: string },
) {
  await insertJob(db, {
    name: DELIVERY_JOB.name,
    organizationId,
    payload: { deliveryId, attempt: String(options.attempt) },
    idempotencyKey: deliveryJobKey(deliveryId, options.key ?? options.attempt),
    runAt: options.runAt,
    maxAttempts: DELIVERY_JOB.maxAttempts,
  })
}

/**
 * Records an event for the agency's endpoints subscribed to its type, in the caller's
 * transaction. `dedupeKey` makes a second event with the same key a no-op (the hourly digest).
 * Returns how many deliveries were queued.
 */
export async function emitWebhookEvent(
  db: Queryable,
  organizationId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  options: { dedupeKey?: string; at?: Date } = {},
) {
  const endpoints = await listSubscribedWebhookEndpoints(db, organizationId, type)
  if (endpoints.length === 0) return 0
  const at = options.at ?? new Date()
  const message = await insertWebhookMessage(db, organizationId, {
    eventType: type,
    // The Standard Webhooks payload shape: type, timestamp, data.
    payload: { type, timestamp: at.toISOString(), data },
    dedupeKey: options.dedupeKey,
  })
  if (!message) return 0
  for (const endpoint of endpoints) {
    const delivery = await insertWebhookDelivery(db, organizationId, {
      endpointId: endpoint.id,
      messageId: message.id,
      nextAttemptAt: at,
    })
    await queueDeliveryAttempt(db, organizationId, delivery.id, { attempt: 1 })
  }
  return endpoints.length
}

const iso = (value: Date | null | undefined) => value?.toISOString() ?? null

/** What `contact.created` and `lead.created` carry of a contact: what its owner's list shows. */
export function contactEventData(
  contact: ContactPerson & {
    id: string
    userId: string
    source: string
    sourceCardId: string | null
    consentGivenAt: Date | null
    consentPage: string | null
    createdAt: Date
  },
) {
  return {
    id: contact.id,
    ownerId: contact.userId,
    cardId: contact.sourceCardId,
    source: contact.source,
    ...contactPerson(contact),
    consent: contact.consentGivenAt
      ? { givenAt: iso(contact.consentGivenAt), page: contact.consentPage }
      : null,
    createdAt: iso(contact.createdAt),
  }
}

/**
 * A new contact's events: `contact.created` for every one, and `lead.created` besides for one a
 * visitor left on a card's lead form. Called by addContactAndForward, the one place every new
 * contact passes.
 */
export async function emitContactCreated(
  db: Queryable,
  organizationId: string,
  contact: Parameters<typeof contactEventData>[0],
) {
  const data = contactEventData(contact)
  await emitWebhookEvent(db, organizationId, 'contact.created', data)
  if (contact.source === 'lead') await emitWebhookEvent(db, organizationId, 'lead.created', data)
}

/** Why a contact went: its lead asked, the API deleted it, or its owner's account was deleted. */
export type ContactDeletedReason = 'lead_request' | 'api' | 'account_deleted'

/**
 * `contact.deleted`: which contact of whose list went, and why; the contact's earlier messages
 * are emptied of the person in the same transaction (a lead who deletes their data leaves
 * nothing of theirs in a delivery still to come).
 */
export async function emitContactDeleted(
  db: Queryable,
  organizationId: string,
  contact: { id: string; userId: string },
  reason: ContactDeletedReason,
) {
  await redactWebhookMessagesAbout(db, organizationId, contact.id)
  await emitWebhookEvent(db, organizationId, 'contact.deleted', {
    id: contact.id,
    ownerId: contact.userId,
    reason,
    deletedAt: new Date().toISOString(),
  })
}

/**
 * `contact.deleted` (reason `account_deleted`) for every contact an account takes with it when
 * it is deleted (ADR 053: by cascade, after the seat's hand-over moved the company's contacts),
 * called just before the delete, in its transaction; their earlier messages are emptied of the
 * people as emitContactDeleted's are. Set-based: an account may hold thousands of contacts.
 */
export async function emitContactsDeletedWithAccount(
  db: Queryable,
  organizationId: string,
  userId: string,
  at = new Date(),
) {
  await redactWebhookMessagesAboutContactsOf(db, organizationId, userId)
  return insertContactDeletedEvents(db, organizationId, userId, { reason: 'account_deleted', at })
}

/** `card.updated`: which card of whose changed, and when; the card itself is read over the API. */
export async function emitCardUpdated(
  db: Queryable,
  organizationId: string,
  card: { id: string; userId: string; updatedAt: Date },
) {
  await emitWebhookEvent(db, organizationId, 'card.updated', {
    id: card.id,
    ownerId: card.userId,
    updatedAt: iso(card.updatedAt),
  })
}

/** `user.deactivated`, by an admin or by the directory (SCIM). */
export async function emitUserDeactivated(
  db: Queryable,
  organizationId: string,
  user: { id: string; email: string; firstName: string; lastName: string },
  by: 'admin' | 'directory',
) {
  await emitWebhookEvent(db, organizationId, 'user.deactivated', {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    by,
    deactivatedAt: new Date().toISOString(),
  })
}
