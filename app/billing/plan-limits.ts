// What the plans sold beside the team plans grant (ADR 051), in one place: the agency's staff
// seats (Agency Pro, spec §2.6 "up to 25 team members") and a team member's end users (Team
// Member Basic, "up to 10 end users"). The server enforces these limits; the settings screens'
// Billing tabs show them.
import { fitsWithin, type PaidPlanId, PLANS } from '#app/validation/plans'

export type AgencyTier = 'free' | 'starter' | 'professional' | 'enterprise'
export type MemberPlanId = 'free' | 'team_member_basic'

/** Every plan Stripe sells: the end users' team plans and the two below. */
export type SoldPlanId = PaidPlanId | 'agency_pro' | 'team_member_basic'
export type BillablePlanId = SoldPlanId | 'free'

/** Agency Pro is the Professional tier: buying it sets the tier, as the super admin can. */
export const AGENCY_PRO_TIER = 'professional' satisfies AgencyTier

export const AGENCY_PRO = {
  id: 'agency_pro',
  name: 'Agency Pro',
  price: 99,
  staffLimit: 25,
} as const

export const TEAM_MEMBER_BASIC = {
  id: 'team_member_basic',
  name: 'Team Member Basic',
  price: 49,
  endUserLimit: 10,
} as const

/**
 * How many staff accounts (agency admins, agency members, team members) an agency of each tier
 * holds; null: no limit. Free and Starter are set by the super admin; Professional is Agency Pro.
 */
export const STAFF_LIMITS: Record<AgencyTier, number | null> = {
  free: 5,
  starter: 10,
  professional: AGENCY_PRO.staffLimit,
  enterprise: null,
}

/**
 * Each tier's name on every screen (issue 41 point 15: one name per plan): the super admin's
 * Agencies list and the agency's Billing tab call the professional tier what the agency buys.
 */
export const TIER_NAMES: Record<AgencyTier, string> = {
  free: 'Free',
  starter: 'Starter',
  professional: AGENCY_PRO.name,
  enterprise: 'Enterprise',
}

/** How many end users may be assigned to one team member on each plan. */
export const END_USER_LIMITS: Record<MemberPlanId, number> = {
  free: 5,
  team_member_basic: TEAM_MEMBER_BASIC.endUserLimit,
}

export const MEMBER_PLAN_NAMES: Record<MemberPlanId, string> = {
  free: 'Free',
  team_member_basic: TEAM_MEMBER_BASIC.name,
}

export const SOLD_PLAN_NAMES: Record<SoldPlanId, string> = {
  team_basic: PLANS.team_basic.name,
  team_pro: PLANS.team_pro.name,
  agency_pro: AGENCY_PRO.name,
  team_member_basic: TEAM_MEMBER_BASIC.name,
}

export function staffLimitMessage(tier: AgencyTier) {
  const limit = STAFF_LIMITS[tier]
  const upgrade =
    tier === 'free' || tier === 'starter'
      ? ` Upgrade to ${AGENCY_PRO.name} for up to ${AGENCY_PRO.staffLimit}.`
      : ''
  return `Your agency has reached its limit: the ${TIER_NAMES[tier]} plan allows up to ${limit} team members.${upgrade}`
}

export function endUserLimitMessage(plan: MemberPlanId, teamMemberName: string) {
  const upgrade =
    plan === 'free'
      ? ` ${TEAM_MEMBER_BASIC.name} allows up to ${TEAM_MEMBER_BASIC.endUserLimit}.`
      : ''
  return `${teamMemberName} has reached their limit: the ${MEMBER_PLAN_NAMES[plan]} plan allows up to ${END_USER_LIMITS[plan]} end users per team member.${upgrade}`
}

export const fitsStaff = (tier: AgencyTier, staff: number) => fitsWithin(STAFF_LIMITS[tier], staff)

export const fitsEndUser = (plan: MemberPlanId, assigned: number) =>
  fitsWithin(END_USER_LIMITS[plan], assigned)
