// The webhook's stored events applied to the billing account, each once (ADR 051, ADR 055): the
// job takes the event only while it is unhandled and marks it handled in the transaction that
// changes the plan. The account is the one of the event's Stripe customer (the agency's own, or a
// seat's), never the person who clicked. What is applied is the subscription as Stripe has it
// when the job runs, read back from Stripe's API (outside the transaction, within the
// outside-call deadline), not what the event carried: Stripe delivers events in any order, and a
// late one must not undo a newer state; of two reads the later one wins (`subscription_read_at`).
// A failed payment keeps the plan for GRACE_PERIOD_MS and queues the job that ends it.
import type Stripe from 'stripe'
import { queueEmailIn } from '#app/email/mailer.server'
import { type JobHandler, PermanentJobError, tenantJobInput } from '#app/jobs/worker.server'
import { recordAudit } from '#app/models/audit.server'
import {
  type BillingAccount,
  hasOtherLiveAgencyPro,
  lockBillingAccount,
  lockBillingAccountOfCustomer,
  markSubscriptionRead,
  saveBillingSubscription,
} from '#app/models/billing-accounts.server'
import { insertJob } from '#app/models/jobs.server'
import { findSubscriptionTier, setSubscriptionTier } from '#app/models/organizations.server'
import { lockActiveAgencyAdmins } from '#app/models/people.server'
import { findUnhandledStripeEvent, markStripeEventHandled } from '#app/models/stripe-events.server'
import { findUserById, setMemberPlan, setUserPlan, type User } from '#app/models/users.server'
import {
  graceReminderEmail,
  paymentFailedEmail,
  planLapsedEmail,
} from '#app/services/emails/billing-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { isRefusal } from '#app/utils/action-error'
import { callOutside } from '#app/utils/outside-call.server'
import { PAID_PLAN_IDS, PLANS } from '#app/validation/plans'
import { PLANS_VIEW_PATH } from '#app/validation/team-paths'
import { type Transaction, withTenant } from '#drizzle/db.server'
import {
  AGENCY_PRO,
  AGENCY_PRO_TIER,
  type BillablePlanId,
  SOLD_PLAN_NAMES,
  type SoldPlanId,
  TEAM_MEMBER_BASIC,
} from './plan-limits'
import { planOfPrice, stripeClient, stripeConfig } from './stripe-config.server'
import type { StripeEventData } from './stripe-webhook.server'

/** How long a plan whose payment failed is kept before the account falls back to Free. */
export const GRACE_PERIOD_MS = 7 * 24 * 60 * 60_000

const DAY_MS = 24 * 60 * 60_000
/** Reminders before the grace period's end, each emailed once (days before the downgrade). */
export const GRACE_REMINDER_DAYS = [3, 1] as const

const SOLD_PLAN_IDS: readonly string[] = [...PAID_PLAN_IDS, AGENCY_PRO.id, TEAM_MEMBER_BASIC.id]
const isPaidPlan = (plan: string): plan is SoldPlanId => SOLD_PLAN_IDS.includes(plan)

/** Who a billing account's plan is for: the agency itself, or the seat of one account. */
type Holder = { kind: 'organization' } | { kind: 'seat'; user: User }

type Notice =
  | { kind: 'failed'; graceEndsAt: Date; plan: SoldPlanId }
  | { kind: 'reminder'; graceEndsAt: Date; plan: SoldPlanId }
  | { kind: 'lapsed'; plan: BillablePlanId }

/** A subscription as Stripe has it now: what the account follows. */
type CurrentSubscription = {
  id: string
  customer: string
  status: Stripe.Subscription.Status
  priceId: string
  /** The plan our checkout wrote in its metadata (the price is asked first). */
  plan: string
}

/** Stripe's states in which the subscription still pays for its plan (past due: in grace). */
const LIVE: readonly Stripe.Subscription.Status[] = ['active', 'trialing', 'past_due']

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? '')

/**
 * The subscription read back from Stripe (`GET /v1/subscriptions/:id`); null when Stripe has no
 * such subscription. Any other failure throws, and the job is tried again later.
 */
async function currentSubscription(id: string): Promise<CurrentSubscription | null> {
  const config = stripeConfig()
  if (!config) throw new Error('Stripe is not configured')
  const stripe = await stripeClient(config)
  let subscription: Stripe.Subscription
  try {
    subscription = await stripe.subscriptions.retrieve(id)
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return null
    throw error
  }
  return {
    id: subscription.id,
    customer: idOf(subscription.customer),
    status: subscription.status,
    priceId: subscription.items.data[0]?.price.id ?? '',
    plan: subscription.metadata?.plan ?? '',
  }
}

