// No page scrolls sideways on a phone, a tablet or a laptop (issue 30, point 3): signed in as each
// role, every page its navigation offers (sidebar, user menu, home tiles, from
// app/navigation/role-navigation.ts, so a new entry is checked without being listed here) and
// every tab of the profile, and a contact's page, at 375, 768 and 1280 px. The document may be
// no wider than the viewport; a page that is gets a full-page screenshot attached and names its
// widest elements.
// Every page and tab also leaves a screenshot of what a customer sees in the test's output folder
// (test-results/…/screens/{width}/…), kept as the run's artifacts for a reviewer to look through.
// It runs on the production project when there is one (playwright.config.ts): every role's pages
// read by the app login from Postgres. No axe here (ADR 034): one context per role, one goto per
// page and per tab, then a measurement and a viewport screenshot at each width, the viewport
// resized in place (a new layout, media queries included, without loading the page again).
import { type Browser, expect, type Page, test } from '@playwright/test'
import { homeTiles, sidebarNavigation, userMenuEntries } from '#app/navigation/role-navigation'
import { rolePaths } from '#app/validation/roles'
import { urlFor } from './fixtures'
import { sessionOf, waitForHydration } from './page-helpers'
import { ROLE_USERS, type RoleUser } from './role-users'

test.describe.configure({ timeout: 540_000 })

const WIDTHS = [375, 768, 1280] as const

/** The role's pages, each once: what its sidebar, user menu and home tiles link to. */
function pagesOf(role: RoleUser['role']) {
  const navigation = sidebarNavigation(role)
  const entries = [
    ...navigation.dashboard,
    ...navigation.account,
    ...userMenuEntries(role),
    ...homeTiles(role, { nfc: false }),
  ]
  return [...new Set(['/', ...entries.map((entry) => entry.to), rolePaths(role).profile])]
}

type Overflow = { scrollWidth: number; clientWidth: number; widest: string[] }

/** The document's widths and, when it is too wide, the elements that reach past the viewport. */
function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const root = document.documentElement
    const widest: string[] = []
    if (root.scrollWidth > root.clientWidth) {
      for (const element of document.body.querySelectorAll('*')) {
        const box = element.getBoundingClientRect()
        if (box.right <= root.clientWidth + 0.5 || box.width === 0) continue
        // Only the outermost offenders: a child of one already listed says nothing new.
        const parent = element.parentElement?.getBoundingClientRect()
        if (parent && parent.right > root.clientWidth + 0.5) continue
        // Inside a box that scrolls or clips (a tab list, a table), it widens nothing.
        let clipped = false
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== 'visible') clipped = true
        }
        if (clipped) continue
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 4).join('.')}`
        widest.push(`${name} (right edge ${Math.round(box.right)} px)`)
        if (widest.length >= 5) break
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest }
  })
}

async function tooWide(page: Page, label: string, problems: string[]) {
  const { scrollWidth, clientWidth, widest } = await measure(page)
  if (scrollWidth <= clientWidth) return
  problems.push(
    `${label}: ${scrollWidth} px wide in ${clientWidth} px\n    ${widest.join('\n    ')}`,
  )
  await test.info().attach(`${label.replaceAll('/', '_')}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  })
}

/** What the page looks like at this width, for the run's artifacts (JPEG: a fifth of a PNG). */
async function keepScreenshot(page: Page, width: number, label: string) {
  const name = label.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '')
  await page.screenshot({
    path: test.info().outputPath('screens', String(width), `${name || 'home'}.jpg`),
    type: 'jpeg',
    quality: 60,
  })
}

/**
 * Measures the page as it is now at each width (a resize lays it out again, media queries and
 * all, without loading it again) and keeps a screenshot of each. The widths alternate direction
 * from one page to the next, so each page starts at the width the last one ended on.
 */
async function checkWidths(
  page: Page,
  widths: readonly number[],
  label: string,
  problems: string[],
) {
  for (const width of widths) {
    if (page.viewportSize()?.width !== width) {
      await page.setViewportSize({ width, height: 800 })
      // Two frames: the resize's layout, then anything that React re-renders for the new width.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      )
    }
    await tooWide(page, `${label} at ${width} px`, problems)
    await keepScreenshot(page, width, label)
  }
}

async function checkRole(browser: Browser, user: RoleUser) {
  const context = await browser.newContext({ storageState: sessionOf(user) })
  const page = await context.newPage()
  await page.setViewportSize({ width: WIDTHS[0], height: 800 })
  const problems: string[] = []
  const checked: string[] = []
  let widths: readonly number[] = WIDTHS
  for (const path of pagesOf(user.role)) {
    const response = await page.goto(urlFor(user.host, path))
    expect(response?.status(), `${path} for ${user.role}`).toBeLessThan(400)
    await waitForHydration(page)
    await checkWidths(page, widths, path, problems)
    checked.push(path)
    // Each tab's panel is in the page only while chosen; the server renders it by ?tab=.
    const tabs = page.getByRole('tab')
    const count = await tabs.count()
    for (let index = 1; index < count; index++) {
      await tabs.nth(index).click()
      await expect(tabs.nth(index)).toHaveAttribute('aria-selected', 'true')
      widths = [...widths].reverse()
      await checkWidths(page, widths, `${path} tab ${index + 1}`, problems)
    }
    // A contact's page is two links from the navigation: the list's first contact opens it.
    const contact = page.getByTestId('contact-row').first().getByRole('link')
    if (path === '/contacts' && (await contact.count())) {
      await contact.click()
      await expect(page).toHaveURL(/\/contacts\/[0-9a-f-]{36}$/)
      widths = [...widths].reverse()
      await checkWidths(page, widths, '/contacts/{contactId}', problems)
      checked.push('/contacts/{contactId}')
    }
    widths = [...widths].reverse()
  }
  await context.close()
  test.info().annotations.push({ type: 'checked', description: checked.join(', ') })
  expect(problems, `pages wider than the viewport for ${user.role}`).toEqual([])
}

for (const user of ROLE_USERS) {
  test(`${user.role} on ${user.host}: no page scrolls sideways at ${WIDTHS.join(' or ')} px`, async ({
    browser,
  }) => {
    await checkRole(browser, user)
  })
}
