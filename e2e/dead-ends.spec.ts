// No dead end for any role (issue 12, point 2): signed in as each role, every same-origin link
// on the home page, the role's dashboard and its profiles (every tab), and every entry of the
// user menu, answers below 400 with that role's session, and none sends a signed-in user back
// to the sign-in page.
import { expect, type Page, test } from '@playwright/test'
import { rolePaths } from '#app/auth/roles'
import { urlFor } from './fixtures'
import { openAs } from './page-helpers'
import { ROLE_USERS } from './role-users'

test.describe.configure({ timeout: 90_000 })

/** Loads a page and waits for the client bundle (the menu and tabs are Radix widgets). */
async function open(page: Page, url: string) {
  await page.goto(url)
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))
}

/** Same-origin link targets now in the page, fragment dropped. */
async function sameOriginLinks(page: Page) {
  const origin = new URL(page.url()).origin
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
  return hrefs
    .map((href) => new URL(href))
    .filter((url) => url.origin === origin)
    .map((url) => {
      url.hash = ''
      return url.toString()
    })
}

/** Each tab selected in turn: inactive tab panels are not in the page until chosen. */
async function linksInTabs(page: Page) {
  const links: string[] = []
  const tabs = page.getByRole('tab')
  for (let index = 0; index < (await tabs.count()); index++) {
    await tabs.nth(index).click()
    await expect(tabs.nth(index)).toHaveAttribute('aria-selected', 'true')
    links.push(...(await sameOriginLinks(page)))
  }
  return links
}

/**
 * Status (after redirects) and final URL of a link, fetched by the page itself with its session:
 * the browser resolves tenant hosts such as alpha.localhost, Node's resolver does not.
 */
async function probe(page: Page, url: string) {
  const { status, finalUrl } = await page.evaluate(async (target) => {
    const response = await fetch(target, { credentials: 'same-origin' })
    return { status: response.status, finalUrl: response.url }
  }, url)
  return { status, landed: new URL(finalUrl) }
}

async function menuEntries(page: Page) {
  await page.getByTestId('user-menu-trigger').click()
  const menu = page.getByRole('menu')
  await expect(menu).toBeVisible()
  const entries = await sameOriginLinks(page)
  // Every entry but 'Log out' (a POST, not a link) is a link the crawl requests.
  const items = await menu.getByRole('menuitem').allTextContents()
  expect(items.map((item) => item.trim())).toEqual([
    'Dashboard',
    'Profile',
    'Digital Cards',
    'Contacts',
    'Settings',
    'Log out',
  ])
  await page.keyboard.press('Escape')
  return entries
}

for (const user of ROLE_USERS) {
  test(`${user.role} on ${user.host}: every link on home, dashboard, profile and the menu opens`, async ({
    page,
  }) => {
    const paths = rolePaths(user.role)
    await openAs(page, user, paths.dashboard)
    const found = new Map<string, string>()
    const note = (links: string[], where: string) => {
      for (const link of links) if (!found.has(link)) found.set(link, where)
    }
    for (const start of ['/', paths.dashboard, '/profile', paths.profile]) {
      await open(page, urlFor(user.host, start))
      expect(new URL(page.url()).pathname, `${start} opens for ${user.role}`).toBe(start)
      note(await sameOriginLinks(page), start)
      note(await linksInTabs(page), `${start} (tabs)`)
      if (start === '/') note(await menuEntries(page), 'user menu')
    }
    // The entries the issue names must be among them.
    for (const must of ['/contacts', paths.digitalCards, paths.profile, paths.dashboard]) {
      expect([...found.keys()].map((url) => new URL(url).pathname)).toContain(must)
    }

    const dead: string[] = []
    for (const [url, where] of found) {
      const { status, landed } = await probe(page, url)
      if (status >= 400) dead.push(`${url} (on ${where}): ${status}`)
      else if (landed.pathname === '/auth/login' && new URL(url).pathname !== '/auth/login') {
        dead.push(`${url} (on ${where}): sent back to sign in`)
      }
    }
    test.info().annotations.push({ type: 'requested', description: [...found.keys()].join(' ') })
    expect(dead, `links that lead nowhere for ${user.role}`).toEqual([])
    expect(found.size).toBeGreaterThan(8)
  })
}
