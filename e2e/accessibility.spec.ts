// Accessibility checked by axe-core against WCAG 2.2 A and AA, in this one spec (feature specs
// do not run axe, ADR 034): every page a role reaches from home, its dashboard and its profile
// (one link away), signed out pages, the profile and settings tabs, the open user menu, the
// dialogs and other states the screens open into (STATES below), and a phone-sized viewport with
// the sidebar's drawer open. Any violation fails the test with a readable list.
// The same crawl finds dead ends (issue 12, point 2; was dead-ends.spec.ts, ADR 034): signed in
// as each role, every same-origin link on home, the role's dashboard and its profile (every
// tab), and every entry of the user menu answers below 400 with that role's session, and none
// sends a signed-in user back to the sign-in page.
// And no page scrolls sideways (issue 30 point 3; was no-sideways-scroll.spec.ts, ADR 110): each
// page and tab state the crawl audits is measured at 375, 768 and 1280 px where it stands, with a
// screenshot of each kept as the run's artifacts (e2e/page-widths.ts), and every page the role's
// navigation offers must be among them. It runs on the production project when there is one
// (playwright.config.ts): every role's pages read by the app login from Postgres.
import { type Browser, expect, type Page, type Request, test } from '@playwright/test'
import { rolePaths } from '#app/validation/roles'
import { axeViolations } from './axe'
import { HOSTS, TENANTS, urlFor } from './fixtures'
import { navigateInApp, reportCommits } from './in-app-navigation'
import { animationsSettled, sessionOf, waitForHydration } from './page-helpers'
import { checkWidths, navigationPagesOf, WIDTHS } from './page-widths'
import { ALPHA_ROLE_USERS, PLATFORM_ROLE_USERS, ROLE_USERS, type RoleUser } from './role-users'

// A crawl of one role visits a few dozen pages, each judged by axe (one to three seconds a page
// on two cores while another worker crawls too; ten and more on a machine shared with other
// work, where three crawls ran past six minutes); the agency admin's area has grown to eight screens.
test.describe.configure({ timeout: 1_800_000 })

type Report = {
  checked: string[]
  skipped: string[]
  problems: string[]
  /** Pages and states wider than the viewport at one of WIDTHS. */
  wide: string[]
  /** The paths measured at every width. */
  measured: Set<string>
}
const newReport = (): Report => ({
  checked: [],
  skipped: [],
  problems: [],
  wide: [],
  measured: new Set(),
})

/** Measures the page as it stands at every width, and notes its path as measured. */
async function measureWidths(page: Page, report: Report, label: string) {
  await checkWidths(page, label, report.wide)
  report.measured.add(new URL(page.url()).pathname)
}

/**
 * Runs axe on the page as it is now and records each violation as readable lines. `only` limits
 * it to the parts that changed since the whole page was audited (a tab's list and panel).
 */
async function audit(page: Page, report: Report, label: string, only: string[] = []) {
  // Colours are judged as they end up, not halfway through a fade (toasts, menus).
  await animationsSettled(page)
  const violations = await axeViolations(page, { include: only })
  report.checked.push(label)
  for (const violation of violations) {
    const targets = violation.nodes
      .map((node) => {
        const why = [...node.any, ...node.all, ...node.none].find((check) => check.message)
        return `      ${node.target.join(' ')}${why ? `: ${why.message}` : ''}`
      })
      .join('\n')
    report.problems.push(
      `${label}\n  ${violation.id} (${violation.impact ?? 'unknown impact'}): ${violation.help}\n${targets}`,
    )
  }
}

function expectClean(report: Report) {
  test
    .info()
    .annotations.push(
      { type: 'checked', description: report.checked.join(', ') },
      ...(report.skipped.length
        ? [{ type: 'skipped', description: report.skipped.join(', ') }]
        : []),
    )
  expect(
    report.problems.length,
    `axe found WCAG 2.2 AA violations:\n\n${report.problems.join('\n\n')}\n`,
  ).toBe(0)
  expect(report.wide, `pages wider than the viewport at ${WIDTHS.join(', ')} px`).toEqual([])
}

