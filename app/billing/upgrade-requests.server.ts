// No dead end where money changes hands (issue 41 point 4, ADR 079): without a payment provider,
// an upgrade is a request the organization's admins grant or decline in one click, and the
// person is told. With Stripe the upgrade is Checkout (ADR 051) and no request is taken.
import type { Actor } from '#app/auth/guards.server'
import { type MemberPlanId, TEAM_MEMBER_BASIC } from '#app/billing/plan-limits'
import { sellsOnline } from '#app/billing/stripe-config.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { recordAudit } from '#app/models/audit.server'
import { listActiveUserIdsWithRoles } from '#app/models/people.server'
import {
  countPendingPlanRequests,
  decidePlanRequest,
  findPendingPlanRequest,
  insertPlanRequest,
  listPendingPlanRequests,
  type RequestedPlan,
  withdrawPlanRequest,
} from '#app/models/plan-requests.server'
import { findUserById, setMemberPlan, setUserPlan, type User } from '#app/models/users.server'
import { notificationRecipient } from '#app/notifications/new-contact.server'
import {
  type PlanRequestNotice,
  planRequestEmail,
} from '#app/services/emails/plan-request-email.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import { isUpgrade, PLANS } from '#app/validation/plans'
import { type Transaction, withTenant } from '#drizzle/db.server'

export const PLAN_REQUEST_SENT = "Request sent to your agency's administrators"
export const PLAN_REQUEST_WITHDRAWN = 'Request withdrawn'
export const PLAN_REQUEST_GONE = 'This request was already decided or withdrawn'

/** What each requestable plan is called, on every screen and in every email. */
export function requestedPlanName(plan: RequestedPlan) {
  return plan === 'team_member_basic' ? TEAM_MEMBER_BASIC.name : PLANS[plan].name
}

/** Who decides: an agency's admins, or on the platform's own host its super admins. */
const DECIDERS = { agency: ['agency_admin'], platform: ['super_admin'] } as const

/** Where the deciders answer: their End Users screen, at its list of requests. */
export const planRequestsPath = (tenant: Pick<Tenant, 'kind'>) =>
  tenant.kind === 'platform'
    ? '/dashboard/super-admin/users#plan-requests'
    : '/dashboard/agency/users#plan-requests'

/** Where the person sees their plan: the team page's plans, or a team member's billing tab. */
const planPagePath = (plan: RequestedPlan) =>
  plan === 'team_member_basic'
    ? '/settings/team-member?tab=billing'
    : '/dashboard/end-user/team?view=plans'

const nameOf = (user: Pick<User, 'firstName' | 'lastName' | 'email'>) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email

/** Whether the plan is one this person can ask for now (an upgrade of their own kind of plan). */
function refusalFor(user: User, plan: RequestedPlan) {
  const name = requestedPlanName(plan)
  if (plan === 'team_member_basic') {
    if (user.role !== 'team_admin') return 'Only team members have this plan'
    return user.memberPlan === plan ? `You already have the ${name} plan` : null
  }
  if (user.role === 'team_admin') return 'Team members ask for Team Member Basic'
  if (user.plan === plan) return `You are already on the ${name} plan`
  if (!isUpgrade(user.plan, plan)) {
    return `Your ${PLANS[user.plan].name} plan already includes more than ${name}`
  }
  return null
}

/**
 * Queues one notice, when its recipient wants Team Updates; a send limit never refuses the
 * change it tells of (the list on the admins' screen and the person's page still say it).
 */
async function tell(
  tx: Transaction,
  tenant: Tenant,
  recipientId: string,
  notice: PlanRequestNotice,
  path: string,
  cause: { userId: string },
) {
  const recipient = await notificationRecipient(tx, tenant, recipientId, 'teamUpdates')
  if (!recipient) return
  const { account, branding, unsubscribe } = recipient
  try {
    await queueEmailIn(
      tx,
      tenant.id,
      {
        ...planRequestEmail({
          branding,
          to: account.email,
          firstName: account.firstName,
          notice,
          url: `${branding.origin}${path}`,
          unsubscribeUrl: unsubscribe.url,
        }),
        secrets: [unsubscribe.secret],
      },
      tenant.name,
      cause,
    )
  } catch (error) {
    if (!isRefusal(error, 'rate_limited')) throw error
  }
}

/** The person's request waiting for an answer, as their plan page shows it. */
export async function pendingPlanRequestOf(tenant: Tenant, user: User) {
  const request = await withTenant(tenant.id, (tx) =>
    findPendingPlanRequest(tx, tenant.id, user.id),
  )
  if (!request) return null
  return {
    plan: request.plan,
    name: requestedPlanName(request.plan),
    createdAt: request.createdAt.toISOString(),
  }
}

/** The organization's pending requests, for its End Users screen. */
export async function readPlanRequests(actor: Actor) {
  const rows = await withTenant(actor.tenant.id, (tx) =>
    listPendingPlanRequests(tx, actor.tenant.id),
  )
  return rows.map((row) => ({
    id: row.id,
    plan: row.plan,
    planName: requestedPlanName(row.plan),
    price: row.plan === 'team_member_basic' ? TEAM_MEMBER_BASIC.price : PLANS[row.plan].price,
    userId: row.userId,
    name: nameOf(row),
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
  }))
}

