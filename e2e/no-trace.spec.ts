// No trace of the platform on an agency's host (issue 17 point 4): every page each of Alpha's
// roles can reach from its dashboard, profile and settings (links followed breadth-first), the
// pages a visitor reaches, the files they download (vCard, QR, CSV exports, the logo) and the
// emails the agency's people get. Every body and header is searched for the platform's name, the
// product's name and the platform's own host (the root domain itself, not a subdomain of it).
import { type Browser, expect, type Page, test } from '@playwright/test'
import { rolePaths } from '#app/auth/roles'
import { CARD_OWNER, HOSTS, SUPER_ADMIN, TENANTS, urlFor } from './fixtures'
import { signInOn, waitForHydration } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'

test.describe.configure({ timeout: 240_000 })

/** What must not appear: the platform organization's name, the product's, the root host. */
const TRACES: { name: string; pattern: RegExp }[] = [
  { name: 'platform name', pattern: new RegExp(TENANTS.platform.name, 'i') },
  { name: 'product name', pattern: /brandcard/i },
  // localhost is the e2e root domain: alpha.localhost is the agency's own host, a bare
  // "localhost" (or a URL on it) would be the platform's.
  { name: 'root domain', pattern: /(?<![\w.-])localhost(?![\w-])/i },
]

type Fetched = { url: string; status: number; type: string; headers: string; body: string }

/** A same-origin GET made by the page itself (the browser resolves *.localhost, Node does not). */
async function fetchFromPage(page: Page, url: string): Promise<Fetched> {
  return page.evaluate(async (target) => {
    const response = await fetch(target, { credentials: 'same-origin', redirect: 'follow' })
    const type = response.headers.get('content-type') ?? ''
    const headers = [...response.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')
    let body: string
    if (
      /^(text|application\/(json|javascript|xml|manifest)|image\/svg)/.test(type) ||
      /vcard|csv/.test(type)
    ) {
      body = await response.text()
    } else {
      // Binary files (PNG, ICO): their bytes as Latin-1, where metadata text would show.
      const bytes = new Uint8Array(await response.arrayBuffer())
      body = Array.from(bytes, (byte) => String.fromCharCode(byte)).join('')
    }
    return { url: response.url, status: response.status, type, headers, body }
  }, url)
}

function tracesIn(fetched: Fetched) {
  const found: string[] = []
  for (const { name, pattern } of TRACES) {
    for (const [part, text] of [
      ['headers', fetched.headers],
      ['body', fetched.body],
    ] as const) {
      const match = pattern.exec(text)
      if (match) {
        const around = text
          .slice(Math.max(0, match.index - 60), match.index + 60)
          .replace(/\s+/g, ' ')
        found.push(`${fetched.url} (${part}): ${name} in "…${around}…"`)
      }
    }
  }
  return found
}

/** Same-origin hrefs and script/style/icon sources of an HTML document, fragments dropped. */
function linksIn(html: string, base: string) {
  const origin = new URL(base).origin
  const urls = new Set<string>()
  for (const match of html.matchAll(/(?:href|src)="([^"]+)"/g)) {
    const raw = (match[1] ?? '').replace(/&amp;/g, '&')
    if (raw.startsWith('data:') || raw.startsWith('mailto:') || raw.startsWith('tel:')) continue
    let url: URL
    try {
      url = new URL(raw, base)
    } catch {
      continue
    }
    if (url.origin !== origin) continue
    url.hash = ''
    urls.add(url.toString())
  }
  return [...urls]
}

// Links that change state when followed by GET, or end the session being crawled.
const SKIP = [/\/auth\/logout/, /\/email\/unsubscribe/, /\/invitations\//]

async function crawl(page: Page, starts: string[], limit = 80) {
  const queue = [...starts]
  const seen = new Set<string>(queue)
  const problems: string[] = []
  let visited = 0
  while (queue.length > 0 && visited < limit) {
    const url = queue.shift() as string
    visited += 1
    const fetched = await fetchFromPage(page, url)
    problems.push(...tracesIn(fetched))
    if (!fetched.type.startsWith('text/html')) continue
    for (const next of linksIn(fetched.body, fetched.url)) {
      if (seen.has(next) || SKIP.some((pattern) => pattern.test(next))) continue
      seen.add(next)
      queue.push(next)
    }
  }
  return { problems, visited }
}

async function anonymousPage(browser: Browser) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
  return { context, page }
}

