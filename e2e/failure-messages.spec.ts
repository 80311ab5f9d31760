// Spec §8's failure messages where the failure happens on the client: the request never reaches
// the server (network error) or a proxy answers 503. The page keeps what it shows, names what
// failed, and nothing changes on the server.
import { expect, type Page, type Route, test } from '@playwright/test'
import sharp from 'sharp'
import { CARD_OWNER, HOSTS, urlFor } from './fixtures'
import { openAs } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'

const alice = ALPHA_ROLE_USERS.find((user) => user.email === 'a11y-alice@e2e.test')
if (!alice) throw new Error('the Alpha end user of e2e/role-users.ts is missing')

type Failure = 'abort' | 503

/**
 * Fails Remix data requests for a page (single fetch: `{path}.data`, a string or a pattern for
 * the pathname), with `method` if given, the way `failure` says.
 */
async function failDataRequests(
  page: Page,
  dataPath: string | RegExp,
  failure: Failure,
  method?: string,
) {
  const handler = (route: Route) => {
    if (method && route.request().method() !== method) return route.continue()
    if (failure === 'abort') return route.abort('internetdisconnected')
    return route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' })
  }
  const matches = (url: URL) =>
    typeof dataPath === 'string' ? url.pathname === dataPath : dataPath.test(url.pathname)
  await page.route(matches, handler)
  return () => page.unroute(matches, handler)
}

async function hydrated(page: Page) {
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))
}

/**
 * Through the sign-in form: only for the sign-out test, whose session must be its own (a
 * sign-out that did reach the server would end the shared one).
 */
async function signInAsAlice(page: Page) {
  await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
  await hydrated(page)
  await page.getByLabel('Email').fill(alice?.email ?? '')
  await page.getByLabel('Password').fill(alice?.password ?? '')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
}

const CARDS_DATA = '/dashboard/end-user/digital-cards.data'

test('cards list: failed delete, set default and load say so; the cards stay', async ({ page }) => {
  await openAs(page, alice, '/dashboard/end-user/digital-cards')
  const cards = page.getByTestId('card-item')
  const before = await cards.count()
  expect(before).toBeGreaterThan(0)

  const restoreDelete = await failDataRequests(page, CARDS_DATA, 'abort', 'POST')
  await cards
    .first()
    .getByRole('button', { name: /^Delete / })
    .click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Failed to delete digital card')).toBeVisible()
  await restoreDelete()
  await page.reload()
  await expect(cards).toHaveCount(before)

  // A second card (made for real) is not the default: making it the default fails.
  await page.getByRole('button', { name: 'Create Card' }).first().click()
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/qrcode\/[0-9a-f-]{36}$/)
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  await hydrated(page)
  await expect(cards).toHaveCount(before + 1)
  const restoreDefault = await failDataRequests(page, CARDS_DATA, 503, 'POST')
  await page.getByRole('button', { name: 'Set as Default' }).first().click()
  await expect(page.getByText('Failed to set default card')).toBeVisible()
  await restoreDefault()
  await page.reload()
  await expect(page.locator('[data-testid="card-item"][data-default="true"]')).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'Set as Default' })).toHaveCount(before)

  // A client navigation whose data cannot be loaded: the spec's message and 'Try Again'.
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await hydrated(page)
  const restoreLoad = await failDataRequests(page, CARDS_DATA, 503, 'GET')
  await page.getByRole('link', { name: 'Digital Cards' }).first().click()
  await expect(page.getByTestId('load-error')).toHaveText('Failed to load your digital cards')
  await restoreLoad()
  await page.getByRole('button', { name: 'Try Again' }).click()
  await expect(page.getByRole('heading', { name: 'Digital Cards', level: 1 })).toBeVisible()
  await expect(cards).toHaveCount(before + 1)
})

test('card editor: a failed save says Failed to update digital card', async ({ page }) => {
  await openAs(page, alice, '/dashboard/end-user/digital-cards')
  await page
    .getByRole('link', { name: /^Edit / })
    .first()
    .click()
  await hydrated(page)
  await failDataRequests(
    page,
    /^\/dashboard\/end-user\/digital-cards\/edit\/[^/]+\.data$/,
    'abort',
    'POST',
  )
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Failed to update digital card')).toBeVisible()
})

test('public card: failed connect, save and automatic connection say so', async ({ page }) => {
  const cardPath = `/card/${CARD_OWNER.firstName.toLowerCase()}-${CARD_OWNER.lastName.toLowerCase()}`
  await openAs(page, alice, cardPath)
  const restore = await failDataRequests(page, /^\/card\/[^/]+\.data$/, 'abort', 'POST')
  await page.getByRole('button', { name: `Connect with ${CARD_OWNER.firstName}` }).click()
  await expect(page.getByText(`Failed to connect with ${CARD_OWNER.firstName}`)).toBeVisible()

  await page.getByRole('link', { name: 'Save Contact' }).click()
  await expect(page.getByText('Failed to save contact')).toBeVisible()
  await restore()

  // Back from sign-in with the connect flag: the automatic connection fails.
  await failDataRequests(page, /^\/card\/[^/]+\.data$/, 503, 'POST')
  await page.goto(urlFor(HOSTS.alpha, `${cardPath}?connect=1`))
  await expect(page.getByText('Failed to complete automatic connection')).toBeVisible({
    timeout: 15_000,
  })
  // The flag leaves the URL once the attempt has answered.
  await expect(page).toHaveURL(/\/card\/[0-9a-f-]{36}$/)
})

