// The public price list (issue 41 point 17): every plan this host sells, read from the plans'
// own definitions so the page cannot drift from what checkout and the limits enforce. Agencies
// buy Agency Pro from the platform, so it is listed on the platform's host only; a team member's
// plan is sold by an agency, so it is listed on agencies' hosts.
import {
  AGENCY_PRO,
  END_USER_LIMITS,
  STAFF_LIMITS,
  TEAM_MEMBER_BASIC,
} from '#app/billing/plan-limits'
import { PLAN_IDS, PLANS } from '#app/validation/plans'

export type PriceListPlan = {
  id: string
  name: string
  /** US dollars per month. */
  price: number
  features: readonly string[]
}

export type PriceListSection = {
  id: string
  title: string
  description: string
  plans: PriceListPlan[]
}

export function priceList(hostKind: 'platform' | 'agency'): PriceListSection[] {
  const people: PriceListSection = {
    id: 'people',
    title: 'For you and your team',
    description: 'Start free with your own card; add a team when you want to work together.',
    plans: PLAN_IDS.map((id) => PLANS[id]),
  }
  if (hostKind === 'platform') {
    return [
      people,
      {
        id: 'agencies',
        title: 'For agencies',
        description: 'Run the product under your own brand and domain for the people you serve.',
        plans: [
          {
            id: AGENCY_PRO.id,
            name: AGENCY_PRO.name,
            price: AGENCY_PRO.price,
            features: [
              `Up to ${AGENCY_PRO.staffLimit} team members (${STAFF_LIMITS.free} without a plan)`,
            ],
          },
        ],
      },
    ]
  }
  return [
    people,
    {
      id: 'team-members',
      title: 'For team members',
      description: 'Manage the cards of the end users you look after.',
      plans: [
        {
          id: TEAM_MEMBER_BASIC.id,
          name: TEAM_MEMBER_BASIC.name,
          price: TEAM_MEMBER_BASIC.price,
          features: [
            `Up to ${TEAM_MEMBER_BASIC.endUserLimit} end users (${END_USER_LIMITS.free} without a plan)`,
          ],
        },
      ],
    },
  ]
}