/**
 * Loads a page and waits until the app has hydrated (Radix widgets need their scripts), or on a
 * page served without React (a visitor's card page, ADR 022) its script has run.
 */
async function open(page: Page, url: string) {
  const response = await page.goto(url)
  await waitForHydration(page)
  return response
}

/**
 * Opens a page of the app (`app`: rendered by Remix, not a card page served without React) the
 * way its links do, in the document already loaded (ADR 121): what axe and the widths judge is
 * the page React renders either way, without loading the app's scripts and axe's again for each
 * one. Anything else, or the first page of the context, is loaded as a new document.
 */
async function visit(page: Page, url: string, { app }: { app: boolean }) {
  const inApp =
    app &&
    new URL(page.url()).origin === new URL(url).origin &&
    (await page.evaluate(() => '__remixRouter' in window))
  if (inApp) await navigateInApp(page, url)
  else await open(page, url)
}

/** Same-origin link targets on the page (fragment dropped), as absolute URLs. */
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

async function signIn(page: Page, user: RoleUser) {
  await open(page, urlFor(user.host, '/auth/login'))
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(urlFor(user.host, rolePaths(user.role).dashboard))
}

/** The user menu's entries, in order: every one but 'Log out' (a POST) is a link to request. */
const MENU_ITEMS = ['Dashboard', 'Profile', 'Digital Cards', 'Contacts', 'Settings', 'Log out']

async function expectMenuItems(page: Page) {
  const items = await page.getByRole('menu').getByRole('menuitem').allTextContents()
  expect(items.map((item) => item.trim())).toEqual(MENU_ITEMS)
}

/** Opens the user menu, audits it (and with `items`, checks its entries), returns its links. */
async function auditUserMenu(
  page: Page,
  report: Report,
  label: string,
  { items = false }: { items?: boolean } = {},
) {
  const trigger = page.getByTestId('user-menu-trigger')
  await trigger.click()
  await expect(page.getByRole('menu')).toBeVisible()
  if (items) await expectMenuItems(page)
  await audit(page, report, `${label} (user menu open)`)
  const links = await sameOriginLinks(page)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('menu')).toBeHidden()
  return links
}

/**
 * Every tab of a tabbed page (the profiles, the settings) selected in turn, each panel state
 * checked (without `report`, only selected). Selecting a tab changes only the tab list and the
 * panel, and the page around them was audited as loaded: axe reads those two, about half the
 * cost of a whole page on two cores. Returns the links each tab state shows: an inactive panel
 * is not in the page until chosen.
 */
async function auditTabs(page: Page, report: Report | undefined, label: string) {
  const tabs = page.getByRole('tab')
  const count = await tabs.count()
  const links: string[] = []
  // Choosing a tab loads nothing of the page again (one navigation per click, and the layouts
  // keep their data: app/utils/tab-navigation.ts), except a panel loaded on demand (User
  // Accounts, its route alone). A panel's own fetcher (another path) is its business.
  const pagePath = new URL(page.url()).pathname
  const loads: string[] = []
  const onRequest = (request: Request) => {
    const url = new URL(request.url())
    // Single fetch: one `.data` request, naming the routes it loads when not all of them.
    if (url.pathname === `${pagePath}.data`)
      loads.push(url.searchParams.get('_routes') ?? 'every route')
  }
  page.on('request', onRequest)
  for (let index = 0; index < count; index++) {
    const tab = tabs.nth(index)
    const name = (await tab.textContent())?.trim() ?? `tab ${index + 1}`
    const href = await tab.getAttribute('href')
    // The tab already chosen stays as it is: nothing navigates.
    const moves = (await tab.getAttribute('aria-selected')) !== 'true'
    loads.length = 0
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
    if (moves && href?.startsWith('?tab=')) {
      await expect(page).toHaveURL(new RegExp(`[?&]tab=${href.slice(5)}(&|$)`))
      const onDemand = href === '?tab=accounts'
      expect(
        loads.filter((load) => !(onDemand && /^routes\/profile\.[\w-]+$/.test(load))),
        `choosing ${name} loads nothing of the page again`,
      ).toEqual([])
    }
    await expect(page.getByRole('tabpanel')).toBeVisible()
    links.push(...(await sameOriginLinks(page)))
    if (report) {
      await audit(page, report, `${label} (tab ${name})`, ['[role="tablist"]', '[role="tabpanel"]'])
      // The tab chosen as the page loaded was measured with the page.
      if (moves) await checkWidths(page, `${label} (tab ${name})`, report.wide)
    }
  }
  page.off('request', onRequest)
  return links
}

