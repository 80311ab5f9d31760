// The plans of the end-user area (roles-teams-admin.md §2.9, §6, §9). Shared by the upgrade page
// and the server, which enforces the member limits.
export const PLAN_IDS = ['free', 'team_basic', 'team_pro'] as const
export type PlanId = (typeof PLAN_IDS)[number]

export type Plan = {
  id: PlanId
  name: string
  /** US dollars per month. */
  price: number
  /** How many people a team of this plan may hold, its admin included; 0: no team features. */
  memberLimit: number
  features: readonly string[]
}

/** Spec §9: Team Basic up to 3 members, Team Pro up to 10; the texts below say these numbers. */
const TEAM_BASIC_MEMBERS = 3
const TEAM_PRO_MEMBERS = 10

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    price: 0,
    memberLimit: 0,
    features: ['Unlimited digital cards', 'QR code and link sharing', 'Contact capture'],
  },
  team_basic: {
    id: 'team_basic',
    name: 'Team Basic',
    price: 19,
    memberLimit: TEAM_BASIC_MEMBERS,
    features: [
      'Everything in Free',
      `Up to ${TEAM_BASIC_MEMBERS} team members`,
      'Team roles and invitations',
    ],
  },
  team_pro: {
    id: 'team_pro',
    name: 'Team Pro',
    price: 49,
    memberLimit: TEAM_PRO_MEMBERS,
    features: [
      'Everything in Team Basic',
      `Up to ${TEAM_PRO_MEMBERS} team members`,
      'Priority support',
    ],
  },
}

export const PAID_PLAN_IDS = ['team_basic', 'team_pro'] as const satisfies readonly PlanId[]
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number]

/** Plans are ordered by price: an upgrade goes to a later one. */
export function isUpgrade(from: PlanId, to: PlanId) {
  return PLAN_IDS.indexOf(to) > PLAN_IDS.indexOf(from)
}

export function hasTeamFeatures(plan: PlanId) {
  return PLANS[plan].memberLimit > 0
}

export const formatPrice = (plan: Plan) => `$${plan.price}`

export const upgradedMessage = (plan: Plan) => `Successfully upgraded to ${plan.name} plan`

/**
 * Until a payment provider is connected, nobody upgrades themselves (issue 26 point 7): the
 * upgrade is a request the agency's administrators answer (issue 41 point 4, ADR 079).
 */
export const PLANS_GRANTED_BY_ADMINS =
  "Online payment is not available here: your agency's administrators grant paid plans. Send them a request and you will get an email with their answer."

export const CONFIRM_EMAIL_TO_INVITE =
  'Confirm your email address before inviting anyone: use the link we emailed you, or send a new one from the banner at the top of the page.'

/** A re-invitation within the cooldown (LIMITS.invitationResend) sends no second email. */
export function invitationCooldownMessage(email: string, retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  return `An invitation was sent to ${email} a moment ago. You can send it again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

/**
 * The seat rule of every plan (team members, an agency's staff, a team member's end users):
 * one more fits while those already counted plus one stay within the limit; null: no limit.
 */
export const fitsWithin = (limit: number | null, counted: number) =>
  limit === null || counted + 1 <= limit

/** Whether one more person fits the plan: members and pending invitations each take a seat. */
export function fitsOneMore(plan: Plan, seats: { members: number; pendingInvitations: number }) {
  return fitsWithin(plan.memberLimit, seats.members + seats.pendingInvitations)
}

export function memberLimitMessage(plan: Plan) {
  if (plan.memberLimit === 0) return 'Upgrade to a team plan to add team members'
  const { team_pro } = PLANS
  const next =
    plan.id === 'team_basic'
      ? ` Upgrade to ${team_pro.name} for up to ${team_pro.memberLimit}.`
      : ''
  return `This team has reached its limit: the ${plan.name} plan allows up to ${plan.memberLimit} members, pending invitations included.${next}`
}
