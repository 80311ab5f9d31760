// Stripe from configuration (ADR 051): one client per process, pointed at STRIPE_API_URL (a local
// fake in tests). Without the key, the webhook secret and both prices, online payment is off and
// paid plans are granted by admins (ADR 030).
import Stripe from 'stripe'
import { getEnv } from '#app/env.server'
import type { PaidPlanId } from '#app/teams/plans'

export type StripeConfig = {
  client: Stripe
  webhookSecret: string
  prices: Record<PaidPlanId, string>
}

let cached: { key: string; config: StripeConfig | null } | undefined

export function stripeConfig(): StripeConfig | null {
  const env = getEnv()
  const key = [
    env.STRIPE_SECRET_KEY,
    env.STRIPE_WEBHOOK_SECRET,
    env.STRIPE_PRICE_TEAM_BASIC,
    env.STRIPE_PRICE_TEAM_PRO,
    env.STRIPE_API_URL,
  ].join('\n')
  if (cached?.key === key) return cached.config
  const config =
    env.STRIPE_SECRET_KEY &&
    env.STRIPE_WEBHOOK_SECRET &&
    env.STRIPE_PRICE_TEAM_BASIC &&
    env.STRIPE_PRICE_TEAM_PRO
      ? {
          client: makeClient(env.STRIPE_SECRET_KEY, env.STRIPE_API_URL),
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          prices: { team_basic: env.STRIPE_PRICE_TEAM_BASIC, team_pro: env.STRIPE_PRICE_TEAM_PRO },
        }
      : null
  cached = { key, config }
  return config
}

function makeClient(secretKey: string, apiUrl: string) {
  const url = new URL(apiUrl)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    // A page waiting on Stripe gives up within this; the webhook jobs retry on their own.
    timeout: 10_000,
    maxNetworkRetries: 1,
    appInfo: { name: 'Brandcard' },
  })
}

/** The plan a Stripe price sells, or null for a price this deployment does not know. */
export function planOfPrice(config: StripeConfig, priceId: string | null | undefined) {
  for (const [plan, id] of Object.entries(config.prices) as [PaidPlanId, string][]) {
    if (id === priceId) return plan
  }
  return null
}