test('contacts and profile: a failed load shows the spec message', async ({ page }) => {
  await openAs(page, alice, '/dashboard/end-user')
  await failDataRequests(page, '/contacts.data', 503)
  await page.evaluate(() =>
    (window as unknown as { __remixRouter: { navigate(to: string): void } }).__remixRouter.navigate(
      '/contacts',
    ),
  )
  await expect(page.getByTestId('load-error')).toHaveText('Failed to load your contacts')

  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await hydrated(page)
  await failDataRequests(page, '/profile.data', 'abort')
  await page.evaluate(() =>
    (window as unknown as { __remixRouter: { navigate(to: string): void } }).__remixRouter.navigate(
      '/profile',
    ),
  )
  await expect(page.getByTestId('load-error')).toHaveText(
    'Could not load your profile. Please try again later.',
  )
})

test('a failed sign out says so and keeps the session', async ({ page }) => {
  await signInAsAlice(page)
  await hydrated(page)
  await page.route('**/auth/logout', (route) => route.abort('internetdisconnected'))
  await page.getByTestId('user-menu-trigger').click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByText('Failed to sign out', { exact: true })).toBeVisible()
  await expect(page.getByText('Failed to sign out. Please try again.')).toBeVisible()
  await page.unrouteAll()
  // Still signed in: /profile opens her profile (ADR 078), not the sign-in page.
  await page.goto(urlFor(HOSTS.alpha, '/profile'))
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/profile/end-user'))
})

test('auth forms: a failed request keeps the form and names what failed', async ({ page }) => {
  const cases = [
    {
      path: '/auth/register',
      dataPath: '/auth/register.data',
      fill: async () => {
        await page.getByLabel('First name').fill('Failing')
        await page.getByLabel('Last name').fill('Network')
        await page.getByLabel('Email').fill('failing-network@example.test')
        await page.getByLabel('Password').fill('network-pass')
      },
      button: 'Create Account',
      message: 'Failed to create account. Please try again.',
    },
    {
      path: '/auth/forgot-password',
      dataPath: '/auth/forgot-password.data',
      fill: () => page.getByLabel('Email').fill('someone@example.test'),
      button: 'Send Reset Link',
      message: 'Failed to send reset link. Please try again.',
    },
    {
      path: '/auth/login',
      dataPath: '/auth/login.data',
      fill: async () => {
        await page.getByLabel('Email').fill('someone@example.test')
        await page.getByLabel('Password').fill('whatever-pass')
      },
      button: 'Sign In',
      message: 'Failed to sign in',
    },
  ]
  for (const { path, dataPath, fill, button, message } of cases) {
    await page.goto(urlFor(HOSTS.alpha, path))
    await hydrated(page)
    const restore = await failDataRequests(page, dataPath, 'abort', 'POST')
    await fill()
    await page.getByRole('button', { name: button }).click()
    await expect(page.getByText(message, { exact: true })).toBeVisible()
    await expect(page).toHaveURL(urlFor(HOSTS.alpha, path))
    await restore()
  }
})

test('images the browser cannot decode are refused before upload', async ({ page }) => {
  await openAs(page, alice, '/profile')
  let uploads = 0
  await page.route('**/resources/upload', (route) => {
    uploads++
    return route.continue()
  })
  await page.getByLabel('Profile picture').setInputFiles({
    name: 'broken.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('not really a jpeg at all'),
  })
  await expect(page.getByText('Failed to load image').first()).toBeVisible()
  expect(uploads).toBe(0)

  // A large photo is scaled in the browser: what reaches the server is at most 500×500.
  let uploaded: Buffer | null = null
  await page.unrouteAll()
  await page.route('**/resources/upload', async (route) => {
    const body = route.request().postDataBuffer()
    uploaded = body
    await route.continue()
  })
  const big = await sharp({
    create: { width: 2000, height: 1500, channels: 3, background: '#0ea5e9' },
  })
    .jpeg()
    .toBuffer()
  await page.getByLabel('Profile picture').setInputFiles({
    name: 'big.jpg',
    mimeType: 'image/jpeg',
    buffer: big,
  })
  await expect.poll(() => uploaded !== null).toBe(true)
  const sent = uploaded as unknown as Buffer
  // The file part of the multipart body: from the JPEG's start to the closing boundary.
  const start = sent.indexOf(Buffer.from([0xff, 0xd8, 0xff]))
  const end = sent.lastIndexOf(Buffer.from('\r\n--'))
  expect(start).toBeGreaterThan(0)
  const meta = await sharp(sent.subarray(start, end)).metadata()
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(500)
})
