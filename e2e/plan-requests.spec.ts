// Issue 41 point 4 at a phone's width: no dead end where money changes hands. On a server
// without a payment provider (the embedded one: the production-configuration server sells plans
// through the fake Stripe, e2e/billing.spec.ts), an end user's upgrade is a request; Alpha's
// agency admin is emailed, sees a badge on End Users and grants it in one click; the person is
// emailed the answer and has the plan. Declines, withdrawals, other tenants and RLS on both
// drivers: tests/integration/plan-requests.test.ts and the matrices.
import { expect, test } from '@playwright/test'
import { PLANS_GRANTED_BY_ADMINS } from '#app/validation/plans'
import { newestEmailTo } from './inbox'
import { signedInAs } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'
import { SPEC_ACCOUNTS } from './spec-accounts'

const PHONE = { width: 375, height: 812 }

test('an upgrade without online payment is a request the agency admin grants in one click', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const rae = SPEC_ACCOUNTS.planRequester
  const person = await signedInAs(browser, rae, '/dashboard/end-user/team')
  await person.page.setViewportSize(PHONE)
  await person.page.getByRole('button', { name: 'Upgrade to Team Pro' }).click()
  const dialog = person.page.getByRole('dialog', { name: 'Confirm Upgrade' })
  await expect(dialog).toContainText(PLANS_GRANTED_BY_ADMINS)
  await dialog.getByRole('button', { name: 'Send Request' }).click()
  await expect(person.page.getByText("Request sent to your agency's administrators")).toBeVisible()
  const waiting = person.page.getByTestId('plan-request')
  await expect(waiting).toContainText('You asked for the Team Pro plan')
  await expect(person.page.getByRole('button', { name: 'Request sent' })).toBeDisabled()
  await person.page.screenshot({
    path: test.info().outputPath('375-plan-request-sent.jpg'),
    quality: 60,
  })

  // Alpha's agency admin: the email, the badge on End Users, the request and its Grant.
  const adminUser = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin')
  if (!adminUser) throw new Error('no Alpha agency admin')
  await newestEmailTo(adminUser.email, 'Rae Requester asks for the Team Pro plan')
  const admin = await signedInAs(browser, adminUser, '/dashboard/agency')
  await expect(admin.page.getByTestId('plan-requests-badge')).toBeVisible()
  await admin.page.setViewportSize(PHONE)
  await admin.page.goto(admin.page.url().replace(/\/dashboard\/agency$/, '/dashboard/agency/users'))
  const row = admin.page.getByTestId('plan-request-row').filter({ hasText: rae.email })
  await expect(row).toContainText('Asks for Team Pro')
  await admin.page.screenshot({
    path: test.info().outputPath('375-plan-requests-admin.jpg'),
    quality: 60,
  })
  expect(
    await admin.page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    ),
    'no sideways scroll on End Users with a request at 375px',
  ).toBe(false)
  await row.getByRole('button', { name: 'Grant Team Pro to Rae Requester' }).click()
  await expect(admin.page.getByText('Team Pro granted to Rae Requester')).toBeVisible()
  await expect(row).toHaveCount(0)

  // The person is told, and has the plan: the team page opens on managing teams.
  await newestEmailTo(rae.email, 'Your Team Pro plan is ready')
  await person.page.goto(person.page.url().replace(/\?.*$/, ''))
  await expect(person.page.getByRole('heading', { name: 'No teams yet' })).toBeVisible()
  await expect(person.page.getByText('Your plan: Team Pro')).toBeVisible()
  await admin.context.close()
  await person.context.close()
})
