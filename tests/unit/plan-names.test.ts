// One name per plan (issue 41 point 15): the tier the super admin sets and the plan the agency
// buys read the same wherever they are shown (both read TIER_NAMES).
import { expect, test } from 'vitest'
import { AGENCY_PRO, TIER_NAMES } from '#app/billing/plan-limits'

test('the professional tier is called Agency Pro on every screen', () => {
  expect(TIER_NAMES.professional).toBe(AGENCY_PRO.name)
  expect(Object.values(TIER_NAMES)).not.toContain('Professional')
})
