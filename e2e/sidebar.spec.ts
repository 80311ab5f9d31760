// The dashboards' sidebar (roles-teams-admin.md §2.2, §9; issue 13 point 1), also on every other
// signed-in page (issue 30 point 4): for each role the
// product name, the role badge and exactly the role's built entries, each of which opens; Ctrl/Cmd+B
// collapses it to icons and the cookie brings it back collapsed on the server-rendered reload; at
// 375 px it is a drawer behind a Menu button that Escape closes. axe audits the expanded,
// collapsed and drawer states in e2e/accessibility.spec.ts.
import { expect, type Page, test } from '@playwright/test'
import { roleBadge, sidebarNavigation } from '#app/navigation/role-navigation'
import { rolePaths } from '#app/validation/roles'
import { HOSTS, TENANTS, urlFor } from './fixtures'
import { signInWithSession } from './page-helpers'
import { ALPHA_ROLE_USERS, PLATFORM_ROLE_USERS, type RoleUser } from './role-users'

test.describe.configure({ timeout: 270_000 })

const PRODUCT_NAMES: Record<string, string> = {
  [HOSTS.platform]: TENANTS.platform.name,
  [HOSTS.alpha]: TENANTS.alpha.name,
}

/** Starts signed in (a session made in the database), on the role's dashboard, hydrated. */
const signIn = (page: Page, user: RoleUser) =>
  signInWithSession(page, user, rolePaths(user.role).dashboard)

/** The shortcut and the drawer need the client bundle. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))
}

const sidebar = (page: Page) => page.getByTestId('sidebar')
const sidebarNav = (page: Page) => sidebar(page).getByRole('navigation', { name: 'Sidebar' })

/** Status (after redirects) and final path of a link, fetched with the page's session. */
function probe(page: Page, url: string) {
  return page.evaluate(async (target) => {
    const response = await fetch(target, { credentials: 'same-origin' })
    return { status: response.status, path: new URL(response.url).pathname }
  }, url)
}

const endUser = ALPHA_ROLE_USERS.find((user) => user.role === 'end_user') as RoleUser

// One role in the browser: the sidebar renders the role's entries and each is followed. Which
// entries each role gets is tests/unit/role-navigation.test.ts; that each of them opens for its
// role, on its host, is tests/integration/sidebar-entries.test.ts (ADR 034).
{
  const user = endUser
  test(`${user.role} on ${user.host}: the sidebar shows exactly the role's entries and each opens`, async ({
    page,
  }) => {
    await signIn(page, user)
    const expected = sidebarNavigation(user.role)
    await expect(sidebar(page).getByTestId('sidebar-product')).toHaveText(
      PRODUCT_NAMES[user.host] ?? '',
    )
    await expect(sidebar(page).getByTestId('sidebar-role')).toHaveText(roleBadge(user.role))

    const nav = sidebarNav(page)
    await expect(nav.getByRole('list', { name: 'Dashboard' }).getByRole('link')).toHaveText(
      expected.dashboard.map((item) => item.label),
    )
    await expect(nav.getByRole('list', { name: 'Account' }).getByRole('link')).toHaveText(
      expected.account.map((item) => item.label),
    )
    // One Settings entry (issue 30 point 4), and the end user's contacts among the entries.
    await expect(nav.getByRole('link', { name: /Settings$/ })).toHaveCount(1)
    await expect(nav.getByRole('link', { name: 'Contacts' })).toHaveAttribute('href', '/contacts')
    await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    await expect(sidebar(page).getByRole('button', { name: 'Log out' })).toBeVisible()

    const links = await nav
      .getByRole('link')
      .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href))
    expect(links).toHaveLength(expected.dashboard.length + expected.account.length)
    for (const link of links) {
      const { status, path } = await probe(page, link)
      expect(status, link).toBeLessThan(400)
      expect(path, `${link} sent a signed-in user to sign in`).not.toBe('/auth/login')
    }

    // The cards list and its editor sit in the layout too, with their entry marked current.
    const cards = expected.dashboard.find((item) => item.label === 'Digital Cards')
    if (cards && user.withCard) {
      await nav.getByRole('link', { name: 'Digital Cards' }).click()
      await expect(page).toHaveURL(urlFor(user.host, cards.to))
      await expect(nav.getByRole('link', { name: 'Digital Cards' })).toHaveAttribute(
        'aria-current',
        'page',
      )
      await expect(nav.getByRole('link', { name: 'Overview' })).not.toHaveAttribute(
        'aria-current',
        'page',
      )
      await page.getByRole('link', { name: 'Edit' }).first().click()
      await expect(page).toHaveURL(/\/digital-cards\/edit\//)
      await expect(sidebarNav(page).getByRole('link', { name: 'Digital Cards' })).toBeVisible()
    }
  })
}