async function holderOf(
  tx: Transaction,
  organizationId: string,
  account: BillingAccount,
): Promise<Holder | null> {
  if (!account.userId) return { kind: 'organization' }
  const user = await findUserById(tx, organizationId, account.userId)
  return user ? { kind: 'seat', user } : null
}

export const stripeEventJob: JobHandler = {
  async run(job) {
    const { organizationId, eventId } = tenantJobInput(job, 'eventId')
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const event = await withTenant(organizationId, (tx) =>
      findUnhandledStripeEvent(tx, organizationId, eventId),
    )
    // Handled before (a job run again after its commit): nothing to do twice.
    if (!event) return
    const data = event.data as StripeEventData
    // Stripe is asked outside any transaction, within the outside-call deadline: a slow Stripe
    // holds no lock and, on the embedded database, no other request (ADR 056). The read's
    // moment orders it against other events' reads of the same account.
    const readAt = new Date()
    const subscription = await callOutside('Stripe', () => currentSubscription(data.subscription))
    const notice = await withTenant(organizationId, async (tx) => {
      if (!(await findUnhandledStripeEvent(tx, organizationId, eventId))) return null
      await markStripeEventHandled(tx, organizationId, eventId)
      const account = await lockBillingAccountOfCustomer(tx, organizationId, data.customer)
      if (!account) return null
      // Another event's job read Stripe later and has applied that: this read is older news.
      if (account.subscriptionReadAt && account.subscriptionReadAt >= readAt) return null
      await markSubscriptionRead(tx, organizationId, account.id, readAt)
      if (!subscription || subscription.customer !== account.stripeCustomerId) return null
      const holder = await holderOf(tx, organizationId, account)
      if (!holder) return null
      const notice = await follow(tx, tenant.id, account, holder, subscription, event.occurredAt)
      return notice && { ...notice, account, holder }
    })
    if (notice) await sendNotice(tenant, notice, eventId)
  },
}

/**
 * The account brought to its subscription's state at Stripe. Whatever the event's type: a late
 * `checkout.session.completed` of a subscription since cancelled finds it cancelled and grants
 * nothing; an old `invoice.payment_failed` after a newer `invoice.paid` finds it active and
 * changes nothing. Another subscription than the account's is taken only while it is live, so
 * an ended one never replaces or revives anything.
 */
async function follow(
  tx: Transaction,
  organizationId: string,
  account: BillingAccount,
  holder: Holder,
  subscription: CurrentSubscription,
  occurredAt: Date,
): Promise<Notice | null> {
  const own = account.stripeSubscriptionId === subscription.id
  const live = LIVE.includes(subscription.status)
  if (!own && !live) return null
  if (!live) {
    if (account.status === 'canceled') return null
    await saveBillingSubscription(tx, organizationId, account.id, {
      stripeSubscriptionId: subscription.id,
      plan: 'free',
      status: 'canceled',
      graceEndsAt: null,
    })
    await takeBackPlan(tx, organizationId, account, holder, 'plan.cancelled', subscription.id)
    return null
  }
  const config = stripeConfig()
  const plan =
    (config && planOfPrice(config, subscription.priceId)) ??
    (isPaidPlan(subscription.plan) ? subscription.plan : own ? account.plan : null)
  if (!plan || !isPaidPlan(plan)) throw new PermanentJobError(`no plan for ${subscription.id}`)
  const starts = !own || account.status === 'canceled'
  if (subscription.status !== 'past_due') {
    await saveBillingSubscription(tx, organizationId, account.id, {
      stripeSubscriptionId: subscription.id,
      plan,
      status: 'active',
      graceEndsAt: null,
    })
    // Paid after the grace period ended, the plan comes back; a portal change sets the new one.
    const action = starts
      ? 'plan.upgraded'
      : account.status === 'past_due'
        ? 'plan.payment_recovered'
        : 'plan.changed'
    await grant(tx, organizationId, account, holder, plan, true, action, subscription.id)
    return null
  }
  // Past due: the grace period runs from the first failure Stripe told us of; its retries, and
  // any other event while it lasts, keep that end, its jobs and its email.
  if (starts)
    await grant(tx, organizationId, account, holder, plan, true, 'plan.upgraded', subscription.id)
  const graceEndsAt =
    !starts && account.status === 'past_due' && account.graceEndsAt
      ? account.graceEndsAt
      : new Date(occurredAt.getTime() + GRACE_PERIOD_MS)
  const inGrace = graceEndsAt === account.graceEndsAt
  await saveBillingSubscription(tx, organizationId, account.id, {
    stripeSubscriptionId: subscription.id,
    plan,
    status: 'past_due',
    graceEndsAt,
  })
  if (inGrace) return null
  await insertJob(tx, {
    name: 'billing.grace-end',
    organizationId,
    payload: { accountId: account.id },
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
      organizationId,
      payload: {
        accountId: account.id,
        graceEndsAt: graceEndsAt.toISOString(),
        days: String(days),
      },
      idempotencyKey: `billing.grace-reminder:${account.id}:${graceEndsAt.toISOString()}:${days}`,
      runAt,
    })
  }
  await audit(tx, organizationId, holder, 'plan.payment_failed', {
    plan,
    graceEndsAt: graceEndsAt.toISOString(),
  })
  return { kind: 'failed', graceEndsAt, plan }
}