/** `app`: an HTML page the app's router renders (its document carries Remix's context). */
type Probe = { status: number; type: string; landed: string; app: boolean }

/**
 * Status (after redirects), content type and final path of a URL, fetched by the page itself
 * with its session: the browser resolves tenant hosts such as alpha.localhost, Node's does not.
 */
function probe(page: Page, url: string): Promise<Probe> {
  return page.evaluate(async (target) => {
    const response = await fetch(target, { credentials: 'same-origin' })
    const type = response.headers.get('content-type') ?? ''
    return {
      status: response.status,
      type,
      landed: new URL(response.url).pathname,
      app:
        response.ok &&
        type.startsWith('text/html') &&
        (await response.text()).includes('window.__remixContext'),
    }
  }, url)
}

/**
 * Where a role looks for links that must open: home, its dashboard and its one profile
 * (/profile leads to it, ADR 078).
 */
function linkStarts(role: RoleUser['role']) {
  const paths = rolePaths(role)
  return ['/', paths.dashboard, paths.profile]
}

/** Links that must open, each with where it was first seen. */
type Found = Map<string, string>

function note(found: Found, links: string[], where: string) {
  for (const link of links) if (!found.has(link)) found.set(link, where)
}

/**
 * No dead end: each link found answers below 400 with the role's session and does not send it
 * back to sign in. Links the crawl already requested are judged on that answer (`probed`).
 */
async function expectNoDeadEnds(
  page: Page,
  user: RoleUser,
  found: Found,
  probed: Map<string, Probe>,
) {
  const paths = rolePaths(user.role)
  // The entries issue 12 names must be among them.
  const pathnames = [...found.keys()].map((url) => new URL(url).pathname)
  for (const must of ['/contacts', paths.digitalCards, paths.profile, paths.dashboard]) {
    expect(pathnames).toContain(must)
  }
  const dead: string[] = []
  for (const [url, where] of found) {
    const { status, landed } = probed.get(url) ?? (await probe(page, url))
    if (status >= 400) dead.push(`${url} (on ${where}): ${status}`)
    else if (landed === '/auth/login' && new URL(url).pathname !== '/auth/login') {
      dead.push(`${url} (on ${where}): sent back to sign in`)
    }
  }
  test.info().annotations.push({ type: 'requested', description: [...found.keys()].join(' ') })
  expect(dead, `links that lead nowhere for ${user.role}`).toEqual([])
  expect(found.size).toBeGreaterThan(8)
}

/**
 * What the page shows, without the attributes that only name it (generated ids, the form actions
 * that point at the page's own path) or that say how it got there (inline styles Radix sets once
 * an animation has run, written `outline:none` by the server and `outline: none;` by React, and
 * attributes in the order either wrote them): two paths rendering the same screen from the same
 * module (`/settings/agency` and `/dashboard/agency/settings`) give the same answer, however each
 * was opened, and axe would say the same of both.
 */