/** The end user's default card's id, from the View link of the cards list. */
async function firstCardId(page: Page) {
  await page.goto(urlFor(endUser.host, rolePaths(endUser.role).digitalCards))
  const href = await page.locator('a[href^="/qrcode/"]').first().getAttribute('href')
  return (href ?? '').split('/')[2] ?? ''
}

// Issue 30 point 4: every signed-in page outside /dashboard sits in the same sidebar layout.
/**
 * Issue 41 point 17: above a sidebar the header spans the window, its logo over the sidebar and
 * the account menu at the content's right edge; elsewhere it is centred with the page. In px from
 * the window's edges, at the default 1280 px viewport.
 */
async function headerInsets(page: Page) {
  const header = page.getByRole('banner')
  const home = await header.getByRole('link', { name: /home$/ }).boundingBox()
  const account = await header.getByRole('navigation', { name: 'Account' }).boundingBox()
  const width = page.viewportSize()?.width ?? 0
  if (!home || !account) throw new Error('the header has no home link or account menu')
  return { left: home.x, right: width - (account.x + account.width) }
}

test('contacts, the QR screen, profile, settings and the wizard show the sidebar; a visitor of /qrcode/{cardId} does not', async ({
  page,
  browser,
}) => {
  await signIn(page, endUser)
  const cardId = await firstCardId(page)
  expect(cardId).not.toBe('')
  const pages = [
    '/contacts',
    '/qrcode',
    `/qrcode/${cardId}`,
    // /profile leads here (ADR 078).
    rolePaths(endUser.role).profile,
    '/settings/end-user',
    '/api-settings',
    '/onboarding?mode=card',
  ]
  for (const path of pages) {
    await page.goto(urlFor(endUser.host, path))
    expect(new URL(page.url()).pathname, path).toBe(path.split('?')[0])
    await expect(sidebar(page), path).toBeVisible()
    await expect(sidebarNav(page).getByRole('link', { name: 'Overview' }), path).toBeVisible()
    await expect(page.getByRole('main'), path).toBeVisible()
    const insets = await headerInsets(page)
    expect(insets.left, `${path}: the logo over the sidebar`).toBeLessThanOrEqual(24)
    expect(insets.right, `${path}: the account menu at the right edge`).toBeLessThanOrEqual(24)
  }
  // The QR screen is the end user's "My QR Code" entry: marked current there.
  await page.goto(urlFor(endUser.host, '/qrcode'))
  await expect(sidebarNav(page).getByRole('link', { name: 'My QR Code' })).toHaveAttribute(
    'aria-current',
    'page',
  )

  // At 375 px the same pages collapse it into the Menu drawer, as the dashboards do.
  const phone = await browser.newContext({ viewport: { width: 375, height: 740 } })
  const small = await phone.newPage()
  await signInWithSession(small, endUser, '/contacts')
  for (const path of pages) {
    await small.goto(urlFor(endUser.host, path))
    await expect(sidebar(small), path).toBeHidden()
    await expect(small.getByRole('button', { name: 'Menu', exact: true }), path).toBeVisible()
  }
  await phone.close()

  // Signed out, the card's QR screen (or its not-found answer) stands alone.
  const visitor = await browser.newContext()
  const open = await visitor.newPage()
  await open.goto(urlFor(endUser.host, `/qrcode/${cardId}`))
  await expect(open.getByRole('main')).toBeVisible()
  await expect(open.getByTestId('sidebar')).toHaveCount(0)
  await expect(open.getByRole('button', { name: 'Menu', exact: true })).toHaveCount(0)
  // No sidebar: the header stays centred with the page's content.
  expect((await headerInsets(open)).left).toBeGreaterThan(48)
  await visitor.close()
})

