// Buying a team plan and managing it (ADR 051): the upgrade creates a Stripe Checkout Session for
// the plan's price and sends the browser to it; the plan itself changes only when the signed
// webhook says the checkout completed. The card, invoices and cancellation live in Stripe's
// customer portal, opened from the billing section.
import type Stripe from 'stripe'
import {
  type BillingHolder,
  findAgencyBillingAccount,
  findBillingAccount,
  saveBillingCustomer,
} from '#app/models/billing-accounts.server'
import type { User } from '#app/models/users.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import { callOutside } from '#app/utils/outside-call.server'
import { PLANS } from '#app/validation/plans'
import { PLANS_VIEW_PATH } from '#app/validation/team-paths'
import { withTenant } from '#drizzle/db.server'
import type { BillingSummary } from './billing-summary'
import { SOLD_PLAN_NAMES, type SoldPlanId } from './plan-limits'
import { type StripeConfig, stripeClient, stripeConfig } from './stripe-config.server'

export type { BillingSummary }

export const STRIPE_UNREACHABLE =
  'Payment could not be started: Stripe did not answer. Please try again.'
export const NO_BILLING_ACCOUNT = 'There is no billing account yet: choose a plan first.'

function requireStripe() {
  const config = stripeConfig()
  if (!config) throw new Refusal('not_found', NO_BILLING_ACCOUNT)
  return config
}

// The SDK takes no signal: its own 10 s socket timeout is per attempt and idle-based, so the
// whole call (its retry included) is bounded by the outside-call deadline, cancelled at shutdown.
async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await callOutside('Stripe', call)
  } catch (error) {
    if (isRefusal(error)) throw error
    throw new Refusal('provider_failed', STRIPE_UNREACHABLE, { field: 'plan' })
  }
}

/**
 * Whose billing a screen shows (ADR 055): a seat's own (team plans, Team Member Basic: the
 * signed-in account's own plan), or the agency's (Agency Pro: the organization's account, shared
 * by its admins and kept whoever of them leaves), and the page Stripe sends the browser back to.
 */
export type BillingScope = { payer: 'own' | 'agency'; returnPath: string }

const TEAM_PAGE_SCOPE: BillingScope = { payer: 'own', returnPath: PLANS_VIEW_PATH }

const holderOf = (user: User, scope: BillingScope): BillingHolder =>
  scope.payer === 'agency' ? { organization: true } : { seatUserId: user.id }

const billingPage = (tenant: Tenant, scope: BillingScope) => {
  const url = `${tenantOrigin(tenant)}${scope.returnPath}`
  return `${url}${url.includes('?') ? '&' : '?'}`
}

function findPayerAccount(tenant: Tenant, user: User, scope: BillingScope) {
  return withTenant(tenant.id, (tx) =>
    scope.payer === 'agency'
      ? findAgencyBillingAccount(tx, tenant.id)
      : findBillingAccount(tx, tenant.id, user.id),
  )
}

/**
 * Where the upgrade sends the browser: Stripe Checkout for the plan, or, for an account that
 * already pays for a subscription, the customer portal, where Stripe changes its plan.
 */
export async function checkoutUrl(
  tenant: Tenant,
  user: User,
  plan: SoldPlanId,
  scope: BillingScope = TEAM_PAGE_SCOPE,
) {
  const config = requireStripe()
  const price = config.prices[plan]
  if (!price) throw new Refusal('not_found', NO_BILLING_ACCOUNT)
  const payer = await findPayerAccount(tenant, user, scope)
  if (payer?.stripeSubscriptionId && payer.status !== 'canceled') {
    return portalUrl(tenant, user, scope)
  }
  // The holder's customer (made once, reused by every later purchase): Stripe's events name it,
  // and it is how they find the account, whoever clicked.
  const holder = holderOf(user, scope)
  const customer = payer?.stripeCustomerId ?? (await createCustomer(config, tenant, user, holder))
  const metadata: Record<string, string> =
    'seatUserId' in holder
      ? { organizationId: tenant.id, payer: 'seat', userId: user.id, plan }
      : { organizationId: tenant.id, payer: 'organization', plan }
  const stripe = await stripeClient(config)
  const session = await stripeCall(() =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: 'seatUserId' in holder ? user.id : tenant.id,
      line_items: [{ price, quantity: 1 }],
      metadata,
      subscription_data: { metadata, description: SOLD_PLAN_NAMES[plan] },
      success_url: `${billingPage(tenant, scope)}checkout=success`,
      cancel_url: `${billingPage(tenant, scope)}checkout=cancelled`,
    }),
  )
  if (!session.url) throw new Refusal('provider_failed', STRIPE_UNREACHABLE, { field: 'plan' })
  return session.url
}

