import { expect, test } from '@playwright/test'
import { readableCardColor } from '#app/validation/backgrounds'
import { HOSTS, TENANTS, urlFor } from './fixtures'
import { expectAccessible } from './page-helpers'

function rgb(hex: string) {
  const n = (i: number) => Number.parseInt(hex.slice(i, i + 2), 16)
  return `rgb(${n(1)}, ${n(3)}, ${n(5)})`
}

const brandedHosts = [
  { host: HOSTS.platform, tenant: TENANTS.platform },
  { host: HOSTS.alpha, tenant: TENANTS.alpha },
  { host: HOSTS.betaSubdomain, tenant: TENANTS.beta },
  { host: HOSTS.betaCustomDomain, tenant: TENANTS.beta },
]

for (const { host, tenant } of brandedHosts) {
  test(`${host} shows ${tenant.name}'s branding`, async ({ page }) => {
    await page.goto(urlFor(host))
    await expect(page).toHaveTitle(tenant.name)
    await expect(page.getByTestId('tenant-name')).toHaveText(tenant.name)

    const logo = page.getByTestId('tenant-logo')
    await expect(logo).toBeVisible()
    expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)

    const favicon = await page.locator('link[rel="icon"]').getAttribute('href')
    expect(favicon).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
    // Fetched by the page: Chromium resolves *.localhost and the mapped custom domain.
    const faviconType = await page.evaluate(
      async (href) => (await fetch(href)).headers.get('content-type'),
      favicon ?? '',
    )
    expect(faviconType).toBe('image/png')

    const getStarted = page.getByRole('link', { name: 'Get Started', exact: true })
    await expect(getStarted).toHaveAttribute('href', '/auth/register')
    await expect(getStarted).toHaveCSS('background-color', rgb(tenant.primaryColor))
    await expect(page.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth/login')
    await expect(page.getByRole('heading', { name: 'Get Started in 3 Easy Steps' })).toBeVisible()
    await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()))
    // Issue 30: the product shown, an example card in the tenant's colour, labelled as one.
    const example = page.getByRole('figure')
    await expect(example).toContainText('Example')
    await expect(example.getByTestId('card-display')).toHaveCSS(
      'background-color',
      rgb(readableCardColor(tenant.primaryColor)),
    )
  })
}

test('each tenant has its own logo and favicon', async ({ page }) => {
  const favicons = new Set<string | null>()
  for (const host of [HOSTS.platform, HOSTS.alpha, HOSTS.betaSubdomain]) {
    await page.goto(urlFor(host))
    favicons.add(await page.locator('link[rel="icon"]').getAttribute('href'))
  }
  expect(favicons.size).toBe(3)
})

test('an unknown host gets a plain "no such site" page', async ({ page }) => {
  const response = await page.goto(urlFor('nobody.localhost'))
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'No such site' })).toBeVisible()
  for (const tenant of Object.values(TENANTS)) {
    await expect(page.locator('body')).not.toContainText(tenant.name)
  }
})

test('an inactive agency shows "site unavailable"', async ({ page }) => {
  const response = await page.goto(urlFor('dormant.localhost'))
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { name: 'Site unavailable' })).toBeVisible()
  await expect(page.locator('body')).not.toContainText('Dormant')
})

test('an unknown path shows the branded 404 page with a way home', async ({ page }) => {
  const response = await page.goto(urlFor(HOSTS.alpha, '/no/such/page'))
  expect(response?.status()).toBe(404)
  await expect(page.getByText('404', { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible()
  await expect(page.getByTestId('tenant-name')).toHaveText(TENANTS.alpha.name)
  await page.getByRole('link', { name: 'Return to Home' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/'))
  await expect(page.getByRole('heading', { name: 'Get Started in 3 Easy Steps' })).toBeVisible()
})

test('the home page fits a phone screen, in the dark theme too', async ({ browser }, testInfo) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      viewport: { width: 375, height: 740 },
      colorScheme,
    })
    const page = await context.newPage()
    await page.goto(urlFor(HOSTS.alpha))
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBe(0)
    await expect(page.getByRole('link', { name: 'Get Started', exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible()
    // The example card and the three steps, below the actions on a phone.
    await expect(page.getByRole('figure').getByTestId('card-display')).toBeVisible()
    const steps = page.getByRole('region', { name: 'Get Started in 3 Easy Steps' })
    await expect(steps.getByRole('listitem')).toHaveText([
      /Create your profile/,
      /Customize your digital card/,
      /Share your card.*QR code.*link.*NFC.*contacts/,
    ])
    if (colorScheme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    await expectAccessible(page, `home at 375 px, ${colorScheme}`)
    await testInfo.attach(`home-375-${colorScheme}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: 'image/png',
    })
    await context.close()
  }
})

test('pages carry the security headers and a nonce- or hash-based CSP', async ({ page }) => {
  const response = await page.goto(urlFor(HOSTS.alpha))
  const headers = response?.headers() ?? {}
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
  const csp = headers['content-security-policy'] ?? ''
  // A page rendered for this request carries a nonce; one answered from the page cache, the
  // hashes of its scripts (ADR 021; e2e/page-cache.spec.ts checks them).
  expect(csp).toMatch(
    /script-src 'strict-dynamic'( 'nonce-[A-Za-z0-9+/=]+'| 'sha256-[A-Za-z0-9+/=]+')+(;|$)/,
  )
  expect(csp).toContain("object-src 'none'")
  expect(csp).toContain("base-uri 'none'")
  expect(csp).toContain("frame-ancestors 'none'")
  // With the CSP enforced, hydration still works: client-side navigation happens.
  await page.getByRole('link', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)
})
