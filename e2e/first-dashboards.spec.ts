// The team admin's and the super admin team's first dashboards (issue 41 point 15, ADR 085), on
// the production project at 375 px: each opens on their work (the team admin's assigned end
// users and their cards, the super admin team member's own cards and the people who reached
// them), with real figures and recent activity; a tile opens the list it counts, and that list
// has as many rows as the tile says (or, for the team admin's cards, rows whose cards add up). No sideways scroll, nothing axe finds, in the light and
// dark themes, with a screenshot of each dashboard kept in the run's output. Figures are read
// against the page's own list, not against fixed numbers: the accounts are the accessibility
// crawl's (e2e/role-users.ts), which other specs read too.
import { type Browser, expect, type Page, test } from '@playwright/test'
import { rolePaths } from '#app/validation/roles'
import { urlFor } from './fixtures'
import { expectAccessible, sessionOf, waitForHydration } from './page-helpers'
import { ALPHA_ROLE_USERS, PLATFORM_ROLE_USERS, type RoleUser } from './role-users'

const teamAdmin = ALPHA_ROLE_USERS.find((user) => user.role === 'team_admin') as RoleUser
const ops = PLATFORM_ROLE_USERS.find((user) => user.role === 'super_admin_team') as RoleUser

test.describe.configure({ timeout: 240_000 })

const PHONE = { width: 375, height: 800 }

async function expectNoSidewaysScroll(page: Page, label: string) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(widths.scroll, label).toBeLessThanOrEqual(widths.client)
}

const tileValue = async (page: Page, id: string) =>
  Number(
    (
      (await page.getByTestId(`stat-${id}`).getByTestId('stat-value').textContent()) ?? ''
    ).replaceAll(',', ''),
  )

/** `user`'s first dashboard at 375 px in `scheme`, hydrated. */
async function firstDashboard(browser: Browser, user: RoleUser, scheme: 'light' | 'dark') {
  const context = await browser.newContext({
    storageState: sessionOf(user),
    viewport: PHONE,
    colorScheme: scheme,
  })
  const page = await context.newPage()
  const response = await page.goto(urlFor(user.host, rolePaths(user.role).dashboard))
  expect(response?.status()).toBe(200)
  await waitForHydration(page)
  return { context, page }
}

type Journey = {
  who: string
  user: RoleUser
  heading: string
  /** The tiles that hold the person's work: each above zero. */
  work: string[]
  /** The tile whose list is opened, its label, the list's URL and one row of it. */
  tile: { id: string; label: string; path: string; row: string }
  /** A tile that opens the same list and sums a number shown in each of its rows. */
  sum?: { id: string; label: string; cell: string }
  /** The themes to look at: an account that saved one theme shows only that one. */
  schemes: ('light' | 'dark')[]
}

const JOURNEYS: Journey[] = [
  {
    who: 'the team admin',
    user: teamAdmin,
    heading: 'Team Member Dashboard',
    work: ['end-users', 'cards'],
    tile: {
      id: 'end-users',
      label: 'Assigned end users',
      path: '/dashboard/team-member/users',
      row: 'end-user-row',
    },
    sum: { id: 'cards', label: 'Their digital cards', cell: 'end-user-card-count' },
    schemes: ['light', 'dark'],
  },
  {
    who: 'the super admin team member',
    user: ops,
    heading: 'Dashboard',
    work: ['cards'],
    tile: {
      id: 'cards',
      label: 'Digital cards',
      path: '/dashboard/end-user/digital-cards',
      row: 'card-item',
    },
    // Otto saved the dark theme (e2e/role-users.ts).
    schemes: ['dark'],
  },
]

for (const journey of JOURNEYS) {
  test(`${journey.who} opens on their work, and a tile's count is its list's`, async ({
    browser,
  }) => {
    for (const scheme of journey.schemes) {
      const { context, page } = await firstDashboard(browser, journey.user, scheme)
      await expect(page.getByRole('heading', { level: 1, name: journey.heading })).toBeVisible()
      for (const id of journey.work) expect(await tileValue(page, id), id).toBeGreaterThan(0)
      // Recent activity of real rows, not the empty text.
      await expect(page.getByTestId('activity-item').first()).toBeVisible()
      await expect(page.getByTestId('activity-empty')).toHaveCount(0)
      await expectNoSidewaysScroll(page, `${journey.who}'s dashboard, ${scheme}`)
      const name = `${journey.user.role}-dashboard-375-${scheme}.png`
      await page.screenshot({ path: test.info().outputPath(name), fullPage: true })
      await expectAccessible(page, `${journey.who}'s dashboard at 375 px, ${scheme}`)

      // The tile opens the list it counts; the list has as many rows as the tile says.
      const count = await tileValue(page, journey.tile.id)
      await page
        .getByTestId(`stat-${journey.tile.id}`)
        .getByRole('link', { name: journey.tile.label })
        .click()
      await expect(page).toHaveURL(urlFor(journey.user.host, journey.tile.path))
      await expect(page.getByTestId(journey.tile.row)).toHaveCount(count)
      await expectNoSidewaysScroll(page, `${journey.tile.path}, ${scheme}`)
      if (journey.sum) {
        // A tile that sums a number of each row: the rows' numbers, as a phone shows them.
        await page.goBack()
        const total = await tileValue(page, journey.sum.id)
        await page
          .getByTestId(`stat-${journey.sum.id}`)
          .getByRole('link', { name: journey.sum.label })
          .click()
        await expect(page).toHaveURL(urlFor(journey.user.host, journey.tile.path))
        await expect(page.getByTestId(journey.tile.row)).toHaveCount(count)
        const numbers = await page.getByTestId(journey.sum.cell).allTextContents()
        expect(numbers.reduce((sum, text) => sum + Number.parseInt(text, 10), 0)).toBe(total)
      }
      await context.close()
    }
  })
}