function screenOf(page: Page) {
  return page.evaluate(() => {
    const ignored = /^(id|for|action|aria-[a-z]+|data-state|style)$/
    const serialize = (node: Node): string => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? ''
      if (!(node instanceof Element)) return ''
      const attributes = [...node.attributes]
        .filter((attribute) => !ignored.test(attribute.name))
        .map((attribute) => ` ${attribute.name}="${attribute.value}"`)
        .sort()
        .join('')
      return `<${node.localName}${attributes}>${[...node.childNodes].map(serialize).join('')}</${node.localName}>`
    }
    return serialize(document.querySelector('main') ?? document.body)
  })
}

type State = (page: Page, report: Report, label: string) => Promise<void>

/** Opens a dialog with `open`, audits it, then closes it with Escape. */
async function auditDialog(
  page: Page,
  report: Report,
  label: string,
  name: string,
  open: () => Promise<void>,
  role: 'dialog' | 'alertdialog' = 'dialog',
) {
  await open()
  const dialog = page.getByRole(role, { name })
  await expect(dialog).toBeVisible()
  // Judged at rest: the pointer left where the opening click was may be over the dialog's own
  // button (hover:opacity-90), and Chromium applies the hover whenever its next frame comes.
  await page.mouse.move(0, 0)
  await audit(page, report, `${label} (${name} dialog)`)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
}

const rowActions = async (page: Page, row: string, item: string) => {
  await page.getByRole('button', { name: `Actions for ${row}` }).click()
  await page.getByRole('menuitem', { name: item }).click()
}

/**
 * Paths that show one screen (one route module, re-exported): the crawl audits whichever it
 * reaches first and skips the other as the same screen, so a state named for one runs on either.
 */
const SAME_SCREEN: Record<string, string> = {
  '/settings/end-user': '/dashboard/end-user/settings',
}

/**
 * The states a screen opens into, audited with the screen (once per path, for the role named):
 * the dialogs the feature specs open, the collapsed sidebar, the dark theme, an empty search.
 * Each leaves the page and the data as it found them (dialogs cancelled, the theme put back).
 */
/**
 * A contact's page, two links from the crawl's starts (issue 41 point 12): opened from the
 * list's first contact (role-users.ts gives the crawled end-user area one), then back.
 */
const contactPage: State = async (page, report, label) => {
  await page.getByTestId('contact-row').first().getByRole('link').click()
  await expect(page).toHaveURL(/\/contacts\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('switch')).toBeVisible()
  await audit(page, report, `${label} (a contact's page)`)
  await measureWidths(page, report, '/contacts/{contactId}')
  await page.goBack()
  await expect(page).toHaveURL(/\/contacts$/)
}

