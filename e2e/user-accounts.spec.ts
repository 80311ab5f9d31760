// The User Accounts tab of /profile (roles doc §2.5): the platform's super admin sees every
// tenant's accounts, an agency admin only their own; search narrows, page 2 works with and
// without JavaScript; an end user asking by URL is refused. axe audits the tab, with and without
// a match, in e2e/accessibility.spec.ts.
import { expect, type Page, test } from '@playwright/test'
import { HOSTS, SUPER_ADMIN, TENANTS, urlFor } from './fixtures'
import { sessionOf, signInWithSession } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'
import {
  ALPHA_ROSTER_SIZE,
  BETA_ROSTER_EMAIL,
  ROSTER_SEARCH,
  UNNAMED_ROSTER_EMAIL,
} from './user-accounts-fixtures'

const ALL_TEXT = 'View all user accounts in the system'
const ORGANIZATION_TEXT = 'View user accounts in your organization'
const RESTRICTED =
  'Access Restricted: You need to be a Super Admin or Agency Admin to view user accounts.'

const roleUser = (role: string) => {
  const user = ALPHA_ROLE_USERS.find((candidate) => candidate.role === role)
  if (!user) throw new Error(`no ${role} in Alpha`)
  return user
}
const AGENCY_ADMIN = roleUser('agency_admin')
const END_USER = roleUser('end_user')

/** Starts signed in (a session made in the database) on `path` of the account's host. */
const signIn = (page: Page, account: { email: string }, path: string) =>
  signInWithSession(page, account, path)

const rows = (page: Page) => page.getByTestId('user-account-row')
const panel = (page: Page) => page.getByRole('tabpanel')

async function search(page: Page, text: string) {
  await panel(page).getByLabel('Search by name or email').fill(text)
  await panel(page).getByRole('button', { name: 'Search' }).click()
}

test('the super admin sees every tenant, searches and pages', async ({ page }) => {
  await signIn(page, SUPER_ADMIN, '/profile?tab=accounts')
  await expect(panel(page).getByText(ALL_TEXT)).toBeVisible()
  await expect(rows(page).first()).toBeVisible()

  await search(page, ROSTER_SEARCH)
  await expect(page).toHaveURL(/[?&]q=roster/)
  await expect(page.getByTestId('user-accounts-range')).toHaveText(
    `Showing 1–20 of ${ALPHA_ROSTER_SIZE + 1} accounts`,
  )
  await expect(rows(page)).toHaveCount(20)
  // Sorted by email, Beta's account comes first; Alpha's unnamed one says so.
  await expect(rows(page).first()).toContainText(BETA_ROSTER_EMAIL)
  await expect(rows(page).first()).toContainText(TENANTS.beta.name)
  await expect(rows(page).first()).toContainText('Agency Member')
  const unnamed = rows(page).filter({ hasText: UNNAMED_ROSTER_EMAIL })
  await expect(unnamed).toContainText('Unnamed User')
  await expect(unnamed).toContainText(TENANTS.alpha.name)
  await expect(unnamed).toContainText('End User')

  // A slow answer: the list shows skeletons meanwhile.
  await page.route(/\.data(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700))
    await route.continue()
  })
  await page.getByRole('link', { name: 'Page 2' }).click()
  await expect(page.getByTestId('user-accounts-skeleton')).toBeVisible()
  await expect(page).toHaveURL(/[?&]page=2/)
  await expect(rows(page)).toHaveCount(3)
  await expect(page.getByTestId('user-accounts-skeleton')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page')
  await expect(panel(page).getByLabel('Search by name or email')).toHaveValue(ROSTER_SEARCH)
})

test('an agency admin sees only their organization; a search with no match explains why', async ({
  page,
}) => {
  await signIn(page, AGENCY_ADMIN, '/profile')
  // The tab is switched to in the browser: its list is loaded then.
  await page.getByRole('tab', { name: 'User Accounts' }).click()
  await expect(page).toHaveURL(/tab=accounts/)
  await expect(panel(page).getByText(ORGANIZATION_TEXT)).toBeVisible()
  await expect(rows(page).first()).toBeVisible()

  await search(page, ROSTER_SEARCH)
  await expect(page.getByTestId('user-accounts-range')).toHaveText(
    `Showing 1–20 of ${ALPHA_ROSTER_SIZE} accounts`,
  )
  await expect(rows(page).filter({ hasText: TENANTS.beta.name })).toHaveCount(0)
  await page.getByRole('link', { name: 'Next' }).click()
  await expect(rows(page)).toHaveCount(ALPHA_ROSTER_SIZE - 20)

  await search(page, BETA_ROSTER_EMAIL)
  await expect(panel(page).getByText('No user accounts match your search')).toBeVisible()
  await expect(panel(page).getByText('the database could not be reached.')).toBeVisible()
  await expect(panel(page).getByRole('link', { name: 'Refresh' })).toBeVisible()
})

test('without JavaScript: search and page 2 are plain requests', async ({ browser }) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: sessionOf(AGENCY_ADMIN),
  })
  const page = await context.newPage()
  await page.goto(urlFor(HOSTS.alpha, '/profile?tab=accounts'))
  await expect(panel(page).getByText(ORGANIZATION_TEXT)).toBeVisible()
  await search(page, ROSTER_SEARCH)
  await expect(page).toHaveURL(/[?&]q=roster/)
  await expect(rows(page)).toHaveCount(20)
  await page.getByRole('link', { name: 'Page 2' }).click()
  await expect(page).toHaveURL(/[?&]page=2/)
  await expect(rows(page)).toHaveCount(ALPHA_ROSTER_SIZE - 20)
  await context.close()
})

test('an end user asking for the tab by URL is refused and sees no accounts', async ({ page }) => {
  await signIn(page, END_USER, '/profile?tab=accounts')
  await expect(page.getByText(RESTRICTED)).toBeVisible()
  await expect(rows(page)).toHaveCount(0)
  await expect(page.getByText(UNNAMED_ROSTER_EMAIL)).toHaveCount(0)
})