test('Ctrl+B collapses the sidebar to icons, the cookie keeps it collapsed across a reload', async ({
  page,
  context,
}) => {
  await signIn(page, endUser)
  const dashboard = urlFor(endUser.host, rolePaths(endUser.role).dashboard)
  await expect(sidebar(page)).toHaveAttribute('data-state', 'expanded')
  expect((await sidebar(page).boundingBox())?.width).toBe(256)

  await page.keyboard.press('Control+b')
  await expect(sidebar(page)).toHaveAttribute('data-state', 'collapsed')
  await expect.poll(async () => (await sidebar(page).boundingBox())?.width).toBe(48)
  // Icons only: the labels are hidden from sight, yet every link keeps its accessible name.
  const cardsLink = sidebarNav(page).getByRole('link', { name: 'Digital Cards' })
  await expect(cardsLink).toBeVisible()
  expect((await cardsLink.boundingBox())?.width).toBeLessThanOrEqual(40)
  await expect(sidebar(page).getByRole('button', { name: 'Log out' })).toBeVisible()
  const toggle = sidebar(page).getByRole('button', { name: 'Toggle sidebar' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')

  const cookie = (await context.cookies(dashboard)).find((c) => c.name === 'sidebar_state')
  expect(cookie?.value).toBe('false')
  // Spec §9: 7 days.
  const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400
  expect(days).toBeGreaterThan(6.9)
  expect(days).toBeLessThanOrEqual(7)

  // The server renders it collapsed already: no flash of the expanded sidebar.
  const response = await page.reload()
  expect(await response?.text()).toContain('data-state="collapsed"')
  await hydrated(page)
  await expect(sidebar(page)).toHaveAttribute('data-state', 'collapsed')

  // Cmd+B (Meta) toggles too, and the button does, from the keyboard.
  await page.keyboard.press('Meta+b')
  await expect(sidebar(page)).toHaveAttribute('data-state', 'expanded')
  await toggle.focus()
  await page.keyboard.press('Enter')
  await expect(sidebar(page)).toHaveAttribute('data-state', 'collapsed')
  await page.keyboard.press('Enter')
  await expect(sidebar(page)).toHaveAttribute('data-state', 'expanded')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  const kept = (await context.cookies(dashboard)).find((c) => c.name === 'sidebar_state')
  expect(kept?.value).toBe('true')
})

test('at 375 px the sidebar is a drawer: a Menu button opens it, Escape closes it', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } })
  const page = await context.newPage()
  await signIn(page, endUser)
  await expect(sidebar(page)).toBeHidden()
  const trigger = page.getByRole('button', { name: 'Menu', exact: true })
  await trigger.click()
  const drawer = page.getByRole('dialog', { name: 'Navigation' })
  await expect(drawer).toBeVisible()
  // Spec §9: 18rem on mobile.
  expect((await drawer.boundingBox())?.width).toBe(288)
  const nav = drawer.getByRole('navigation', { name: 'Sidebar' })
  await expect(nav.getByRole('list', { name: 'Dashboard' }).getByRole('link')).toHaveText(
    sidebarNavigation(endUser.role).dashboard.map((item) => item.label),
  )
  await expect(drawer.getByTestId('sidebar-product')).toHaveText(TENANTS.alpha.name)

  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await expect(trigger).toBeFocused()

  // Following an entry closes the drawer on the new page.
  await trigger.click()
  await drawer.getByRole('link', { name: 'Digital Cards' }).click()
  await expect(page).toHaveURL(urlFor(endUser.host, rolePaths(endUser.role).digitalCards))
  await expect(drawer).toBeHidden()
  await context.close()
})

test('the first Tab reaches "Skip to content", shown on focus, which moves focus to the main content', async ({
  page,
}) => {
  await signIn(page, endUser)
  await hydrated(page)
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).not.toBeInViewport()
  await page.keyboard.press('Tab')
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.locator('main').first()).toBeFocused()
})

test("a super admin's home offers the admin screens, not an end user's tiles", async ({ page }) => {
  const admin = PLATFORM_ROLE_USERS.find((user) => user.role === 'super_admin') as RoleUser
  await signInWithSession(page, admin, '/')
  const tiles = page.getByRole('main').getByRole('link')
  // One tile per sidebar screen past Overview (Analytics among them, ADR 082).
  await expect(tiles).toHaveCount(sidebarNavigation(admin.role).dashboard.length - 1)
  for (const item of sidebarNavigation(admin.role).dashboard.slice(1)) {
    await expect(
      page.getByRole('main').getByRole('link', { name: new RegExp(`^${item.label}`) }),
    ).toHaveAttribute('href', item.to)
  }
  await expect(page.getByRole('link', { name: /^Update Profile/ })).toHaveCount(0)
})
