// The audit log (issue 14 point 6): reached from the super admin's and the agency admin's
// dashboards; an agency member's dashboard does not offer it.
import { expect, test } from '@playwright/test'
import { rolePaths } from '#app/validation/roles'
import { urlFor } from './fixtures'
import { expectAccessible, signedInAs } from './page-helpers'
import { ALPHA_ROLE_USERS, PLATFORM_ROLE_USERS, type RoleUser } from './role-users'

const sue = PLATFORM_ROLE_USERS.find((user) => user.role === 'super_admin') as RoleUser
const ada = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin') as RoleUser
const max = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_member') as RoleUser

test('the super admin reads every organization’s changes, and filters them', async ({
  browser,
}) => {
  const { page } = await signedInAs(browser, sue, rolePaths(sue.role).dashboard)
  await page.getByRole('link', { name: 'Audit Log' }).click()
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible()
  // A fresh platform has at least its own reads (this page's among them): asked for, they show.
  await page.getByLabel('Include platform reads').check()
  await page.getByRole('button', { name: 'Filter' }).click()
  const read = page.getByTestId('audit-event').filter({ hasText: 'platform.read' }).first()
  await expect(read).toBeVisible()
  // Named in words above its code (issue 41 point 17).
  await expect(read).toContainText('Platform read')
  await expectAccessible(page, 'audit log')
  await page.getByLabel('Kind of change').selectOption('team')
  await page.getByLabel('Include platform reads').uncheck()
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/category=team/)
  // The URL can change a moment before the filtered list renders: wait for the list itself.
  await expect
    .poll(async () => {
      const actions = await page.getByTestId('audit-event').locator('code').allTextContents()
      return actions.every((action) => action.startsWith('team.'))
    })
    .toBe(true)
})

test('an agency admin reads their organization’s log; a member is not offered it', async ({
  browser,
}) => {
  const { page: admin } = await signedInAs(browser, ada, rolePaths(ada.role).dashboard)
  await admin.getByRole('link', { name: 'Audit Log' }).click()
  await expect(admin.getByRole('heading', { name: 'Audit Log' })).toBeVisible()
  await expect(admin.getByText('Every change in your organization, newest first.')).toBeVisible()
  await expect(admin.locator('th', { hasText: 'Organization' })).toHaveCount(0)
  await admin.context().close()

  const { page: member } = await signedInAs(browser, max, rolePaths(max.role).dashboard)
  await expect(member.getByRole('link', { name: 'Audit Log' })).toHaveCount(0)
  const response = await member.goto(urlFor(max.host, '/dashboard/audit-log'))
  expect(response?.status()).toBe(403)
  await member.context().close()
})
