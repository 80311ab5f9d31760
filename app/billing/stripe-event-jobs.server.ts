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
import { findSubscriptionTier, setSubscriptionTier } from '#app/models/organizations.server'
import { findUnhandledStripeEvent, markStripeEventHandled } from '#app/models/stripe-events.server'
import { findUserById, setMemberPlan, setUserPlan, type User } from '#app/models/users.server'
import {
  graceReminderEmail,
  paymentFailedEmail,
  planLapsedEmail,
} from '#app/services/emails/billing-email.server'
import { tenantEmailBranding } from '#app/services/emails/layout.server'
import { PAID_PLAN_IDS, PLANS } from '#app/teams/plans'
import { PLANS_VIEW_PATH } from '#app/teams/team-paths'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { type Transaction, withTenant } from '#drizzle/db.server'
import {
  AGENCY_PRO,
  AGENCY_PRO_TIER,
  type BillablePlanId,
  SOLD_PLAN_NAMES,
  type SoldPlanId,
  TEAM_MEMBER_BASIC,
} from './plan-limits'
import { planOfPrice, stripeConfig } from './stripe-config.server'
import type { HandledEventType, StripeEventData } from './stripe-webhook.server'

/** How long a plan whose payment failed is kept before the account falls back to Free. */
export const GRACE_PERIOD_MS = 7 * 24 * 60 * 60_000

const DAY_MS = 24 * 60 * 60_000
/** Reminders before the grace period's end, each emailed once (days before the downgrade). */
export const GRACE_REMINDER_DAYS = [3, 1] as const

const SOLD_PLAN_IDS: readonly string[] = [...PAID_PLAN_IDS, AGENCY_PRO.id, TEAM_MEMBER_BASIC.id]
const isPaidPlan = (plan: string): plan is SoldPlanId => SOLD_PLAN_IDS.includes(plan)

type Notice =
  | { kind: 'failed'; graceEndsAt: Date; plan: SoldPlanId }
  | { kind: 'reminder'; graceEndsAt: Date; plan: SoldPlanId }
  | { kind: 'lapsed'; plan: BillablePlanId }

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
      await grant(tx, tenant.id, user, data.plan, true, 'plan.upgraded', data.subscription)
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
      await grant(
        tx,
        tenant.id,
        user,
        account.plan,
        true,
        'plan.payment_recovered',
        data.subscription,
      )
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
      // Reminders before the end, each once: the key names the grace period it belongs to. One
      // whose time has passed already (an event that reached us late) is not sent at all.
      for (const days of GRACE_REMINDER_DAYS) {
        const runAt = new Date(graceEndsAt.getTime() - days * DAY_MS)
        if (runAt.getTime() <= Date.now()) continue
        await insertJob(tx, {
          name: 'billing.grace-reminder',
          organizationId: tenant.id,
          payload: { userId: user.id, graceEndsAt: graceEndsAt.toISOString(), days: String(days) },
          idempotencyKey: `billing.grace-reminder:${account.id}:${graceEndsAt.toISOString()}:${days}`,
          runAt,
        })
      }
      await audit(tx, tenant.id, user, 'plan.payment_failed', {
        plan: account.plan,
        graceEndsAt: graceEndsAt.toISOString(),
      })
      return { kind: 'failed', graceEndsAt, plan: account.plan, user }
    }
    case 'customer.subscription.updated': {
      if (!account) return null
      if (data.status === 'canceled' || data.status === 'unpaid') {
        return cancel(tx, tenant.id, user, data, account.plan)
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
        await grant(tx, tenant.id, user, plan, true, 'plan.changed', data.subscription)
      }
      return null
    }
    case 'customer.subscription.deleted':
      if (!account) return null
      return cancel(tx, tenant.id, user, data, account.plan)
  }
}