const planPrice = (plan: BillablePlanId) =>
  plan === AGENCY_PRO.id
    ? AGENCY_PRO.price
    : plan === TEAM_MEMBER_BASIC.id
      ? TEAM_MEMBER_BASIC.price
      : PLANS[plan].price

/**
 * What the paid plan grants, given (`on`) or taken back, where that plan lives (ADR 051): Agency
 * Pro as the agency's Professional tier, a team plan on the seat's users.plan, Team Member Basic
 * on its users.member_plan. Falling to Free keeps every team, member and assignment: the limits
 * (app/billing/plan-limits.ts, ADR 030) refuse only what would go above them; nothing is deleted.
 */
/** Takes back what the account's plan gave (a cancelled or lapsed subscription). */
function takeBackPlan(
  tx: Transaction,
  organizationId: string,
  account: BillingAccount,
  holder: Holder,
  action: string,
  subscription: string,
) {
  return grant(tx, organizationId, account, holder, account.plan, false, action, subscription)
}

async function grant(
  tx: Transaction,
  organizationId: string,
  account: BillingAccount,
  holder: Holder,
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
    // Another account still paying for Agency Pro keeps the tier on.
    if (!on && (await hasOtherLiveAgencyPro(tx, organizationId, account.id))) return
    const tier = await findSubscriptionTier(tx, organizationId)
    // Only the tier Agency Pro gives is taken back; Enterprise (the super admin's) is kept.
    const to = on ? (tier === 'enterprise' ? tier : AGENCY_PRO_TIER) : 'free'
    if (tier === to || (!on && tier !== AGENCY_PRO_TIER)) return
    await setSubscriptionTier(tx, organizationId, tier, to)
    await audit(tx, organizationId, holder, action, {
      from: tier,
      to,
      plan: paidFor,
      priceUsd: on ? AGENCY_PRO.price : 0,
      ...payment,
    })
    return
  }
  // A seat's plan: an account of the organization's own (migrated from before ADR 055) sells none.
  if (holder.kind !== 'seat') return
  const user = holder.user
  if (paidFor === TEAM_MEMBER_BASIC.id) {
    const to = on ? TEAM_MEMBER_BASIC.id : 'free'
    if (user.memberPlan === to) return
    await setMemberPlan(tx, organizationId, user.id, to)
    await audit(tx, organizationId, holder, action, {
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
  await audit(tx, organizationId, holder, action, {
    from: user.plan,
    to: plan,
    priceUsd: planPrice(plan),
    ...payment,
  })
}

/** Whether the holder still has what it paid for (so a lapse has something to take back). */
async function holdsPlan(tx: Transaction, organizationId: string, holder: Holder, paidFor: string) {
  if (paidFor === AGENCY_PRO.id) {
    return (await findSubscriptionTier(tx, organizationId)) === AGENCY_PRO_TIER
  }
  if (holder.kind !== 'seat') return false
  if (paidFor === TEAM_MEMBER_BASIC.id) return holder.user.memberPlan === TEAM_MEMBER_BASIC.id
  return holder.user.plan !== 'free'
}

/** Stripe's doing, audited on the seat (its own account) or on the agency (nobody acted). */
function audit(
  tx: Transaction,
  organizationId: string,
  holder: Holder,
  action: string,
  metadata: Record<string, unknown>,
) {
  return recordAudit(
    tx,
    organizationId,
    holder.kind === 'seat'
      ? {
          actorUserId: holder.user.id,
          action,
          entityType: 'user',
          entityId: holder.user.id,
          metadata,
        }
      : {
          actorUserId: null,
          action,
          entityType: 'organization',
          entityId: organizationId,
          metadata,
        },
  )
}

/** A grace period's job's account, locked, and who holds it; null when either is gone. */
async function graceAccount(tx: Transaction, organizationId: string, accountId: string) {
  const account = await lockBillingAccount(tx, organizationId, accountId)
  if (account?.status !== 'past_due' || !account.graceEndsAt) return null
  const holder = await holderOf(tx, organizationId, account)
  return holder && { account, holder, graceEndsAt: account.graceEndsAt }
}

/**
 * The grace period's end: an account still unpaid falls back to Free. Its row keeps the plan
 * it pays for, so a later paid invoice gives the plan back.
 */
export const graceEndJob: JobHandler = {
  async run(job) {
    const { organizationId, accountId } = tenantJobInput(job, 'accountId')
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const notice = await withTenant(organizationId, async (tx) => {
      const found = await graceAccount(tx, organizationId, accountId)
      if (!found || found.graceEndsAt.getTime() > Date.now()) return null
      const { account, holder } = found
      if (!(await holdsPlan(tx, organizationId, holder, account.plan))) return null
      await takeBackPlan(
        tx,
        organizationId,
        account,
        holder,
        'plan.lapsed',
        account.stripeSubscriptionId ?? '',
      )
      return { kind: 'lapsed' as const, plan: account.plan, account, holder }
    })
    if (notice) await sendNotice(tenant, notice, `lapsed:${job.id}`)
  },
}

/**
 * A reminder before the grace period ends (GRACE_REMINDER_DAYS): sent only while the account is
 * still past due in the same grace period (a paid invoice clears it, a newer failure has its own
 * reminders), and once: the job's idempotency key and the email's own key name that period.
 */
export const graceReminderJob: JobHandler = {
  async run(job) {
    const { organizationId, accountId, graceEndsAt, days } = tenantJobInput(
      job,
      'accountId',
      'graceEndsAt',
      'days',
    )
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const notice = await withTenant(organizationId, async (tx) => {
      const found = await graceAccount(tx, organizationId, accountId)
      if (!found || !isPaidPlan(found.account.plan)) return null
      if (found.graceEndsAt.toISOString() !== graceEndsAt) return null
      if (found.graceEndsAt.getTime() <= Date.now()) return null
      return { kind: 'reminder' as const, plan: found.account.plan, ...found }
    })
    if (notice) await sendNotice(tenant, notice, `reminder:${job.id}:${days}`)
  },
}

/** Where a plan's billing is managed: the team page, or the settings screen that sells it. */
export function billingPathOf(plan: BillablePlanId) {
  if (plan === AGENCY_PRO.id) return '/settings/agency?tab=billing'
  if (plan === TEAM_MEMBER_BASIC.id) return '/settings/team-member?tab=billing'
  return PLANS_VIEW_PATH
}

/**
 * Who hears of the account's payments: a seat's own account, or the agency's active admins
 * whoever bought it (the one who clicked may have left). Read after the change committed.
 */
async function recipientsOf(tx: Transaction, organizationId: string, holder: Holder) {
  if (holder.kind === 'seat') return [holder.user]
  const admins = await Promise.all(
    (await lockActiveAgencyAdmins(tx, organizationId)).map((id) =>
      findUserById(tx, organizationId, id),
    ),
  )
  return admins.filter((admin): admin is User => Boolean(admin))
}

/** The payment emails, after the change committed; a refused send does not undo the change. */
async function sendNotice(
  tenant: Tenant,
  notice: Notice & { account: BillingAccount; holder: Holder },
  key: string,
) {
  const branding = tenantEmailBranding(tenant)
  const billingUrl = `${branding.origin}${billingPathOf(notice.plan)}`
  const planName = notice.plan === 'free' ? PLANS.free.name : SOLD_PLAN_NAMES[notice.plan]
  try {
    await withTenant(tenant.id, async (tx) => {
      for (const to of await recipientsOf(tx, tenant.id, notice.holder)) {
        const base = { branding, to: to.email, firstName: to.firstName, planName, billingUrl }
        const email =
          notice.kind === 'failed'
            ? paymentFailedEmail({ ...base, graceEndsAt: notice.graceEndsAt })
            : notice.kind === 'reminder'
              ? graceReminderEmail({ ...base, graceEndsAt: notice.graceEndsAt })
              : planLapsedEmail(base)
        await queueEmailIn(
          tx,
          tenant.id,
          email,
          tenant.name,
          { userId: to.id },
          `billing:${key}:${to.id}`,
        )
      }
    })
  } catch (error) {
    if (!isRefusal(error, 'rate_limited')) throw error
  }
}
