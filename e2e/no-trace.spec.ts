// No trace of the platform on an agency's host (issue 17 point 4): every page each of Alpha's
// roles can reach from its dashboard, profile and settings (links followed breadth-first, to the
// end), the pages a visitor reaches, the files they download (vCard, QR, the CSV and vCard
// exports, the logo, uploaded images) and every email the agency's people can cause on its host.
// Every body and header (Set-Cookie and Content-Disposition included) is searched for the
// platform's name, the product's name and the platform's own host (the root domain itself, not a
// subdomain of it).
import {
  type Browser,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test'
import sharp from 'sharp'
import { rolePaths } from '#app/validation/roles'
import { CARD_OWNER, HOSTS, SUPER_ADMIN, TENANTS, urlFor } from './fixtures'
import { openSignedIn, sessionOf, signedInAs, waitForHydration } from './page-helpers'
import { type Fetched, tracesIn } from './platform-traces'
import { ALPHA_ROLE_USERS, type RoleUser } from './role-users'
import { confirmEmailOnAlpha, grantPlanOnAlpha } from './team-owner'

test.describe.configure({ timeout: 720_000 })

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

// Links that change state when followed by GET, or end the session being crawled, or leave the
// origin (Google Wallet's save link redirects to Google: its JWT is checked in
// tests/integration/google-wallet.test.ts).
const SKIP = [/\/auth\/logout/, /\/email\/unsubscribe/, /\/invitations\//, /\/google-wallet$/]

/**
 * Fetches every same-origin link breadth-first until none is new. The limit only guards against
 * a page that makes endless links: the caller checks that the queue ran dry (an earlier cut-off
 * at 80 fetches, most of them script chunks, stopped before the CSV exports were reached).
 */
async function crawl(page: Page, starts: string[], limit = 600) {
  const queue = [...starts]
  const seen = new Set<string>(queue)
  const problems: string[] = []
  const files = new Map<string, Fetched>()
  let visited = 0
  while (queue.length > 0 && visited < limit) {
    const url = queue.shift() as string
    visited += 1
    const fetched = await fetchFromPage(page, url)
    problems.push(...tracesIn(fetched))
    if (!fetched.type.startsWith('text/html')) {
      files.set(new URL(url).pathname, fetched)
      continue
    }
    for (const next of linksIn(fetched.body, fetched.url)) {
      if (seen.has(next) || SKIP.some((pattern) => pattern.test(next))) continue
      seen.add(next)
      queue.push(next)
    }
  }
  return { problems, visited, unvisited: queue.length, files }
}

/**
 * Every response to the agency's host that a context receives, headers only, searched as the
 * crawl searches bodies. Playwright's network events carry Set-Cookie, which a page's fetch()
 * never shows, so cookie names are judged here.
 */
function watchHeaders(context: BrowserContext, host = HOSTS.alpha) {
  const pending: Promise<string[]>[] = []
  context.on('response', (response) => {
    if (new URL(response.url()).hostname !== host) return
    pending.push(
      response.headersArray().then((headers) =>
        tracesIn({
          url: response.url(),
          status: response.status(),
          type: '',
          headers: headers.map(({ name, value }) => `${name}: ${value}`).join('\n'),
          body: '',
        }),
      ),
    )
  })
  return {
    count: () => pending.length,
    problems: async () => (await Promise.all(pending)).flat(),
  }
}

/**
 * Signs in on Alpha through the form in a new context whose responses are watched from the first
 * one: the sign-in's own answer (its Set-Cookie headers) is judged too.
 */
async function signInWatched(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext()
  const headers = watchHeaders(context)
  const page = await context.newPage()
  await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
  await waitForHydration(page)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).not.toHaveURL(/\/auth\/login/, { timeout: 60_000 })
  return { context, page, headers }
}

/** A new context signed in as `user` (its seeded session), watched from its first response. */
async function watchedAs(browser: Browser, user: RoleUser, path: string) {
  const context = await browser.newContext({ storageState: sessionOf(user) })
  const headers = watchHeaders(context)
  const page = await context.newPage()
  await openSignedIn(page, user, path)
  return { context, page, headers }
}

/**
 * The files each role downloads through a link on its pages (grep app/routes for text/csv):
 * the crawl must have fetched them, as the role that sees the link, with their file name.
 */
const EXPORTS: Record<RoleUser['role'], { path: string; filename: string }[]> = {
  super_admin: [],
  super_admin_team: [],
  agency_admin: [
    { path: '/dashboard/agency/users/export.csv', filename: 'end-users.csv' },
    { path: '/contacts/export.csv', filename: 'contacts.csv' },
    { path: '/contacts/export.vcf', filename: 'contacts.vcf' },
  ],
  agency_member: [
    { path: '/dashboard/agency/users/export.csv', filename: 'end-users.csv' },
    { path: '/contacts/export.csv', filename: 'contacts.csv' },
    { path: '/contacts/export.vcf', filename: 'contacts.vcf' },
  ],
  team_admin: [
    { path: '/dashboard/team-member/users.csv', filename: 'my-end-users.csv' },
    { path: '/contacts/export.csv', filename: 'contacts.csv' },
    { path: '/contacts/export.vcf', filename: 'contacts.vcf' },
  ],
  end_user: [
    { path: '/contacts/export.csv', filename: 'contacts.csv' },
    { path: '/contacts/export.vcf', filename: 'contacts.vcf' },
  ],
}

async function anonymousPage(browser: Browser) {
  const context = await browser.newContext()
  const headers = watchHeaders(context)
  const page = await context.newPage()
  await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
  return { context, page, headers }
}

const unique = () => Math.random().toString(36).slice(2, 8)

/**
 * A new end user of Alpha, signed up through the form (a confirmation email goes out), or with
 * `taken`, a sign-up with an address that has an account (its owner is told). The page is left
 * signed out either way, for the next sign-up.
 */
async function signUp(
  page: Page,
  account: { first: string; last: string; email: string },
  { taken = false } = {},
) {
  await page.goto(urlFor(HOSTS.alpha, '/auth/register'))
  await waitForHydration(page)
  await page.getByLabel('First name').fill(account.first)
  await page.getByLabel('Last name').fill(account.last)
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create Account' }).click()
  if (taken) {
    await expect(
      page.getByText('An account with this email already exists. Please sign in instead.'),
    ).toBeVisible()
    return
  }
  // Signed in by the sign-up (ADR 071), on the wizard.
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/onboarding'))
  await page.context().clearCookies()
}

const PASSWORD = 'no-trace-pass'

/** A JPEG whose metadata names the platform, as an image edited on its site might. */
function photoNamingThePlatform(background: string) {
  return sharp({ create: { width: 320, height: 320, channels: 3, background } })
    .jpeg()
    .withExif({
      IFD0: {
        Software: 'Brandcard',
        Artist: TENANTS.platform.name,
        ImageDescription: 'http://localhost/',
      },
    })
    .toBuffer()
}

type OutboxEntry = { subject: string; from: string; html: string; text: string; headers: string }

async function readEmail(email: Locator): Promise<OutboxEntry> {
  const frame = email.locator('iframe')
  const headers = email.getByTestId('outbox-headers')
  return {
    subject: (await frame.getAttribute('title')) ?? '',
    from: (await email.getByTestId('outbox-from').textContent()) ?? '',
    html: (await frame.getAttribute('srcdoc')) ?? '',
    text: (await email.getByTestId('outbox-text').textContent()) ?? '',
    headers: (await headers.count()) > 0 ? ((await headers.textContent()) ?? '') : '',
  }
}

test.describe('no trace of the platform on an agency host', () => {
  for (const user of ALPHA_ROLE_USERS) {
    test(`${user.role}: every page reachable from the dashboard, profile and settings`, async ({
      browser,
    }) => {
      const paths = rolePaths(user.role)
      const { context, page, headers } = await watchedAs(browser, user, paths.dashboard)
      const { problems, visited, unvisited, files } = await crawl(page, [
        urlFor(HOSTS.alpha, paths.dashboard),
        urlFor(HOSTS.alpha, '/profile'),
        urlFor(HOSTS.alpha, paths.settings),
        urlFor(HOSTS.alpha, '/no-such-page'),
      ])
      const cookies = await context.cookies(urlFor(HOSTS.alpha, '/'))
      await context.close()
      expect(visited).toBeGreaterThan(5)
      expect(unvisited, 'the crawl reached every link').toBe(0)
      // The exports were downloaded (bytes and headers searched above), under their own names.
      for (const { path, filename } of EXPORTS[user.role]) {
        const file = files.get(path)
        expect(file?.status, path).toBe(200)
        expect(file?.headers, path).toContain(
          `content-disposition: attachment; filename="${filename}"`,
        )
      }
      expect(cookies.length).toBeGreaterThan(0)
      expect(
        tracesIn({
          url: 'cookies',
          status: 200,
          type: '',
          headers: cookies
            .map((cookie) => `${cookie.name}=${cookie.value}; Domain=${cookie.domain}`)
            .join('\n'),
          body: '',
        }),
      ).toEqual([])
      expect(headers.count()).toBeGreaterThan(visited)
      expect([...problems, ...(await headers.problems())]).toEqual([])
    })
  }

  test('a visitor: home, sign-in, sign-up, reset, the card page and its files, a 404', async ({
    browser,
  }) => {
    const visitor = await anonymousPage(browser)
    const { context, page } = visitor
    const { context: owner, page: ownerPage } = await signedInAs(browser, CARD_OWNER, '/qrcode')
    // The card's files by its id (the QR image's path), and the short link it is shared by.
    const qrSrc = (await ownerPage.getByTestId('qr-code').getAttribute('src')) ?? ''
    const shortLink = (await ownerPage.getByTestId('share-url').textContent()) ?? ''
    await owner.close()
    const cardPath = qrSrc.replace(/\/qr\.png$/, '')
    expect(cardPath).toMatch(/^\/card\/[0-9a-f-]{36}$/)
    const { problems, visited, unvisited } = await crawl(page, [
      urlFor(HOSTS.alpha, '/'),
      urlFor(HOSTS.alpha, '/auth/login'),
      urlFor(HOSTS.alpha, '/auth/register'),
      urlFor(HOSTS.alpha, '/auth/forgot-password'),
      urlFor(HOSTS.alpha, cardPath),
      urlFor(HOSTS.alpha, new URL(shortLink).pathname),
      urlFor(HOSTS.alpha, `${cardPath}/vcard`),
      urlFor(HOSTS.alpha, `${cardPath}/qr.png`),
      urlFor(HOSTS.alpha, `${cardPath}/qr.svg`),
      urlFor(HOSTS.alpha, `${cardPath}/background.png`),
      urlFor(HOSTS.alpha, `${cardPath}/background.png?layout=3&theme=dark&size=1280x720`),
      urlFor(HOSTS.alpha, '/favicon.ico'),
      urlFor(HOSTS.alpha, '/no-such-page'),
      urlFor(HOSTS.alpha, '/card/no-such-card'),
    ])
    const { headers } = visitor
    await context.close()
    expect(visited).toBeGreaterThan(8)
    expect(unvisited, 'the crawl reached every link').toBe(0)
    expect([...problems, ...(await headers.problems())]).toEqual([])
  })

  test("the agency's emails: every one its people can cause on its host", async ({ browser }) => {
    test.setTimeout(360_000)
    const mark = unique()
    const nora = { first: 'Nora', last: `Trace${mark}`, email: `nora-${mark}@example.test` }
    const ben = { first: 'Ben', last: `Trace${mark}`, email: `ben-${mark}@example.test` }
    const cleo = `cleo-${mark}@example.test`
    const noraNewEmail = `nora-new-${mark}@example.test`
    const eve = { name: `Eve Trace${mark}`, email: `eve-${mark}@example.test` }
    const fran = `fran-${mark}@example.test`

    // Sign-ups (a confirmation each), and a sign-up with a taken address (account exists).
    const visitor = await anonymousPage(browser)
    await signUp(visitor.page, nora)
    await signUp(visitor.page, ben)
    await signUp(
      visitor.page,
      { first: 'Someone', last: 'Else', email: nora.email },
      { taken: true },
    )
    // A password reset asked on the agency's host.
    await visitor.page.goto(urlFor(HOSTS.alpha, '/auth/forgot-password'))
    await waitForHydration(visitor.page)
    await visitor.page.getByLabel('Email').fill(nora.email)
    await visitor.page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(
      visitor.page.getByText('Password reset link sent! Please check your email.'),
    ).toBeVisible()
    // "Keep me updated" on a card: the follower's confirmation (ADR 102).
    await visitor.page.goto(urlFor(HOSTS.alpha, '/card/olivia-owner'))
    await waitForHydration(visitor.page)
    await visitor.page.getByLabel('Email for updates').fill(fran)
    await visitor.page.getByRole('button', { name: 'Keep me updated' }).click()
    await expect(visitor.page.getByText(/we sent it a link to confirm/)).toBeVisible()
    await visitor.context.close()

    const signedIn = await signInWatched(browser, { email: nora.email, password: PASSWORD })
    const { page } = signedIn
    await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
    // The confirmation banner's dismissal is remembered in a cookie (its name is judged).
    await page
      .getByTestId('email-confirmation-banner')
      .getByRole('button', { name: 'Dismiss' })
      .click()
    await expect(page.getByTestId('email-confirmation-banner')).toHaveCount(0)

    // A connection: the card owner's new-contact email.
    await page.goto(urlFor(HOSTS.alpha, '/card/olivia-owner'))
    await page.getByRole('button', { name: 'Connect with Olivia' }).click()
    await expect(page.getByText('Successfully connected with Olivia')).toBeVisible()

    // A team: an account of the agency and a new address invited (every address is, issue 39
    // point 3), by an owner whose plan the agency granted and whose email is confirmed.
    await grantPlanOnAlpha(browser, nora.email, 'team_basic')
    await confirmEmailOnAlpha(page, nora.email)
    await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user/team'))
    await page.getByRole('button', { name: 'Create Team' }).click()
    const create = page.getByRole('dialog', { name: 'Create Team' })
    await create.getByLabel('Team name').fill(`Trace Crew ${mark}`)
    await create.getByRole('button', { name: 'Create Team' }).click()
    await expect(page.getByText('Team created successfully')).toBeVisible()
    for (const [email, toast] of [
      [ben.email, `Invitation sent to ${ben.email}`],
      [cleo, `Invitation sent to ${cleo}`],
    ] as const) {
      await page.getByRole('button', { name: 'Invite Member' }).click()
      const invite = page.getByRole('dialog', { name: 'Invite Member' })
      await invite.getByLabel('Email').fill(email)
      await invite.getByLabel('Role').selectOption('member')
      await invite.getByRole('button', { name: 'Send Invitation' }).click()
      await expect(page.getByText(toast)).toBeVisible()
    }

    // The profile: a picture and a logo whose metadata names the platform, and a new email
    // address (the old one is told, the new one asked to confirm).
    await page.goto(urlFor(HOSTS.alpha, '/profile?tab=personal'))
    await waitForHydration(page)
    const served: string[] = []
    for (const [label, color] of [
      ['Profile picture', '#0e7490'],
      ['Logo', '#a16207'],
    ] as const) {
      await page.getByLabel(label, { exact: true }).setInputFiles({
        name: 'edited.jpg',
        mimeType: 'image/jpeg',
        buffer: await photoNamingThePlatform(color),
      })
      const preview = page.getByAltText(`${label} preview`)
      await expect(preview).toHaveAttribute('src', /^\/media\/[0-9a-f]{64}\.(jpg|png)$/)
      served.push((await preview.getAttribute('src')) ?? '')
    }
    await page.getByLabel('Email', { exact: true }).fill(noraNewEmail)
    await page.getByLabel('Current password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(page.getByText('Profile updated successfully')).toBeVisible()
    const images = []
    for (const src of served) images.push(await fetchFromPage(page, urlFor(HOSTS.alpha, src)))
    await signedIn.context.close()
    for (const image of images) {
      expect(image.status).toBe(200)
      expect(image.type).toMatch(/^image\//)
      // Nothing of what the upload carried: no EXIF block at all, so no name either.
      expect(image.body).not.toContain('Exif')
    }
    const imageProblems = images.flatMap(tracesIn)

    // The agency admin adds an end user, who gets a link to set a password (account created).
    const adminUser = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin')
    if (!adminUser) throw new Error('no Alpha agency admin')
    const admin = await watchedAs(browser, adminUser, '/dashboard/agency/users')
    await admin.page.getByRole('button', { name: 'Add User' }).click()
    const add = admin.page.getByRole('dialog', { name: 'Add User' })
    await add.getByLabel('Name').fill(eve.name)
    await add.getByLabel('Email').fill(eve.email)
    await add.getByRole('button', { name: 'Add User' }).click()
    await expect(admin.page.getByText('User added', { exact: true })).toBeVisible()
    await admin.context.close()

    // The super admin reads the outbox on the platform host (OUTBOX_PAGE=1): only each email's
    // own sender name, subject, headers and content are searched, not the outbox page.
    const alpha = TENANTS.alpha.name
    const expected: { kind: string; to: string; subject: string }[] = [
      { kind: 'confirm email', to: nora.email, subject: `Confirm your email for ${alpha}` },
      { kind: 'confirm email', to: ben.email, subject: `Confirm your email for ${alpha}` },
      { kind: 'account exists', to: nora.email, subject: `Your ${alpha} account` },
      { kind: 'password reset', to: nora.email, subject: `Reset your ${alpha} password` },
      {
        kind: 'new contact',
        to: CARD_OWNER.email,
        subject: `${nora.first} ${nora.last} connected with you on ${alpha}`,
      },
      {
        kind: 'team invitation',
        to: ben.email,
        subject: `${nora.first} ${nora.last} invited you to join Trace Crew ${mark}`,
      },
      {
        kind: 'team invitation',
        to: cleo,
        subject: `${nora.first} ${nora.last} invited you to join Trace Crew ${mark}`,
      },
      { kind: 'email changed', to: nora.email, subject: `Your ${alpha} email address was changed` },
      { kind: 'confirm new email', to: noraNewEmail, subject: `Confirm your email for ${alpha}` },
      { kind: 'account created', to: eve.email, subject: `Your ${alpha} account is ready` },
      {
        kind: 'follow confirmation',
        to: fran,
        subject: `Confirm updates from ${CARD_OWNER.firstName} ${CARD_OWNER.lastName}`,
      },
    ]
    const superAdmin = await signedInAs(browser, SUPER_ADMIN)
    const outbox = superAdmin.page.getByTestId('outbox-email')
    // Queued by the job worker: the last ones may still be on their way. A failure names the
    // emails that never came (a count alone sent a hunt through the wrong merge).
    await expect(async () => {
      await superAdmin.page.goto(urlFor(HOSTS.platform, '/dev/outbox'))
      const seen = await outbox.filter({ hasText: mark }).evaluateAll((items) =>
        items.map((item) => {
          const to = item.querySelector('[data-testid="outbox-to"]')?.textContent
          const subject = item.querySelector('iframe')?.getAttribute('title')
          return `${to} ${subject}`
        }),
      )
      const missing = expected
        .filter(({ to, subject }) => !seen.includes(`${to} ${subject}`))
        .map(({ kind, to }) => `${kind} email to ${to}`)
      expect(missing, 'emails not in the outbox').toEqual([])
    }).toPass({ timeout: 60_000 })
    const emails: (OutboxEntry & { to: string })[] = []
    for (const email of await outbox.all()) {
      const to = (await email.getByTestId('outbox-to').textContent()) ?? ''
      if (!expected.some((wanted) => wanted.to === to)) continue
      emails.push({ to, ...(await readEmail(email)) })
    }
    await superAdmin.context.close()

    const problems = [...imageProblems]
    for (const { kind, to, subject } of expected) {
      const index = emails.findIndex((email) => email.to === to && email.subject === subject)
      expect(index, `${kind} email to ${to}`).toBeGreaterThanOrEqual(0)
      const [email] = emails.splice(index, 1)
      if (!email) continue
      // Sent in the agency's name: without one, the platform's default sender would show.
      expect(email.from, `${kind} sender`).toBe(TENANTS.alpha.name)
      expect(email.html, kind).toContain(TENANTS.alpha.name)
      for (const [part, text] of [
        ['sender and subject', `${email.from}\n${email.subject}`],
        ['headers', email.headers],
        ['html', email.html],
        ['text', email.text],
      ] as const) {
        problems.push(
          ...tracesIn({
            url: `${kind} email (${part})`,
            status: 200,
            type: '',
            headers: '',
            body: text,
          }),
        )
      }
    }
    problems.push(...(await signedIn.headers.problems()), ...(await admin.headers.problems()))
    problems.push(...(await visitor.headers.problems()))
    expect(problems).toEqual([])
  })
})
