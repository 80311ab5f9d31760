// An agency's webhook endpoints (issue 43 point 3, ADR 093): created, edited, deleted, turned on
// again, their secret rotated, a delivery resent. Plain functions of an organization and the
// acting user (an admin on the screen; the REST API names its key's creator or none), taking the
// zod schema's output, so the admin screen and the API share every rule and refusal.
import { randomBytes } from 'node:crypto'
import { recordOrganizationAudit } from '#app/models/audit.server'
import {
  countWebhookDeliveries,
  deleteWebhookEndpoint,
  findWebhookDelivery,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookAttempts,
  listWebhookDeliveries,
  listWebhookEndpoints,
  updateWebhookDelivery,
  updateWebhookEndpoint,
  type WebhookEndpoint,
} from '#app/models/webhooks.server'
import { Refusal } from '#app/utils/action-error'
import { sealAtRest } from '#app/utils/secret-box.server'
import {
  WEBHOOK_SECRET_PREFIX,
  type WebhookEndpointInput,
  type WebhookEventType,
} from '#app/validation/webhooks'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { webhookTargetRefusal } from './webhook-delivery.server'
import { queueDeliveryAttempt } from './webhook-events.server'

/** Who acts: the organization, and the user when a person does (null for an API key's call). */
export type WebhookActor = { organizationId: string; userId: string | null }

export const ENDPOINT_NOT_FOUND = 'This endpoint no longer exists'
export const DELIVERY_NOT_FOUND = 'This delivery no longer exists'
export const ENDPOINT_DISABLED = 'Turn the endpoint on again before resending to it'

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (the spec's 24 to 64). */
export function newWebhookSecret() {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

function assertTarget(url: string) {
  const refusal = webhookTargetRefusal(url)
  if (refusal) throw new Refusal('invalid', refusal, { field: 'url' })
}

/** How an endpoint is shown (screen and API): never its secret, its host for the e-mails. */
export function describeEndpoint(row: WebhookEndpoint, now = new Date()) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as WebhookEventType[],
    enabled: row.disabledAt === null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    previousSecretUntil:
      row.previousSecretUntil && row.previousSecretUntil > now
        ? row.previousSecretUntil.toISOString()
        : null,
    createdAt: row.createdAt.toISOString(),
  }
}
export type WebhookEndpointView = ReturnType<typeof describeEndpoint>

export function listEndpoints(actor: WebhookActor) {
  return withTenant(actor.organizationId, (tx) => listEndpointsIn(tx, actor.organizationId))
}

/** The same in a transaction the caller holds (the REST API's, inside the key's agency). */
export async function listEndpointsIn(tx: Transaction, organizationId: string) {
  return (await listWebhookEndpoints(tx, organizationId)).map((row) => describeEndpoint(row))
}

export async function readEndpointIn(tx: Transaction, organizationId: string, endpointId: string) {
  const row = await findWebhookEndpoint(tx, organizationId, endpointId)
  if (!row) throw new Refusal('not_found', ENDPOINT_NOT_FOUND)
  return describeEndpoint(row)
}

/** A new endpoint; its secret is returned once, for the screen (or the API's answer) to show. */
export function createEndpoint(actor: WebhookActor, input: WebhookEndpointInput) {
  return withTenant(actor.organizationId, (tx) => createEndpointIn(tx, actor, input))
}

export async function createEndpointIn(
  tx: Transaction,
  actor: WebhookActor,
  input: WebhookEndpointInput,
) {
  assertTarget(input.url)
  const secret = newWebhookSecret()
  const row = await insertWebhookEndpoint(tx, actor.organizationId, {
    url: input.url,
    description: input.description,
    eventTypes: input.eventTypes,
    secretSealed: sealAtRest(secret),
    createdByUserId: actor.userId,
  })
  // The host only: a URL's path or query may carry the receiver's token.
  await recordOrganizationAudit(tx, actor.organizationId, actor.userId, 'webhook.created', {
    endpointId: row.id,
    host: new URL(row.url).host,
    eventTypes: row.eventTypes,
  })
  return { endpoint: describeEndpoint(row), secret }
}

export async function editEndpoint(
  actor: WebhookActor,
  endpointId: string,
  input: WebhookEndpointInput,
) {
  return withTenant(actor.organizationId, (tx) => editEndpointIn(tx, actor, endpointId, input))
}

export async function editEndpointIn(
  tx: Transaction,
  actor: WebhookActor,
  endpointId: string,
  input: WebhookEndpointInput,
) {
  assertTarget(input.url)
  const row = await updateWebhookEndpoint(tx, actor.organizationId, endpointId, {
    url: input.url,
    description: input.description,
    eventTypes: input.eventTypes,
  })
  if (!row) throw new Refusal('not_found', ENDPOINT_NOT_FOUND)
  await recordOrganizationAudit(tx, actor.organizationId, actor.userId, 'webhook.updated', {
    endpointId: row.id,
    host: new URL(row.url).host,
    eventTypes: row.eventTypes,
  })
  return describeEndpoint(row)
}

