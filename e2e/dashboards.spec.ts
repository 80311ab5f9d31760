// The role dashboards' real figures (roles-teams-admin.md §2.3): a visitor views an end user's
// card and leaves a lead through the public card page; the end user, their team member, the
// agency and the super admin then see it in their figures, their activity and their views chart,
// under the source of the link the visitor opened (a QR code's, ADR 039).
// The end user and team member are this spec's own (e2e/role-users.ts DASHBOARD_USERS), so their
// figures are exact; agency and platform figures are shared with other specs running in
// parallel, so those only have to have grown by what this spec did.
import { type Browser, expect, type Page, test } from '@playwright/test'
import { rolePaths } from '#app/validation/roles'
import { HOSTS, urlFor } from './fixtures'
import { signedInAs, waitForHydration } from './page-helpers'
import { ALPHA_ROLE_USERS, DASHBOARD_USERS, PLATFORM_ROLE_USERS, type RoleUser } from './role-users'

const dana = DASHBOARD_USERS.endUser
const theo = DASHBOARD_USERS.teamMember
const ada = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin') as RoleUser
const sue = PLATFORM_ROLE_USERS.find((user) => user.role === 'super_admin') as RoleUser
// Headless Chromium names itself a bot, and bots' views are not counted: a visitor's browser.
const VISITOR_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

// The figures are read before and after the visit: the tests run in order.
test.describe.configure({ mode: 'serial' })

/** A new page signed in as `user` (its seeded session), on the user's dashboard. */
async function dashboardOf(browser: Browser, user: RoleUser) {
  const { page } = await signedInAs(browser, user, rolePaths(user.role).dashboard)
  return page
}

const stat = (page: Page, id: string) => page.getByTestId(`stat-${id}`)
const statValue = async (page: Page, id: string) =>
  Number(((await stat(page, id).getByTestId('stat-value').textContent()) ?? '').replaceAll(',', ''))

/** The views chart's legend entry of QR code views (ADR 039): its label and its count. */
const qrInLegend = (page: Page) =>
  page.getByTestId('views-chart-legend').locator('[data-source="qr"]')

let viewsBefore: { agency: number; platform: number }

test('before: the own accounts start from zero; agency and platform figures are noted', async ({
  browser,
}) => {
  const end = await dashboardOf(browser, dana)
  await expect(stat(end, 'cards').getByTestId('stat-value')).toHaveText('1')
  await expect(stat(end, 'views').getByTestId('stat-value')).toHaveText('0')
  await expect(stat(end, 'views').getByTestId('stat-change')).toContainText(
    'No change from last week',
  )
  await expect(stat(end, 'contacts').getByTestId('stat-value')).toHaveText('0')
  await expect(end.getByTestId('activity-empty')).toBeVisible()
  // She has a card (welcomed back) and no team (no team members tile, issue 41 point 10).
  await expect(end.getByText('Welcome back, Dana!')).toBeVisible()
  await expect(stat(end, 'team-members')).toHaveCount(0)
  await end.context().close()

  const team = await dashboardOf(browser, theo)
  await expect(stat(team, 'end-users').getByTestId('stat-value')).toHaveText('1')
  await expect(stat(team, 'cards').getByTestId('stat-value')).toHaveText('1')
  await expect(team.getByTestId('views-chart-empty')).toBeVisible()
  // Dana joined and made her card: the list has rows, but no view or contact yet.
  await expect(
    team.getByTestId('activity-item').filter({ hasText: 'Dana Dash created a digital card' }),
  ).toHaveCount(1)
  await expect(team.getByTestId('activity-item').filter({ hasText: 'was viewed' })).toHaveCount(0)
  await team.context().close()

  const agency = await dashboardOf(browser, ada)
  const platform = await dashboardOf(browser, sue)
  viewsBefore = {
    agency: await statValue(agency, 'views'),
    platform: await statValue(platform, 'views'),
  }
  await agency.context().close()
  await platform.context().close()
})

