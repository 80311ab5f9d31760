// The webhook's stored events applied to the account, each once (ADR 051): the job takes the
// event only while it is unhandled and marks it handled in the transaction that changes the
// plan. A failed payment keeps the plan for GRACE_PERIOD_MS and queues the job that ends it.
import { RateLimitedError } from '#app/auth/rate-limit.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { type JobHandler, PermanentJobError, wakeJobWorker } from '#app/jobs/worker.server'
import { recordAudit } from '#app/models/audit.server'
import {
  type BillingAccount,
  findBillingAccount,
  saveBillingSubscription,
} from '#app/models/billing-accounts.server'
import { insertJob } from '#app/models/jobs.server'
import { findUnhandledStripeEvent, markStripeEventHandled } from '#app/models/stripe-events.server'
import { findUserById, setUserPlan, type User } from '#app/models/users.server'
import { paymentFailedEmail, planLapsedEmail } from '#app/services/emails/billing-email.server'
import { tenantEmailBranding } from '#app/services/emails/layout.server'
import { PAID_PLAN_IDS, type PaidPlanId, PLANS, type PlanId } from '#app/teams/plans'
import { PLANS_VIEW_PATH } from '#app/teams/team-paths'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { planOfPrice, stripeConfig } from './stripe-config.server'
import type { HandledEventType, StripeEventData } from './stripe-webhook.server'

/** How long a plan whose payment failed is kept before the account falls back to Free. */
export const GRACE_PERIOD_MS = 7 * 24 * 60 * 60_000

const isPaidPlan = (plan: string): plan is PaidPlanId =>
  (PAID_PLAN_IDS as readonly string[]).includes(plan)

type Notice =
  | { kind: 'failed'; graceEndsAt: Date; plan: PaidPlanId }
  | { kind: 'lapsed'; plan: PlanId }

export const stripeEventJob: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const eventId = job.payload.eventId
    if (!organizationId || !eventId) throw new PermanentJobError('malformed payload')
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const notice = await withTenant(organizationId, async (tx) => {
      const event = await findUnhandledStripeEvent(tx, organizationId, eventId)
      // Handled before (a job run again after its commit): nothing to do twice.
      if (!event) return null
      await markStripeEventHandled(tx, organizationId, eventId)
      const data = event.data as StripeEventData
      const user = await findUserById(tx, organizationId, data.userId)
      if (!user) return null
      return applyEvent(tx, tenant, user, event.type as HandledEventType, data, event.occurredAt)
    })
    if (notice) await sendNotice(tenant, organizationId, notice, eventId)
  },
}

async function applyEvent(
  tx: Transaction,
  tenant: Tenant,
  user: User,
  type: HandledEventType,
  data: StripeEventData,
  occurredAt: Date,
): Promise<(Notice & { user: User }) | null> {
  const account = await findBillingAccount(tx, tenant.id, user.id)
  // An event of a subscription this account no longer has (replaced by a newer checkout).
  const stale =
    type !== 'checkout.session.completed' &&
    (!account || account.stripeSubscriptionId !== data.subscription)
  if (stale) return null
  switch (type) {
    case 'checkout.session.completed': {
      if (!isPaidPlan(data.plan)) throw new PermanentJobError(`unknown plan ${data.plan}`)
      await save(tx, tenant.id, user.id, data, {
        plan: data.plan,
        status: 'active',
        graceEndsAt: null,
      })
      await grant(tx, tenant.id, user, data.plan, 'plan.upgraded', data.subscription)
      return null
    }
    case 'invoice.paid': {
      if (!account) return null
      await save(tx, tenant.id, user.id, data, {
        plan: account.plan,
        status: 'active',
        graceEndsAt: null,
      })
      // A payment after the grace period ended gives the plan back.
      await grant(tx, tenant.id, user, account.plan, 'plan.payment_recovered', data.subscription)
      return null
    }
    case 'invoice.payment_failed': {
      if (!account || account.status === 'canceled' || !isPaidPlan(account.plan)) return null
      // Stripe's retries fail again within the grace period: the first failure's end stands.
      const graceEndsAt =
        account.status === 'past_due' && account.graceEndsAt
          ? account.graceEndsAt
          : new Date(occurredAt.getTime() + GRACE_PERIOD_MS)
      await save(tx, tenant.id, user.id, data, {
        plan: account.plan,
        status: 'past_due',
        graceEndsAt,
      })
      await insertJob(tx, {
        name: 'billing.grace-end',
        organizationId: tenant.id,
        payload: { userId: user.id },
        idempotencyKey: `billing.grace-end:${account.id}:${graceEndsAt.toISOString()}`,
        runAt: graceEndsAt,
      })
      await audit(tx, tenant.id, user, 'plan.payment_failed', {
        plan: account.plan,
        graceEndsAt: graceEndsAt.toISOString(),
      })
      return { kind: 'failed', graceEndsAt, plan: account.plan, user }
    }
    case 'customer.subscription.updated': {
      if (!account) return null
      if (data.status === 'canceled' || data.status === 'unpaid') {
        return cancel(tx, tenant.id, user, data)
      }
      const config = stripeConfig()
      const plan = (config && planOfPrice(config, data.priceId)) ?? account.plan
      await save(tx, tenant.id, user.id, data, {
        plan,
        status: account.status,
        graceEndsAt: account.graceEndsAt,
      })
      // A plan changed in the portal; a lapsed account keeps Free until it pays.
      if (account.status === 'active') {
        await grant(tx, tenant.id, user, plan, 'plan.changed', data.subscription)
      }
      return null
    }
    case 'customer.subscription.deleted':
      if (!account) return null
      return cancel(tx, tenant.id, user, data)
  }
}