const STATES: Partial<Record<RoleUser['role'], Record<string, State>>> = {
  super_admin: {
    '/dashboard/super-admin/agencies': async (page, report, label) => {
      await auditDialog(page, report, label, 'Add Agency', () =>
        page.getByRole('button', { name: 'Add Agency' }).click(),
      )
      await auditDialog(page, report, label, 'Agency Details', () =>
        rowActions(page, TENANTS.alpha.name, 'View Details'),
      )
      // Cancelled: the dormant agency is left as it is.
      await auditDialog(
        page,
        report,
        label,
        'Delete Agency',
        () => rowActions(page, 'Dormant', 'Delete'),
        'alertdialog',
      )
    },
    '/dashboard/super-admin/users': async (page, report, label) => {
      await auditDialog(page, report, label, 'Edit User', async () => {
        await page
          .getByRole('button', { name: /^Actions for / })
          .first()
          .click()
        await page.getByRole('menuitem', { name: 'Edit' }).click()
      })
    },
    '/dashboard/super-admin/team': async (page, report, label) => {
      await auditDialog(page, report, label, 'Add Team Member', async () => {
        await page.getByRole('button', { name: 'Add Team Member' }).click()
        // With the form's messages showing: sent empty, the schema refuses and adds nobody.
        const dialog = page.getByRole('dialog', { name: 'Add Team Member' })
        await dialog.getByRole('button', { name: 'Add Member' }).click()
        await expect(dialog.getByText(/must be at least|valid email/).first()).toBeVisible()
      })
    },
    '/profile/super-admin': async (page, report, label) => {
      await open(page, urlFor(HOSTS.platform, '/profile?tab=accounts&q=nothing-matches-this'))
      await expect(page.getByText('No user accounts match your search')).toBeVisible()
      await audit(page, report, `${label} (tab User Accounts, no match)`)
    },
  },
  agency_admin: {
    // The dialogs agency-people.spec.ts opens, with the form's messages showing: sent empty, the
    // schema refuses and adds nobody.
    '/dashboard/agency/team': async (page, report, label) => {
      await auditDialog(page, report, label, 'Add Team Member', async () => {
        await page.getByRole('button', { name: 'Add Team Member' }).click()
        const dialog = page.getByRole('dialog', { name: 'Add Team Member' })
        await dialog.getByRole('button', { name: 'Add Member' }).click()
        await expect(dialog.getByText(/must be at least|valid email/).first()).toBeVisible()
      })
      // ADR 051: a team member's plan, granted by the agency (Team Member Basic).
      await auditDialog(page, report, label, 'Change Plan', async () => {
        await page
          .getByRole('row')
          .filter({ hasText: 'Theo Team' })
          .getByRole('button', { name: /^Actions for / })
          .click()
        await page.getByRole('menuitem', { name: 'Change Plan' }).click()
      })
    },
    // The compose form with its messages showing: sent empty, the schema refuses, nothing goes.
    // With nobody opted in the button cannot be pressed, and the line above it says why.
    '/dashboard/agency/announcements': async (page, report, label) => {
      const send = page.getByRole('button', { name: /^Send to/ })
      if (await send.isDisabled()) {
        await expect(send).toHaveAccessibleDescription(/nobody to send to|most allowed today/)
        return
      }
      await send.click()
      await expect(page.getByText('Subject is required')).toBeVisible()
      await audit(page, report, `${label} (form messages)`)
    },
    '/dashboard/agency/users': async (page, report, label) => {
      await auditDialog(page, report, label, 'Add User', async () => {
        await page.getByRole('button', { name: 'Add User' }).click()
        const dialog = page.getByRole('dialog', { name: 'Add User' })
        await dialog.getByRole('button', { name: 'Add User' }).click()
        await expect(dialog.getByText(/must be at least|valid email/).first()).toBeVisible()
      })
      // ADR 049: the default forwarding, refused without its URL (nothing saved), and Hand Over.
      await auditDialog(page, report, label, 'When Someone Leaves', async () => {
        await page.getByRole('button', { name: 'When Someone Leaves' }).click()
        const dialog = page.getByRole('dialog', { name: 'When Someone Leaves' })
        await dialog.getByLabel('Our contact page').check()
        await dialog.getByLabel('Contact page URL').fill('')
        await dialog.getByRole('button', { name: 'Save' }).click()
        await expect(
          dialog.getByText('Please enter a valid URL starting with https://'),
        ).toBeVisible()
      })
      await auditDialog(page, report, label, 'Hand Over', async () => {
        await page
          .getByRole('button', { name: /^Actions for / })
          .first()
          .click()
        await page.getByRole('menuitem', { name: 'Hand Over' }).click()
      })
    },
  },
  // The end-user area in the dark theme (role-users.ts).
  super_admin_team: { '/contacts': contactPage },
  end_user: {
    '/contacts': contactPage,
    // ADR 053: the confirmation of "Delete my account", cancelled (Escape).
    '/profile/end-user': async (page, report, label) => {
      await page.getByRole('tab', { name: 'Security' }).click()
      await auditDialog(
        page,
        report,
        label,
        'Delete your account?',
        () => page.getByRole('button', { name: 'Delete My Account' }).click(),
        'alertdialog',
      )
    },
    '/dashboard/end-user': async (page, report, label) => {
      const sidebar = page.getByTestId('sidebar')
      await page.keyboard.press('Control+b')
      await expect(sidebar).toHaveAttribute('data-state', 'collapsed')
      await audit(page, report, `${label} (sidebar collapsed)`)
      await page.keyboard.press('Control+b')
      await expect(sidebar).toHaveAttribute('data-state', 'expanded')
    },
    '/dashboard/end-user/team': async (page, report, label) => {
      // No plan yet: the plans and the confirm dialog (a request to the admins, teams.spec.ts).
      await auditDialog(page, report, label, 'Confirm Upgrade', () =>
        page.getByRole('button', { name: 'Upgrade to Team Basic' }).click(),
      )
    },
    '/dashboard/end-user/settings': async (page, report, label) => {
      const appearance = async (theme: string) => {
        await page.getByRole('tab', { name: 'Appearance' }).click()
        await page.getByLabel('Theme').selectOption(theme)
        await page.getByRole('tabpanel').getByRole('button', { name: 'Save Changes' }).click()
        await expect(page.getByText('Appearance settings saved successfully').first()).toBeVisible()
      }
      await appearance('dark')
      await expect(page.locator('html')).toHaveClass(/\bdark\b/)
      await open(page, page.url())
      await audit(page, report, `${label} (dark theme)`)
      await auditUserMenu(page, report, `${label} (dark theme)`)
      await appearance('light')
      await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
      // Its toast outlasts the in-app navigations that follow, as the sign-in's does: fading on
      // its own timer, it was judged halfway through by axe on the next page (/offline, 2.22:1).
      // The crawl goes on once it is gone, the pointer off it.
      await page.mouse.move(0, 0)
      await expect(page.getByText('Appearance settings saved successfully')).toBeHidden()
    },
  },
}