/** Deleted with its deliveries and their log. */
export async function deleteEndpoint(actor: WebhookActor, endpointId: string) {
  await withTenant(actor.organizationId, (tx) => deleteEndpointIn(tx, actor, endpointId))
  return 'Endpoint deleted'
}

export async function deleteEndpointIn(tx: Transaction, actor: WebhookActor, endpointId: string) {
  const row = await deleteWebhookEndpoint(tx, actor.organizationId, endpointId)
  if (!row) throw new Refusal('not_found', ENDPOINT_NOT_FOUND)
  await recordOrganizationAudit(tx, actor.organizationId, actor.userId, 'webhook.deleted', {
    endpointId: row.id,
    host: URL.canParse(row.url) ? new URL(row.url).host : null,
  })
}

/** A disabled endpoint on again: its failures forgotten; what it missed is resent by hand. */
export async function enableEndpoint(actor: WebhookActor, endpointId: string) {
  await withTenant(actor.organizationId, async (tx) => {
    const row = await updateWebhookEndpoint(tx, actor.organizationId, endpointId, {
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    })
    if (!row) throw new Refusal('not_found', ENDPOINT_NOT_FOUND)
    await recordOrganizationAudit(tx, actor.organizationId, actor.userId, 'webhook.enabled', {
      endpointId: row.id,
    })
  })
  return 'Endpoint turned on'
}

/**
 * A new secret; the old one keeps signing beside it for `overlapHours` (0: it stops now), so the
 * receiver can switch over without refusing a message. The new secret is returned once.
 */
export async function rotateEndpointSecret(
  actor: WebhookActor,
  endpointId: string,
  overlapHours: number,
) {
  const secret = newWebhookSecret()
  return withTenant(actor.organizationId, async (tx) => {
    const old = await findWebhookEndpoint(tx, actor.organizationId, endpointId)
    if (!old) throw new Refusal('not_found', ENDPOINT_NOT_FOUND)
    const until = new Date(Date.now() + overlapHours * 3_600_000)
    await updateWebhookEndpoint(tx, actor.organizationId, endpointId, {
      secretSealed: sealAtRest(secret),
      previousSecretSealed: overlapHours > 0 ? old.secretSealed : null,
      previousSecretUntil: overlapHours > 0 ? until : null,
    })
    await recordOrganizationAudit(
      tx,
      actor.organizationId,
      actor.userId,
      'webhook.secret_rotated',
      {
        endpointId,
        overlapHours,
      },
    )
    return { secret, endpointId }
  })
}

/** "Resend": one more attempt now (and its retries while the message is under three days old). */
export async function resendDelivery(actor: WebhookActor, deliveryId: string) {
  await withTenant(actor.organizationId, async (tx) => {
    const found = await findWebhookDelivery(tx, actor.organizationId, deliveryId)
    if (!found) throw new Refusal('not_found', DELIVERY_NOT_FOUND)
    if (found.endpoint.disabledAt) throw new Refusal('invalid', ENDPOINT_DISABLED)
    const now = new Date()
    await updateWebhookDelivery(tx, actor.organizationId, deliveryId, {
      status: 'pending',
      nextAttemptAt: now,
    })
    await queueDeliveryAttempt(tx, actor.organizationId, deliveryId, {
      attempt: 'resend',
      key: `resend:${now.getTime()}:${randomBytes(4).toString('hex')}`,
    })
    await recordOrganizationAudit(tx, actor.organizationId, actor.userId, 'webhook.resent', {
      deliveryId,
      endpointId: found.endpoint.id,
    })
  })
  return 'Delivery queued again'
}

/** The delivery log: a page of deliveries, newest first, each with its attempts. */
export async function readDeliveryLog(
  actor: WebhookActor,
  query: { endpointId?: string; limit: number; offset: number },
) {
  const { organizationId } = actor
  return withTenant(organizationId, async (tx) => {
    const total = await countWebhookDeliveries(tx, organizationId, query.endpointId)
    const deliveries = await listWebhookDeliveries(tx, organizationId, query)
    const attempts = await listWebhookAttempts(
      tx,
      organizationId,
      deliveries.map((delivery) => delivery.id),
    )
    return {
      total,
      deliveries: deliveries.map((delivery) => ({
        id: delivery.id,
        endpointId: delivery.endpointId,
        eventType: delivery.eventType,
        status: delivery.status,
        createdAt: delivery.createdAt.toISOString(),
        nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
        attempts: attempts
          .filter((attempt) => attempt.deliveryId === delivery.id)
          .map((attempt) => ({
            id: attempt.id,
            at: attempt.attemptedAt.toISOString(),
            durationMs: attempt.durationMs,
            statusCode: attempt.statusCode,
            responseBytes: attempt.responseBytes,
            error: attempt.error,
            manual: attempt.manual,
          })),
      })),
    }
  })
}
