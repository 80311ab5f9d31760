// What makes a self-registered Alpha end user a team owner who may invite (issue 26 point 7):
// until online payment exists, Alpha's agency admin grants the paid plan from End Users (Change
// Plan), and the owner confirms their email from the link the sign-up sent. The specs go through
// both screens as people would; the link comes from the recipient's inbox (e2e/inbox.ts).
import { type Browser, expect, type Page } from '@playwright/test'
import { type PaidPlanId, PLANS } from '#app/validation/plans'
import { TENANTS } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { signedInAs } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'

/** Alpha's agency admin gives the account of `email` a paid plan (End Users, Change Plan). */
export async function grantPlanOnAlpha(browser: Browser, email: string, plan: PaidPlanId) {
  const admin = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin')
  if (!admin) throw new Error('no Alpha agency admin')
  const { context, page } = await signedInAs(
    browser,
    admin,
    `/dashboard/agency/users?q=${encodeURIComponent(email)}`,
  )
  await page
    .getByTestId('end-user-row')
    .filter({ hasText: email })
    .getByRole('button', { name: /^Actions for / })
    .click()
  await page.getByRole('menuitem', { name: 'Change Plan' }).click()
  const dialog = page.getByRole('dialog', { name: 'Change Plan' })
  await dialog.getByLabel('Plan').selectOption(plan)
  await dialog.getByRole('button', { name: 'Update Plan' }).click()
  await expect(page.getByText(`Plan changed to ${PLANS[plan].name}`)).toBeVisible()
  await context.close()
}

/** `page`'s signed-in Alpha user follows the confirmation link the sign-up emailed to `email`. */
export async function confirmEmailOnAlpha(page: Page, email: string) {
  const message = await newestEmailTo(email, `Confirm your email for ${TENANTS.alpha.name}`)
  await page.goto(linkIn(message, '/auth/confirm-email?token='))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByText('Your email address has been confirmed.')).toBeVisible()
}