function pathOf(url: string) {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

/**
 * The crawls that sign in through the form, to audit the dashboard as sign-in leaves it, with its
 * toast: one per host (the toast takes the tenant's colours). The others start from the session
 * made in the database (e2e/sessions.ts).
 */
const SIGNS_IN: RoleUser['role'][] = ['super_admin', 'end_user']

async function crawlAs(browser: Browser, user: RoleUser) {
  const signsIn = SIGNS_IN.includes(user.role)
  const context = await browser.newContext(signsIn ? {} : { storageState: sessionOf(user) })
  await reportCommits(context)
  const page = await context.newPage()
  const report = newReport()
  if (signsIn) {
    await signIn(page, user)
    await expect(page.getByText('Signed in successfully!')).toBeVisible()
    await audit(page, report, `${rolePaths(user.role).dashboard} (signed-in toast)`)
    // The toast lives in the root layout, so it outlasts the in-app navigations that follow
    // (ADR 121) and fades on its own timer: halfway through that fade, axe judged its colours on
    // the next page (4.29:1, on a slow host). The crawl goes on once it is gone, as a user sees
    // the pages after it; the pointer stays off it, since hovering a toast holds its timer.
    await page.mouse.move(0, 0)
    await expect(page.getByText('Signed in successfully!')).toBeHidden()
  }

  const starts = linkStarts(user.role)
  const visited = new Set<string>()
  const tabbed = new Set<string>()
  const linked = new Set<string>()
  const screens = new Map<string, string>()
  const statesSeen = new Set<string>()
  // Links that must not be dead ends, and what the crawl's own requests answered.
  const found: Found = new Map()
  const probed = new Map<string, Probe>()
  /** Axe on the page as loaded, then on each tab state once per path; the tabs' links. */
  async function auditPage(label: string) {
    await audit(page, report, label)
    await measureWidths(page, report, label)
    const { pathname } = new URL(page.url())
    if (tabbed.has(pathname)) return []
    tabbed.add(pathname)
    const tabLinks = await auditTabs(page, report, label)
    const key = SAME_SCREEN[pathname] ?? pathname
    const state = STATES[user.role]?.[key]
    if (state && !statesSeen.has(key)) {
      await state(page, report, label)
      statesSeen.add(key)
    }
    return tabLinks
  }

  for (const start of starts) {
    await visit(page, urlFor(user.host, start), { app: true })
    expect(new URL(page.url()).pathname, `${start} opens for ${user.email}`).toBe(start)
    // A dark account's crawl is the dark theme's audit of every page it reaches.
    if (user.theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    visited.add(pathOf(page.url()))
    const links = await sameOriginLinks(page)
    for (const link of links) linked.add(link)
    note(found, links, start)
    screens.set(await screenOf(page), start)
    if (start === '/') {
      const entries = await auditUserMenu(page, report, start, { items: true })
      for (const link of entries) linked.add(link)
      note(found, entries, 'user menu')
    }
    note(found, await auditPage(start), `${start} (tabs)`)
  }
  expect(
    tabbed.has(rolePaths(user.role).profile) &&
      report.checked.some((label) => label.includes('(tab ')),
  ).toBe(true)

  // Links found on the way are appended to the set, and iteration reaches them too.
  for (const url of linked) {
    const path = pathOf(url)
    if (visited.has(path)) continue
    visited.add(path)
    const answer = await probe(page, url)
    probed.set(url, answer)
    const { status, type } = answer
    // A dead end among the links that must open fails below; others (a card's) are left out.
    if (status >= 400) {
      report.skipped.push(`${path} (${status})`)
      continue
    }
    if (!type.startsWith('text/html')) {
      report.skipped.push(`${path} (${type.split(';')[0]}, not a page)`)
      continue
    }
    // A tabbed page opened on one of its tabs: every tab state was audited with the page.
    const parsed = new URL(url)
    if (tabbed.has(parsed.pathname) && [...parsed.searchParams.keys()].join() === 'tab') {
      report.skipped.push(`${path} (a tab of ${parsed.pathname}, audited there)`)
      continue
    }
    await visit(page, url, answer)
    const screen = await screenOf(page)
    const same = screens.get(screen)
    if (same) {
      report.skipped.push(`${path} (the same screen as ${same})`)
      // The same screen in another layout may still be wider than the viewport.
      await measureWidths(page, report, path)
      continue
    }
    screens.set(screen, path)
    await auditPage(path)
    // The cards list is where each card's editor, QR page and public page are reached from.
    if (new URL(url).pathname === rolePaths(user.role).digitalCards) {
      for (const link of await sameOriginLinks(page)) linked.add(link)
    }
  }
  // A state whose screen the crawl no longer reaches (or skips as a duplicate) must move, not vanish.
  expect([...statesSeen].sort(), 'states audited').toEqual(
    Object.keys(STATES[user.role] ?? {}).sort(),
  )
  await expectNoDeadEnds(page, user, found, probed)
  // Every page the role's navigation offers was measured: a new entry cannot go unmeasured.
  expect([...report.measured], 'pages measured at every width').toEqual(
    expect.arrayContaining(navigationPagesOf(user.role)),
  )
  await context.close()
  return report
}

// A platform team member's area is the end-user area on the same host, so an end user of the
// platform reaches exactly the pages super_admin_team does, in the same branding: one crawl covers
// both (end users are crawled on Alpha too, in an agency's branding).
const CRAWLED = ROLE_USERS.filter(
  (user) => !(user.role === 'end_user' && user.host === HOSTS.platform),
)

for (const user of CRAWLED) {
  test(`${user.role} on ${user.host}: home, dashboard, profile and every page they link to`, async ({
    browser,
  }) => {
    const report = await crawlAs(browser, user)
    console.log(
      `[a11y] ${user.role}@${user.host}\n  checked: ${report.checked.join(', ')}\n  skipped: ${report.skipped.join(', ') || 'none'}`,
    )
    expectClean(report)
  })
}

// The end user of the platform is not crawled (above), but has no dead ends either: its links
// are found and requested as in the crawls, without axe.
for (const user of ROLE_USERS.filter((candidate) => !CRAWLED.includes(candidate))) {
  test(`${user.role} on ${user.host}: every link on home, dashboard, profile and the menu opens`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ storageState: sessionOf(user) })
    const page = await context.newPage()
    const found: Found = new Map()
    for (const start of linkStarts(user.role)) {
      await open(page, urlFor(user.host, start))
      expect(new URL(page.url()).pathname, `${start} opens for ${user.email}`).toBe(start)
      note(found, await sameOriginLinks(page), start)
      note(found, await auditTabs(page, undefined, start), `${start} (tabs)`)
      if (start === '/') {
        await page.getByTestId('user-menu-trigger').click()
        await expect(page.getByRole('menu')).toBeVisible()
        await expectMenuItems(page)
        note(found, await sameOriginLinks(page), 'user menu')
        await page.keyboard.press('Escape')
      }
    }
    await expectNoDeadEnds(page, user, found, new Map())
    // Its pages are measured at every width in the platform team member's crawl.
    expect(navigationPagesOf('super_admin_team')).toEqual(
      expect.arrayContaining(navigationPagesOf(user.role)),
    )
    await context.close()
  })
}

