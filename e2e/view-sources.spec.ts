// Where a view came from (issue 28 point 4, ADR 039): Sam's card is opened by the link its QR
// code holds and by its copied link, each by a visitor of their own, and both answered from the
// page cache's one entry; Sam's dashboard chart and cards list then show each view under its
// source. Sam is this spec's own account (e2e/spec-accounts.ts), so the figures are exact.
import { expect, type Page, test } from '@playwright/test'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { HOSTS, urlFor } from './fixtures'
import { expectAccessible, signedInAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

const sam = SPEC_ACCOUNTS.viewSources
// Headless Chromium names itself a bot, and bots' views are not counted: visitors' browsers,
// each its own visitor (one visitor's views within 30 minutes are one).
const visitorAgent = (n: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 visitor-${n}`

async function decodeQrOf(page: Page) {
  const src = (await page.getByTestId('qr-code').getAttribute('src')) ?? ''
  // Fetched by Chromium (Node does not resolve *.localhost).
  const tab = await page.context().newPage()
  const response = await tab.goto(new URL(src, page.url()).href)
  const bytes = (await response?.body()) ?? Buffer.alloc(0)
  await tab.close()
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? ''
}

test('views by the QR code and the copied link show under their sources', async ({ browser }) => {
  const { context, page } = await signedInAs(browser, sam, '/qrcode')
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(urlFor(HOSTS.alpha)).origin,
  })
  // The QR code holds the short link in capitals, its marker (ADR 041); the copied link is the
  // short link marked as copied.
  const qrLink = await decodeQrOf(page)
  expect(qrLink).toMatch(new RegExp(`^${urlFor(HOSTS.alpha, '/c/').toUpperCase()}[A-Z0-9-]+$`))
  await page.getByRole('button', { name: 'Copy link' }).click()
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible()
  const copiedLink = await page.evaluate(() => navigator.clipboard.readText())
  expect(copiedLink).toBe(`${qrLink.toLowerCase()}?s=l`)

  // The first visit fills the page cache; the second, by the other link, is answered from its
  // entry. Other specs edit Alpha's cards meanwhile, and each edit empties Alpha's cached pages:
  // the second visitor asks again until the cache answers (one visitor's views within 30
  // minutes are one view).
  const visit = async (n: number, link: string) => {
    const visitor = await browser.newContext({
      userAgent: visitorAgent(n),
      javaScriptEnabled: false,
    })
    const card = await visitor.newPage()
    const response = await card.goto(link)
    expect(response?.status()).toBe(200)
    await expect(card).toHaveTitle(/Sam Sources/)
    await visitor.close()
    return response?.headers()['x-cache']
  }
  expect(await visit(0, qrLink)).toBeUndefined()
  await expect.poll(() => visit(1, copiedLink)).toBe('HIT')

  // Written by the batcher: the dashboard shows them a moment later, each view possibly in a
  // batch of its own, so it is reloaded until both sources are there.
  const chart = page.getByRole('img', { name: /Card views per day by source/ })
  const legend = page.getByTestId('views-chart-legend')
  await expect(async () => {
    await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
    await expect(legend.locator('li')).toHaveCount(2, { timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect(legend.locator('[data-source="qr"]')).toHaveText('QR code 1')
  await expect(legend.locator('[data-source="link"]')).toHaveText('Copied link 1')
  await expect(legend.locator('li')).toHaveCount(2)
  // Its accessible name (the title and the description) says it in words, and its figures
  // are in a table too, a column per source.
  await expect(chart).toHaveAccessibleName(/2 views .* By source: QR code 1, Copied link 1\./)
  await expect(page.getByRole('columnheader', { name: 'QR code' })).toBeAttached()
  await expect(page.getByRole('columnheader', { name: 'Copied link' })).toBeAttached()
  await expectAccessible(page, 'end user dashboard with views by source')

  // The card's own views and sources, in the cards list.
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  const views = page.getByTestId('card-item').first().getByTestId('card-views')
  await expect(views).toContainText('2 views in the last 14 days')
  await expect(views.locator('[data-source="qr"]')).toHaveText('QR code 1')
  await expect(views.locator('[data-source="link"]')).toHaveText('Copied link 1')
  await expectAccessible(page, 'cards list with views by source')
  await context.close()
})