export type PlanRequestRow = Awaited<ReturnType<typeof readPlanRequests>>[number]

/** How many requests wait for this organization's admins: the sidebar's End Users badge. */
export async function countPlanRequestsFor(tenant: Tenant, role: User['role']) {
  if (!(DECIDERS[tenant.kind] as readonly string[]).includes(role)) return 0
  return withTenant(tenant.id, (tx) => countPendingPlanRequests(tx, tenant.id))
}

/** The person asks for a paid plan; their organization's admins are emailed and see a badge. */
export async function requestPlan(tenant: Tenant, user: User, plan: RequestedPlan) {
  // Where Stripe sells the plan, the upgrade pays through Checkout instead.
  if (sellsOnline(plan)) {
    throw new Refusal('conflict', 'Online payment is available: choose Upgrade to pay.', {
      field: 'plan',
    })
  }
  const refused = refusalFor(user, plan)
  if (refused) throw new Refusal('conflict', refused, { field: 'plan' })
  const name = requestedPlanName(plan)
  await withTenant(tenant.id, async (tx) => {
    const request = await insertPlanRequest(tx, tenant.id, user.id, plan)
    if (!request) {
      const pending = await findPendingPlanRequest(tx, tenant.id, user.id)
      throw new Refusal(
        'conflict',
        `You already asked for ${pending ? requestedPlanName(pending.plan) : 'a plan'}: your administrators will answer. Withdraw it to ask for another.`,
        { field: 'plan' },
      )
    }
    await recordAudit(tx, tenant.id, {
      actorUserId: user.id,
      action: 'plan.requested',
      entityType: 'user',
      entityId: user.id,
      metadata: { plan },
    })
    const deciders = await listActiveUserIdsWithRoles(tx, tenant.id, DECIDERS[tenant.kind])
    for (const deciderId of deciders) {
      await tell(
        tx,
        tenant,
        deciderId,
        { kind: 'asked', requesterName: nameOf(user), requesterEmail: user.email, planName: name },
        planRequestsPath(tenant),
        { userId: user.id },
      )
    }
  })
  return PLAN_REQUEST_SENT
}

/** The person takes their pending request back. */
export async function withdrawOwnPlanRequest(tenant: Tenant, user: User) {
  await withTenant(tenant.id, async (tx) => {
    const withdrawn = await withdrawPlanRequest(tx, tenant.id, user.id)
    if (!withdrawn) throw new Refusal('not_found', PLAN_REQUEST_GONE)
    await recordAudit(tx, tenant.id, {
      actorUserId: user.id,
      action: 'plan.request_withdrawn',
      entityType: 'user',
      entityId: user.id,
      metadata: { plan: withdrawn.plan },
    })
  })
  return PLAN_REQUEST_WITHDRAWN
}

/**
 * An admin grants or declines a pending request in one click: granting sets the plan as Change
 * Plan does (an admin's grant, audited as one), and the person is told either way.
 */
export async function decideOwnOrganizationPlanRequest(
  admin: Actor,
  input: { requestId: string; decision: 'granted' | 'declined' },
) {
  const { tenant } = admin
  return withTenant(tenant.id, async (tx) => {
    const request = await decidePlanRequest(
      tx,
      tenant.id,
      input.requestId,
      input.decision,
      admin.user.id,
    )
    if (!request) throw new Refusal('conflict', PLAN_REQUEST_GONE)
    const account = await findUserById(tx, tenant.id, request.userId)
    if (!account) throw new Refusal('not_found', PLAN_REQUEST_GONE)
    const name = requestedPlanName(request.plan)
    if (input.decision === 'granted') await grant(tx, tenant.id, account, request.plan, admin)
    await recordAudit(tx, tenant.id, {
      actorUserId: admin.user.id,
      action: input.decision === 'granted' ? 'plan.request_granted' : 'plan.request_declined',
      entityType: 'user',
      entityId: account.id,
      metadata: { plan: request.plan },
    })
    await tell(
      tx,
      tenant,
      account.id,
      { kind: input.decision, planName: name, deciderName: nameOf(admin.user) },
      planPagePath(request.plan),
      { userId: admin.user.id },
    )
    const who = nameOf(account)
    return input.decision === 'granted'
      ? `${name} granted to ${who}`
      : `Request of ${who} for ${name} declined`
  })
}

/** The plan itself, from what the account has now (a plan changed meanwhile is not undone). */
async function grant(
  tx: Transaction,
  organizationId: string,
  account: User,
  plan: RequestedPlan,
  admin: Actor,
) {
  const grantAudit = (from: string) =>
    recordAudit(tx, organizationId, {
      actorUserId: admin.user.id,
      action: 'plan.granted',
      entityType: 'user',
      entityId: account.id,
      metadata: { from, to: plan, payment: 'requested, granted by an admin' },
    })
  if (plan === 'team_member_basic') {
    if (account.role !== 'team_admin' || account.memberPlan === plan) return
    await setMemberPlan(tx, organizationId, account.id, plan satisfies MemberPlanId)
    await grantAudit(account.memberPlan)
    return
  }
  if (!isUpgrade(account.plan, plan)) return
  const updated = await setUserPlan(tx, organizationId, account.id, account.plan, plan)
  if (!updated) throw new Refusal('conflict', 'The plan changed meanwhile: please try again')
  await grantAudit(account.plan)
}