test("a visitor's view and lead reach every dashboard of their scope", async ({ browser }) => {
  // The visitor: opens Dana's public card from a QR code (one view, the QR code's) and sends a
  // lead (one contact).
  const context = await browser.newContext({ userAgent: VISITOR_AGENT })
  const visitor = await context.newPage()
  await visitor.goto(urlFor(HOSTS.alpha, '/card/dana-dash?s=q'))
  await waitForHydration(visitor)
  await visitor.getByLabel('Your name').fill('Vera Visitor')
  await visitor.getByLabel('Your email').fill(`vera-${Date.now()}@example.test`)
  await visitor.getByRole('button', { name: 'Send my details' }).click()
  await expect(visitor.getByText('Thanks! Dana will be in touch.')).toBeVisible()
  await context.close()

  // The end user: one view and one contact more than last week, both in the activity list.
  const end = await dashboardOf(browser, dana)
  await expect(stat(end, 'views').getByTestId('stat-value')).toHaveText('1')
  await expect(stat(end, 'views').getByTestId('stat-change')).toContainText('+1 from last week')
  await expect(stat(end, 'views').getByTestId('stat-change')).toContainText('Up 1 from last week')
  await expect(stat(end, 'contacts').getByTestId('stat-value')).toHaveText('1')
  await expect(stat(end, 'contacts').getByTestId('stat-change')).toContainText('+1 from last week')
  const activity = end.getByTestId('activity-item')
  await expect(activity.filter({ hasText: 'New lead from Vera Visitor' })).toContainText(
    'less than a minute ago',
  )
  await expect(activity.filter({ hasText: `Your card "Dana's Card" was viewed` })).toHaveCount(1)
  await expect(qrInLegend(end)).toHaveText('QR code 1')
  await end.context().close()

  // The team member: the assigned end user's view, and a chart with today's bar.
  const team = await dashboardOf(browser, theo)
  await expect(stat(team, 'views').getByTestId('stat-value')).toHaveText('1')
  await expect(stat(team, 'contacts').getByTestId('stat-value')).toHaveText('1')
  const chart = team.getByRole('img', { name: /Views of your end users' cards per day/ })
  await expect(chart).toBeVisible()
  await expect(chart).toHaveAccessibleName(/1 view from \w{3} \d+ to \w{3} \d+; the busiest day/)
  await expect(team.locator('svg[role="img"] desc')).toContainText('with 1 view.')
  await expect(team.getByTestId('views-chart-table').locator('tbody tr')).toHaveCount(14)
  // Issue 30: the axes are labelled at body size (14 px), whatever the chart's width, and the
  // hidden table of figures leaves no blank band below the page's footer.
  for (const axis of ['views-chart-x-axis', 'views-chart-y-axis']) {
    await expect(team.getByTestId(axis)).toHaveCSS('font-size', '14px')
  }
  await expect(team.getByTestId('views-chart-x-axis')).toContainText(/\w{3} \d+/)
  const band = await team.evaluate(() => {
    const footer = document.querySelector('footer')
    if (!footer) return Number.NaN
    return (
      document.documentElement.scrollHeight -
      (footer.getBoundingClientRect().bottom + window.scrollY)
    )
  })
  expect(band).toBeLessThanOrEqual(1)
  await expect(chart).toHaveAccessibleName(/By source: QR code 1\.$/)
  await expect(qrInLegend(team)).toHaveText('QR code 1')
  // Their activity list (issue 30): the view and the lead, by the end user's name only.
  const teamActivity = team.getByTestId('activity-item')
  await expect(teamActivity.filter({ hasText: "Dana Dash's card was viewed" })).toHaveCount(1)
  await expect(teamActivity.filter({ hasText: 'Dana Dash gained a new contact' })).toContainText(
    'less than a minute ago',
  )
  await expect(team.getByText('Vera Visitor')).toHaveCount(0)
  await team.context().close()

  // The agency and the platform: at least this spec's view more than before.
  const agency = await dashboardOf(browser, ada)
  expect(await statValue(agency, 'views')).toBeGreaterThanOrEqual(viewsBefore.agency + 1)
  expect(await statValue(agency, 'end-users')).toBeGreaterThanOrEqual(1)
  await expect(agency.getByRole('img', { name: /Card views per day at / })).toBeVisible()
  await expect(qrInLegend(agency)).toContainText('QR code')
  // The organization's activity: accounts and cards of its own people.
  await expect(
    agency.getByRole('region', { name: 'Recent Activity' }).getByTestId('activity-item').first(),
  ).toBeVisible()
  await agency.context().close()

  const platform = await dashboardOf(browser, sue)
  expect(await statValue(platform, 'views')).toBeGreaterThanOrEqual(viewsBefore.platform + 1)
  // Alpha and Beta at least.
  expect(await statValue(platform, 'agencies')).toBeGreaterThanOrEqual(2)
  const platformChart = platform.getByRole('img', {
    name: /Card views per day across the platform/,
  })
  await expect(platformChart).toHaveAccessibleName(/views? from .*; the busiest day was/)
  await expect(qrInLegend(platform)).toContainText('QR code')
  // The platform's activity: agencies, accounts and cards of every tenant, with where.
  await expect(
    platform.getByRole('region', { name: 'Recent Activity' }).getByTestId('activity-item').first(),
  ).toBeVisible()
  await platform.context().close()
})

test('a client navigation whose statistics cannot be loaded says so', async ({ browser }) => {
  const page = await dashboardOf(browser, dana)
  await page.getByRole('link', { name: 'Contacts' }).first().click()
  await expect(page).toHaveURL(urlFor(dana.host, '/contacts'))
  await page.route(
    (url) => url.pathname === '/dashboard/end-user.data',
    (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Unavailable' }),
  )
  await page.goBack()
  await expect(page.getByTestId('load-error')).toHaveText('Could not load dashboard statistics')
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'Could not load dashboard statistics' }),
  ).toBeVisible()
  await page.context().close()
})
