// One name per plan (issue 41 point 15): the tier the super admin sets and the plan the agency
// buys read the same wherever they are shown.
import { expect, test } from 'vitest'
import { AGENCY_PRO, TIER_NAMES } from '#app/billing/plan-limits'
import { SUBSCRIPTION_LABELS } from '#app/validation/agencies'

test('the professional tier is called Agency Pro on every screen', () => {
  expect(SUBSCRIPTION_LABELS.professional).toBe(AGENCY_PRO.name)
  expect(TIER_NAMES).toEqual(SUBSCRIPTION_LABELS)
  expect(Object.values(SUBSCRIPTION_LABELS)).not.toContain('Professional')
})
