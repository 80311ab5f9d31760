// Stripe's webhook endpoint (ADR 051): no session, no tenant host; the signature is the only
// credential (app/billing/stripe-webhook.server.ts). Exempt from the Origin check (app/auth/origin.ts).
import type { ActionFunctionArgs } from '@remix-run/node'
import { receiveStripeWebhook } from '#app/billing/stripe-webhook.server'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405 })
  return receiveStripeWebhook(request)
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}