test.describe('no trace of the platform on an agency host', () => {
  for (const user of ALPHA_ROLE_USERS) {
    test(`${user.role}: every page reachable from the dashboard, profile and settings`, async ({
      browser,
    }) => {
      const paths = rolePaths(user.role)
      const { context, page } = await signInOn(browser, HOSTS.alpha, user, paths.dashboard)
      const { problems, visited } = await crawl(page, [
        urlFor(HOSTS.alpha, paths.dashboard),
        urlFor(HOSTS.alpha, '/profile'),
        urlFor(HOSTS.alpha, '/settings'),
        urlFor(HOSTS.alpha, '/no-such-page'),
      ])
      await context.close()
      expect(visited).toBeGreaterThan(5)
      expect(problems).toEqual([])
    })
  }

  test('a visitor: home, sign-in, sign-up, reset, the card page and its files, a 404', async ({
    browser,
  }) => {
    const { context, page } = await anonymousPage(browser)
    const owner = await browser.newContext()
    const ownerPage = await owner.newPage()
    await ownerPage.goto(urlFor(HOSTS.alpha, '/auth/login'))
    await waitForHydration(ownerPage)
    await ownerPage.getByLabel('Email').fill(CARD_OWNER.email)
    await ownerPage.getByLabel('Password').fill(CARD_OWNER.password)
    await ownerPage.getByRole('button', { name: 'Sign In' }).click()
    await ownerPage.waitForURL(/\/dashboard\//)
    await ownerPage.goto(urlFor(HOSTS.alpha, '/qrcode'))
    const cardLink = await ownerPage
      .locator('a[href*="/card/"], input[value*="/card/"]')
      .first()
      .evaluate((element) =>
        element instanceof HTMLInputElement ? element.value : (element as HTMLAnchorElement).href,
      )
    await owner.close()
    const cardPath = new URL(cardLink).pathname
    const { problems, visited } = await crawl(page, [
      urlFor(HOSTS.alpha, '/'),
      urlFor(HOSTS.alpha, '/auth/login'),
      urlFor(HOSTS.alpha, '/auth/register'),
      urlFor(HOSTS.alpha, '/auth/forgot-password'),
      urlFor(HOSTS.alpha, cardPath),
      urlFor(HOSTS.alpha, `${cardPath}/vcard`),
      urlFor(HOSTS.alpha, `${cardPath}/qr.png`),
      urlFor(HOSTS.alpha, `${cardPath}/qr.svg`),
      urlFor(HOSTS.alpha, '/favicon.ico'),
      urlFor(HOSTS.alpha, '/no-such-page'),
      urlFor(HOSTS.alpha, '/card/no-such-card'),
    ])
    await context.close()
    expect(visited).toBeGreaterThan(8)
    expect(problems).toEqual([])
  })

  test("the agency's emails: a password reset asked on its host", async ({ browser }) => {
    const person = ALPHA_ROLE_USERS.find((user) => user.role === 'end_user')
    if (!person) throw new Error('no Alpha end user')
    const { context, page } = await anonymousPage(browser)
    await page.goto(urlFor(HOSTS.alpha, '/auth/forgot-password'))
    await waitForHydration(page)
    await page.getByLabel('Email').fill(person.email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(page.getByText('Password reset link sent! Please check your email.')).toBeVisible()
    await context.close()

    // The super admin reads the outbox on the platform host (OUTBOX_PAGE=1): only the email's
    // own subject and content are searched, not the outbox page around it.
    const admin = await signInOn(browser, HOSTS.platform, SUPER_ADMIN, '/dashboard/super-admin')
    await admin.page.goto(urlFor(HOSTS.platform, '/dev/outbox'))
    const email = admin.page.getByTestId('outbox-email').filter({ hasText: person.email }).first()
    await expect(email).toBeVisible()
    const html = (await email.locator('iframe').getAttribute('srcdoc')) ?? ''
    const subject = (await email.locator('iframe').getAttribute('title')) ?? ''
    await admin.context.close()
    expect(html).toContain(TENANTS.alpha.name)
    const problems = tracesIn({
      url: 'reset email',
      status: 200,
      type: 'text/html',
      headers: subject,
      body: html,
    })
    expect(problems).toEqual([])
  })
})