async function cancel(tx: Transaction, organizationId: string, user: User, data: StripeEventData) {
  await save(tx, organizationId, user.id, data, {
    plan: 'free',
    status: 'canceled',
    graceEndsAt: null,
  })
  await grant(tx, organizationId, user, 'free', 'plan.cancelled', data.subscription)
  return null
}

function save(
  tx: Transaction,
  organizationId: string,
  userId: string,
  data: StripeEventData,
  state: Pick<BillingAccount, 'plan' | 'status' | 'graceEndsAt'>,
) {
  return saveBillingSubscription(tx, organizationId, userId, {
    stripeCustomerId: data.customer,
    stripeSubscriptionId: data.subscription,
    ...state,
  })
}

/**
 * The account's plan set to what is paid for. Falling to Free keeps every team and member: the
 * plan limits make a team over its limit read only (ADR 030), nothing is deleted.
 */
async function grant(
  tx: Transaction,
  organizationId: string,
  user: User,
  plan: PlanId,
  action: string,
  subscription: string,
) {
  if (user.plan === plan) return
  const updated = await setUserPlan(tx, organizationId, user.id, user.plan, plan)
  if (!updated) throw new Error('the plan changed meanwhile')
  await audit(tx, organizationId, user, action, {
    from: user.plan,
    to: plan,
    priceUsd: PLANS[plan].price,
    billingCycle: 'monthly',
    payment: 'stripe',
    paymentReference: subscription,
  })
}

function audit(
  tx: Transaction,
  organizationId: string,
  user: User,
  action: string,
  metadata: Record<string, unknown>,
) {
  return recordAudit(tx, organizationId, {
    actorUserId: user.id,
    action,
    entityType: 'user',
    entityId: user.id,
    metadata,
  })
}

/**
 * The grace period's end: an account still unpaid falls back to Free. Its row keeps the plan
 * it pays for, so a later paid invoice gives the plan back.
 */
export const graceEndJob: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const userId = job.payload.userId
    if (!organizationId || !userId) throw new PermanentJobError('malformed payload')
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const notice = await withTenant(organizationId, async (tx) => {
      const account = await findBillingAccount(tx, organizationId, userId)
      const user = await findUserById(tx, organizationId, userId)
      if (!account || !user || account.status !== 'past_due' || !account.graceEndsAt) return null
      if (account.graceEndsAt.getTime() > Date.now() || user.plan === 'free') return null
      await grant(
        tx,
        organizationId,
        user,
        'free',
        'plan.lapsed',
        account.stripeSubscriptionId ?? '',
      )
      return { kind: 'lapsed' as const, plan: account.plan, user }
    })
    if (notice) await sendNotice(tenant, organizationId, notice, `lapsed:${job.id}`)
  },
}

/** The payer's email, after the change committed; a refused send does not undo the change. */
async function sendNotice(
  tenant: Tenant,
  organizationId: string,
  notice: Notice & { user: User },
  key: string,
) {
  const branding = tenantEmailBranding(tenant)
  const billingUrl = `${branding.origin}${PLANS_VIEW_PATH}`
  const planName = PLANS[notice.plan].name
  const base = {
    branding,
    to: notice.user.email,
    firstName: notice.user.firstName,
    planName,
    billingUrl,
  }
  const email =
    notice.kind === 'failed'
      ? paymentFailedEmail({ ...base, graceEndsAt: notice.graceEndsAt })
      : planLapsedEmail(base)
  try {
    await withTenant(organizationId, (tx) =>
      queueEmailIn(
        tx,
        organizationId,
        email,
        tenant.name,
        { userId: notice.user.id },
        `billing:${key}`,
      ),
    )
    wakeJobWorker()
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error
  }
}
