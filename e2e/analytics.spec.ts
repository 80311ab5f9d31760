// Analytics past views (issue 41 point 8, ADR 082), on the production project: a visitor opens
// Ada's card by its QR-marked link, saves the vCard and leaves a lead; the event batcher writes
// the save and the exchange, and Ada's analytics at 375 px show the view, the save, the exchange
// and the rates, by source, without sideways scrolling, with a screenshot kept in the run's
// output; the CSV download says the same. Ada is this spec's own account (e2e/spec-accounts.ts),
// so the figures are exact.
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { HOSTS, urlFor } from './fixtures'
import { expectAccessible, sessionOf, signedInAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

const ada = SPEC_ACCOUNTS.analytics
// Headless Chromium names itself a bot, and bots are not counted: a visitor's browser.
const VISITOR =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 analytics-visitor'

test('a view, a save and a lead show in the owner’s analytics and its CSV', async ({ browser }) => {
  const visitor = await browser.newContext({
    userAgent: VISITOR,
    viewport: { width: 375, height: 800 },
  })
  const card = await visitor.newPage()
  const response = await card.goto(urlFor(HOSTS.alpha, '/card/ada-analytics?s=q'))
  expect(response?.status()).toBe(200)
  await expect(card.locator('html[data-enhanced]')).toBeAttached()
  // The page's marker goes with the save (card-visitor.js), so the save counts as the QR code's.
  const save = card.getByRole('link', { name: 'Save Contact' })
  await expect(save).toHaveAttribute('href', /[?&]s=q/)
  const download = card.waitForEvent('download')
  await save.click()
  await download
  await card.getByLabel('Your name').fill('Val Visitor')
  await card.getByLabel('Your email').fill(`val-${Date.now()}@example.test`)
  await card.getByRole('button', { name: 'Send my details' }).click()
  await expect(card.getByText('Thanks! Ada will be in touch.')).toBeVisible()
  await visitor.close()

  const { context, page } = await signedInAs(browser, ada, '/dashboard/analytics?days=7')
  await page.setViewportSize({ width: 375, height: 800 })
  // Written by the batchers a moment later: reloaded until all three are there.
  await expect(async () => {
    await page.goto(urlFor(HOSTS.alpha, '/dashboard/analytics?days=7'))
    await expect(page.getByTestId('analytics-views')).toContainText('1', { timeout: 1_000 })
    await expect(page.getByTestId('analytics-vcard')).toContainText('1', { timeout: 1_000 })
    await expect(page.getByTestId('analytics-exchanges')).toContainText('1', { timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect(page.getByTestId('analytics-save-rate')).toContainText('100%')
  await expect(page.getByTestId('analytics-exchange-rate')).toContainText('100%')
  await expect(page.getByTestId('analytics-wallet')).toContainText('0')
  const qr = page.locator('[data-testid="analytics-source-row"][data-source="qr"]')
  await expect(qr).toContainText('QR code')
  await expect(page.getByTestId('analytics-card-row')).toHaveCount(1)
  // No sideways scroll at a phone's width.
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(widths.scroll).toBeLessThanOrEqual(widths.client)
  await page.screenshot({ path: test.info().outputPath('analytics-375.png'), fullPage: true })
  await expectAccessible(page, 'analytics at 375 px')

  // The range is a link: 90 days keeps the same figures.
  await page.getByRole('link', { name: '90 days' }).click()
  await expect(page).toHaveURL(/days=90/)
  await expect(page.getByTestId('analytics-vcard')).toContainText('1')

  // The CSV carries the same filters and figures.
  const csvDownload = page.waitForEvent('download')
  await page.getByTestId('analytics-csv').click()
  const csv = readFileSync((await (await csvDownload).path()) ?? '', 'utf8')
  expect(csv).toContain('"Total","All cards","","1","1","0","0","1","0","1","100%","100%"')
  expect(csv).toContain('"Source","QR code"')
  await context.close()

  // The dark theme (Ada's is the default, 'system', so it follows the device): no sideways
  // scroll, nothing axe finds, and a screenshot of it too.
  const dark = await browser.newContext({
    colorScheme: 'dark',
    storageState: sessionOf(ada),
    viewport: { width: 375, height: 800 },
  })
  const darkPage = await dark.newPage()
  await darkPage.goto(urlFor(HOSTS.alpha, '/dashboard/analytics?days=7'))
  await expect(darkPage.locator('html')).toHaveClass(/\bdark\b/)
  await expect(darkPage.getByTestId('analytics-vcard')).toContainText('1')
  const darkWidths = await darkPage.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(darkWidths.scroll).toBeLessThanOrEqual(darkWidths.client)
  await darkPage.screenshot({
    path: test.info().outputPath('analytics-375-dark.png'),
    fullPage: true,
  })
  await expectAccessible(darkPage, 'analytics at 375 px, dark theme')
  await dark.close()
})
