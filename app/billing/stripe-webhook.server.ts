// Stripe's webhook endpoint (ADR 051): the body is checked against the Stripe-Signature header
// with the endpoint's secret before anything is read from it (a signature dated ahead of the clock
// beyond Stripe's tolerance refused too, ADR 055); a verified event of ours is stored
// under its Stripe id (a replay conflicts and is ignored) together with the job that applies it,
// in one transaction, and Stripe gets its 2xx at once. Plans change only in that job.
import type Stripe from 'stripe'
import { insertJob } from '#app/models/jobs.server'
import { insertStripeEvent } from '#app/models/stripe-events.server'
import { isRowId } from '#app/models/teams.server'
import { freshTenantOf } from '#app/tenancy/tenant.server'
import { withTenant } from '#drizzle/db.server'
import { stripeClient, stripeConfig } from './stripe-config.server'

export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const
export type HandledEventType = (typeof HANDLED_EVENTS)[number]

/**
 * What the jobs read of an event: the tenant our checkout put in its metadata, and Stripe's ids.
 * The account is the one of the event's customer (ADR 055), not a person named in the metadata;
 * the subscription's state is read from Stripe when the event is applied, not from the event.
 */
export type StripeEventData = {
  organizationId: string
  plan: string
  customer: string
  subscription: string
}
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? '')

/** The parts of a handled event the jobs need, or null for an event that is not ours. */
export function eventData(event: Stripe.Event): StripeEventData | null {
  let metadata: Record<string, string> | null | undefined
  const fields = { customer: '', subscription: '' }
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      if (session.mode !== 'subscription' || session.payment_status === 'unpaid') return null
      metadata = session.metadata
      fields.customer = idOf(session.customer)
      fields.subscription = idOf(session.subscription)
      break
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object
      const details = invoice.parent?.subscription_details
      metadata = details?.metadata
      fields.customer = idOf(invoice.customer)
      fields.subscription = idOf(details?.subscription)
      break
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object
      metadata = subscription.metadata
      fields.customer = idOf(subscription.customer)
      fields.subscription = subscription.id
      break
    }
    default:
      return null
  }
  const organizationId = metadata?.organizationId ?? ''
  if (!isRowId(organizationId) || !fields.customer || !fields.subscription) return null
  return { organizationId, plan: metadata?.plan ?? '', ...fields }
}

/**
 * Stripe's scheme refuses a signature older than its tolerance but not one dated ahead of the
 * clock: a header signed for a time to come would stay good for as long as that. Refused too
 * beyond the same tolerance (a little drift between the clocks is allowed).
 */
export function signedInTheFuture(header: string, now = Date.now()) {
  const timestamp = /(?:^|,)t=(\d+)(?:,|$)/.exec(header)?.[1]
  return !timestamp || Number(timestamp) - Math.floor(now / 1000) > SIGNATURE_TOLERANCE_S
}

/** Stripe's own default tolerance for a signature's age, in seconds (five minutes). */
export const SIGNATURE_TOLERANCE_S = 300

const text = (body: string, status: number) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
  })

export async function receiveStripeWebhook(request: Request) {
  const config = stripeConfig()
  if (!config) return text('Stripe is not configured', 404)
  const signature = request.headers.get('stripe-signature')
  const payload = await request.text()
  const stripe = await stripeClient(config)
  let event: Stripe.Event
  try {
    if (!signature) throw new Error('no signature')
    event = stripe.webhooks.constructEvent(
      payload,
      signature,
      config.webhookSecret,
      SIGNATURE_TOLERANCE_S,
    )
    if (signedInTheFuture(signature)) throw new Error('signed in the future')
  } catch {
    // Nothing of an unverified body is read or kept.
    return text('Invalid signature', 400)
  }
  const data = eventData(event)
  if (!data) return text('Ignored', 200)
  // An agency deleted since its checkout: there is nobody left to change.
  const tenant = await freshTenantOf(data.organizationId)
  if (!tenant) return text('Ignored', 200)
  const stored = await withTenant(tenant.id, async (tx) => {
    const fresh = await insertStripeEvent(tx, tenant.id, {
      id: event.id,
      type: event.type,
      data,
      occurredAt: new Date(event.created * 1000),
    })
    if (fresh) {
      await insertJob(tx, {
        name: 'billing.stripe-event',
        organizationId: tenant.id,
        payload: { eventId: event.id },
        idempotencyKey: `billing.stripe-event:${event.id}`,
        maxAttempts: 10,
      })
    }
    return fresh
  })
  return text(stored ? 'Queued' : 'Already received', 200)
}
