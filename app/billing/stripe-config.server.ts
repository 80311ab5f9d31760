// Stripe from configuration (ADR 051): one client per process, pointed at STRIPE_API_URL (a local
// fake in tests). Without the key, the webhook secret and both team prices, online payment is off
// and paid plans are granted by admins (ADR 030); Agency Pro and Team Member Basic are sold online
// only when their own price is set too. The package is loaded on first use: it is large,
// and every module that reaches the team page would otherwise load it (tests included).
import type Stripe from 'stripe'
import { getEnv } from '#app/env.server'
import type { SoldPlanId } from './plan-limits'

export type StripeConfig = {
  secretKey: string
  apiUrl: string
  webhookSecret: string
  /** Team Basic and Pro always; Agency Pro and Team Member Basic when their price is set. */
  prices: Partial<Record<SoldPlanId, string>>
}

let cached: { key: string; config: StripeConfig | null } | undefined

export function stripeConfig(): StripeConfig | null {
  const env = getEnv()
  const key = [
    env.STRIPE_SECRET_KEY,
    env.STRIPE_WEBHOOK_SECRET,
    env.STRIPE_PRICE_TEAM_BASIC,
    env.STRIPE_PRICE_TEAM_PRO,
    env.STRIPE_PRICE_AGENCY_PRO,
    env.STRIPE_PRICE_TEAM_MEMBER_BASIC,
    env.STRIPE_API_URL,
  ].join('\n')
  if (cached?.key === key) return cached.config
  const config =
    env.STRIPE_SECRET_KEY &&
    env.STRIPE_WEBHOOK_SECRET &&
    env.STRIPE_PRICE_TEAM_BASIC &&
    env.STRIPE_PRICE_TEAM_PRO
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          apiUrl: env.STRIPE_API_URL,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          prices: {
            team_basic: env.STRIPE_PRICE_TEAM_BASIC,
            team_pro: env.STRIPE_PRICE_TEAM_PRO,
            ...(env.STRIPE_PRICE_AGENCY_PRO ? { agency_pro: env.STRIPE_PRICE_AGENCY_PRO } : {}),
            ...(env.STRIPE_PRICE_TEAM_MEMBER_BASIC
              ? { team_member_basic: env.STRIPE_PRICE_TEAM_MEMBER_BASIC }
              : {}),
          },
        }
      : null
  cached = { key, config }
  return config
}

let client: { key: string; stripe: Promise<Stripe> } | undefined

/** The client for this configuration, made once (again only when the configuration changes). */
export function stripeClient(config: StripeConfig): Promise<Stripe> {
  const key = `${config.secretKey}\n${config.apiUrl}`
  if (client?.key !== key) client = { key, stripe: makeClient(config.secretKey, config.apiUrl) }
  return client.stripe
}

async function makeClient(secretKey: string, apiUrl: string) {
  const { default: StripeClient } = await import('stripe')
  const url = new URL(apiUrl)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return new StripeClient(secretKey, {
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
  for (const [plan, id] of Object.entries(config.prices) as [SoldPlanId, string][]) {
    if (id === priceId) return plan
  }
  return null
}

/** Whether this plan is sold through Stripe here (configured, and its price set). */
export function sellsOnline(plan: SoldPlanId) {
  return Boolean(stripeConfig()?.prices[plan])
}
