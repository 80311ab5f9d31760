import { describe, expect, test } from 'vitest'
import { AGENCY_PRO, TEAM_MEMBER_BASIC } from '#app/billing/plan-limits'
import { priceList } from '#app/billing/price-list'
import { PLAN_IDS, PLANS } from '#app/validation/plans'

const plansOf = (kind: 'platform' | 'agency') =>
  priceList(kind).flatMap((section) => section.plans.map((plan) => [plan.name, plan.price]))

describe('the public price list', () => {
  test('every host lists the end users’ plans at the prices checkout charges', () => {
    for (const kind of ['platform', 'agency'] as const) {
      expect(plansOf(kind)).toEqual(
        expect.arrayContaining(PLAN_IDS.map((id) => [PLANS[id].name, PLANS[id].price])),
      )
    }
  })

  test('Agency Pro is sold by the platform, Team Member Basic by agencies', () => {
    expect(plansOf('platform')).toContainEqual([AGENCY_PRO.name, AGENCY_PRO.price])
    expect(plansOf('platform')).not.toContainEqual([
      TEAM_MEMBER_BASIC.name,
      TEAM_MEMBER_BASIC.price,
    ])
    expect(plansOf('agency')).toContainEqual([TEAM_MEMBER_BASIC.name, TEAM_MEMBER_BASIC.price])
    expect(plansOf('agency')).not.toContainEqual([AGENCY_PRO.name, AGENCY_PRO.price])
  })
})