async function cancel(
  tx: Transaction,
  organizationId: string,
  user: User,
  data: StripeEventData,
  paidFor: BillablePlanId,
) {
  await save(tx, organizationId, user.id, data, {
    plan: 'free',
    status: 'canceled',
    graceEndsAt: null,
  })
  await grant(tx, organizationId, user, paidFor, false, 'plan.cancelled', data.subscription)
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

const planPrice = (plan: BillablePlanId) =>
  plan === AGENCY_PRO.id
    ? AGENCY_PRO.price
    : plan === TEAM_MEMBER_BASIC.id
      ? TEAM_MEMBER_BASIC.price
      : PLANS[plan].price

/**
 * What the paid plan grants, given (`on`) or taken back, where that plan lives (ADR 051): a team
 * plan on the buyer's users.plan, Team Member Basic on their users.member_plan, Agency Pro as the
 * agency's Professional tier. Falling to Free keeps every team, member and assignment: the limits
 * (app/billing/plan-limits.ts, ADR 030) refuse only what would go above them; nothing is deleted.
 */
async function grant(
  tx: Transaction,
  organizationId: string,
  user: User,
  paidFor: BillablePlanId,
  on: boolean,
  action: string,
  subscription: string,
) {
  const payment = {
    billingCycle: 'monthly',
    payment: 'stripe',
    paymentReference: subscription,
  }
  if (paidFor === AGENCY_PRO.id) {
    const tier = await findSubscriptionTier(tx, organizationId)
    // Only the tier Agency Pro gives is taken back; Enterprise (the super admin's) is kept.
    const to = on ? (tier === 'enterprise' ? tier : AGENCY_PRO_TIER) : 'free'
    if (tier === to || (!on && tier !== AGENCY_PRO_TIER)) return
    await setSubscriptionTier(tx, organizationId, tier, to)
    await audit(tx, organizationId, user, action, {
      from: tier,
      to,
      plan: paidFor,
      priceUsd: on ? AGENCY_PRO.price : 0,
      ...payment,
    })
    return
  }
  if (paidFor === TEAM_MEMBER_BASIC.id) {
    const to = on ? TEAM_MEMBER_BASIC.id : 'free'
    if (user.memberPlan === to) return
    await setMemberPlan(tx, organizationId, user.id, to)
    await audit(tx, organizationId, user, action, {
      from: user.memberPlan,
      to,
      priceUsd: on ? TEAM_MEMBER_BASIC.price : 0,
      ...payment,
    })
    return
  }
  const plan = on && paidFor !== 'free' ? paidFor : 'free'
  if (user.plan === plan) return
  const updated = await setUserPlan(tx, organizationId, user.id, user.plan, plan)
  if (!updated) throw new Error('the plan changed meanwhile')
  await audit(tx, organizationId, user, action, {
    from: user.plan,
    to: plan,
    priceUsd: planPrice(plan),
    ...payment,
  })
}

/** Whether the account still has what it paid for (so a lapse has something to take back). */
async function holdsPlan(tx: Transaction, organizationId: string, user: User, paidFor: string) {
  if (paidFor === AGENCY_PRO.id) {
    return (await findSubscriptionTier(tx, organizationId)) === AGENCY_PRO_TIER
  }
  if (paidFor === TEAM_MEMBER_BASIC.id) return user.memberPlan === TEAM_MEMBER_BASIC.id
  return user.plan !== 'free'
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
      if (account.graceEndsAt.getTime() > Date.now()) return null
      if (!(await holdsPlan(tx, organizationId, user, account.plan))) return null
      await grant(
        tx,
        organizationId,
        user,
        account.plan,
        false,
        'plan.lapsed',
        account.stripeSubscriptionId ?? '',
      )
      return { kind: 'lapsed' as const, plan: account.plan, user }
    })
    if (notice) await sendNotice(tenant, organizationId, notice, `lapsed:${job.id}`)
  },
}

/**
 * A reminder before the grace period ends (GRACE_REMINDER_DAYS): sent only while the account is
 * still past due in the same grace period (a paid invoice clears it, a newer failure has its own
 * reminders), and once: the job's idempotency key and the email's own key name that period.
 */
export const graceReminderJob: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const { userId, graceEndsAt, days } = job.payload
    if (!organizationId || !userId || !graceEndsAt || !days) {
      throw new PermanentJobError('malformed payload')
    }
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const notice = await withTenant(organizationId, async (tx) => {
      const account = await findBillingAccount(tx, organizationId, userId)
      const user = await findUserById(tx, organizationId, userId)
      if (!account || !user || account.status !== 'past_due' || !isPaidPlan(account.plan)) {
        return null
      }
      if (account.graceEndsAt?.toISOString() !== graceEndsAt) return null
      if (account.graceEndsAt.getTime() <= Date.now()) return null
      return {
        kind: 'reminder' as const,
        graceEndsAt: account.graceEndsAt,
        plan: account.plan,
        user,
      }
    })
    if (notice) await sendNotice(tenant, organizationId, notice, `reminder:${job.id}:${days}`)
  },
}

/** Where a plan's billing is managed: the team page, or the settings screen that sells it. */
export function billingPathOf(plan: BillablePlanId) {
  if (plan === AGENCY_PRO.id) return '/settings/agency?tab=billing'
  if (plan === TEAM_MEMBER_BASIC.id) return '/settings/team-member?tab=billing'
  return PLANS_VIEW_PATH
}

/** The payer's email, after the change committed; a refused send does not undo the change. */
async function sendNotice(
  tenant: Tenant,
  organizationId: string,
  notice: Notice & { user: User },
  key: string,
) {
  const branding = tenantEmailBranding(tenant)
  const billingUrl = `${branding.origin}${billingPathOf(notice.plan)}`
  const planName = notice.plan === 'free' ? PLANS.free.name : SOLD_PLAN_NAMES[notice.plan]
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
      : notice.kind === 'reminder'
        ? graceReminderEmail({ ...base, graceEndsAt: notice.graceEndsAt })
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