async function createCustomer(
  config: StripeConfig,
  tenant: Tenant,
  user: User,
  holder: BillingHolder,
) {
  const stripe = await stripeClient(config)
  // The agency's customer carries the agency's name; its receipts go to the admin who bought it
  // until an admin changes the address in the portal.
  const customer = await stripeCall(() =>
    stripe.customers.create({
      email: user.email,
      name:
        'seatUserId' in holder
          ? `${user.firstName} ${user.lastName}`.trim() || undefined
          : tenant.name,
      metadata:
        'seatUserId' in holder
          ? { organizationId: tenant.id, payer: 'seat', userId: user.id }
          : { organizationId: tenant.id, payer: 'organization' },
    }),
  )
  // Two checkouts at once: the first customer kept wins and the second is left unused.
  const saved = await withTenant(tenant.id, (tx) =>
    saveBillingCustomer(tx, tenant.id, holder, customer.id),
  )
  return saved?.stripeCustomerId ?? customer.id
}

/** Stripe's customer portal for the account: its card, invoices, plan and cancellation. */
export async function portalUrl(tenant: Tenant, user: User, scope: BillingScope = TEAM_PAGE_SCOPE) {
  const config = requireStripe()
  const account = await findPayerAccount(tenant, user, scope)
  if (!account) throw new Refusal('not_found', NO_BILLING_ACCOUNT)
  const stripe = await stripeClient(config)
  const session = await stripeCall(() =>
    stripe.billingPortal.sessions.create({
      customer: account.stripeCustomerId,
      return_url: billingPage(tenant, scope).slice(0, -1),
    }),
  )
  return session.url
}

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  )

/** The billing section's plan, masked card and invoices; null while Stripe is not configured. */
export async function loadBillingSummary(
  tenant: Tenant,
  user: User,
  scope: BillingScope & { planName: string } = {
    ...TEAM_PAGE_SCOPE,
    planName: PLANS[user.plan].name,
  },
): Promise<BillingSummary | null> {
  const config = stripeConfig()
  if (!config) return null
  const account = await findPayerAccount(tenant, user, scope)
  const summary: BillingSummary = {
    plan: scope.planName,
    status: account?.stripeSubscriptionId ? account.status : null,
    graceEndsAt: account?.graceEndsAt?.toISOString() ?? null,
    card: null,
    invoices: [],
    unavailable: false,
  }
  if (!account) return summary
  try {
    const stripe = await stripeClient(config)
    const [cards, invoices] = await stripeCall(() =>
      Promise.all([
        stripe.customers.listPaymentMethods(account.stripeCustomerId, {
          type: 'card',
          limit: 1,
        }),
        stripe.invoices.list({ customer: account.stripeCustomerId, limit: 12 }),
      ]),
    )
    summary.card = maskedCard(cards.data[0])
    summary.invoices = invoices.data.map((invoice) => ({
      id: invoice.id ?? '',
      number: invoice.number ?? invoice.id ?? '',
      date: new Date(invoice.created * 1000).toISOString(),
      amount: money(invoice.amount_due, invoice.currency),
      status: invoice.status ?? 'draft',
      url: invoice.hosted_invoice_url ?? null,
    }))
  } catch {
    summary.unavailable = true
  }
  return summary
}

function maskedCard(method: Stripe.PaymentMethod | undefined) {
  const card = method?.card
  if (!card) return null
  return {
    brand: card.brand,
    last4: card.last4,
    expires: `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}`,
  }
}