test('signed-in home at a phone width (375 px), with the user menu and the sidebar drawer open', async ({
  browser,
}) => {
  const user = ALPHA_ROLE_USERS.find((candidate) => candidate.role === 'end_user')
  if (!user) throw new Error('no Alpha end user')
  const context = await browser.newContext({
    viewport: { width: 375, height: 740 },
    storageState: sessionOf(user),
  })
  const page = await context.newPage()
  const report = newReport()
  await open(page, urlFor(user.host, '/'))
  await audit(page, report, '/ at 375 px')
  await auditUserMenu(page, report, '/ at 375 px')
  const dashboard = rolePaths(user.role).dashboard
  await open(page, urlFor(user.host, dashboard))
  await page.getByRole('button', { name: 'Menu', exact: true }).click()
  const drawer = page.getByRole('dialog', { name: 'Navigation' })
  await expect(drawer).toBeVisible()
  await audit(page, report, `${dashboard} at 375 px (sidebar drawer open)`)
  await context.close()
  expectClean(report)
})

for (const [host, owner] of [
  [HOSTS.platform, PLATFORM_ROLE_USERS.find((user) => user.role === 'end_user')],
  [HOSTS.alpha, ALPHA_ROLE_USERS.find((user) => user.role === 'end_user')],
] as const) {
  test(`signed out on ${host}: home, sign-in, sign-up, reset, pricing, the accessibility statement, a public card, not found`, async ({
    page,
  }) => {
    if (!owner) throw new Error(`no end user on ${host}`)
    const report = newReport()
    for (const path of [
      '/',
      '/auth/login',
      '/auth/register',
      '/auth/forgot-password',
      '/auth/reset-password',
      '/auth/confirm-email',
      '/pricing',
      // The statement lists this test's pages (ADR 100): it is one of them.
      '/accessibility',
      '/no-such-page',
      '/card/00000000-0000-4000-8000-000000000000',
    ]) {
      await open(page, urlFor(host, path))
      await audit(page, report, path)
    }
    // Forms showing their validation errors (checked in the browser: no sign-in attempt is spent).
    await open(page, urlFor(host, '/auth/login'))
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByLabel('Password').fill('123')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect(page.getByText('Please enter a valid email address')).toBeVisible()
    await audit(page, report, '/auth/login (errors)')
    await open(page, urlFor(host, '/auth/register'))
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByText('First name must be at least 2 characters')).toBeVisible()
    await audit(page, report, '/auth/register (errors)')

    // The card by its owner's name, then by the short link its canonical link gives (ADR 041).
    await open(page, urlFor(host, `/card/${owner.firstName}-${owner.lastName}`.toLowerCase()))
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href')
    expect(canonical, 'the public card page names its canonical URL').toMatch(/\/c\/[a-z0-9-]+$/)
    const cardPath = new URL(canonical ?? '').pathname
    await open(page, urlFor(host, cardPath))
    await audit(page, report, cardPath)
    expectClean(report)
  })
}
