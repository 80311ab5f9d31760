// Issue 28's features on the production project (Postgres, the app login): the owner adds a link
// to the card and picks a short link; a visitor opens it by its copied link and saves the vCard;
// the owner changes it and the old one redirects. What the driver can change here: the card's
// links and slugs written as brandcard_app, the view queued by the page cache and written by the
// batcher with its source, card_view_hours kept by the trigger, and the short link's cached page
// dropped by the change feed (LISTEN/NOTIFY) when the slug changes. Each step's detail is
// e2e/card-details.spec.ts's, e2e/short-links.spec.ts's and e2e/view-sources.spec.ts's (embedded).
import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { HOSTS, urlFor } from './fixtures'
import { signedInAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

const jo = SPEC_ACCOUNTS.journey
const unique = () => Math.random().toString(36).slice(2, 8)
// Headless Chromium names itself a bot, and bots' views are not counted: a visitor's browser.
const VISITOR_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 journey'
const BOOKING = 'https://calendly.com/jo-journey/30min'
const PORTFOLIO = 'https://jo.example.test/work'

async function saveSlug(page: Page, slug: string) {
  await page.getByLabel('Short link', { exact: true }).fill(slug)
  await page.getByRole('button', { name: 'Save Short Link' }).click()
  await expect(page.getByRole('link', { name: urlFor(HOSTS.alpha, `/c/${slug}`) })).toBeVisible()
}

test('a link and a short link: opened by a visitor, counted by source, moved, in the vCard', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const { context, page } = await signedInAs(browser, jo, '/qrcode')
  const edit = (await page.getByRole('link', { name: 'Edit' }).getAttribute('href')) ?? ''
  await page.goto(urlFor(HOSTS.alpha, edit))
  await expect(page.getByRole('heading', { name: 'Short link' })).toBeVisible()

  const first = `jo-${unique()}`
  await saveSlug(page, first)
  await page.getByLabel('Link 1 kind').selectOption('custom')
  await page.getByLabel('Link 1 label').fill('Portfolio')
  await page.getByLabel('Link 1 address').fill(PORTFOLIO)
  // A booking link: the next step a visitor's thank-you offers (issue 41 point 7).
  await page.getByRole('button', { name: 'Add link' }).click()
  await page.getByLabel('Link 2 kind').selectOption('booking')
  await page.getByLabel('Link 2 address').fill(BOOKING)
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page).toHaveURL(/step=visuals/)

  // The visitor opens the copied link: the card with its link, counted as the copied link's.
  const visitor = await browser.newContext({
    userAgent: VISITOR_AGENT,
    acceptDownloads: true,
    viewport: { width: 375, height: 812 },
  })
  const card = await visitor.newPage()
  const firstUrl = urlFor(HOSTS.alpha, `/c/${first}`)
  expect((await card.goto(`${firstUrl}?s=l`))?.status()).toBe(200)
  await expect(card.getByTestId('card-display')).toContainText('Jo Journey')
  await expect(card.locator('a[data-action="link"]').first()).toHaveAttribute('href', PORTFOLIO)

  // The owner changes the short link; the old one redirects to the new (its cached page gone).
  await page.goto(urlFor(HOSTS.alpha, edit))
  const second = `jo-${unique()}`
  await saveSlug(page, second)
  const secondUrl = urlFor(HOSTS.alpha, `/c/${second}`)
  const moved = await card.goto(firstUrl)
  expect(card.url()).toBe(secondUrl)
  expect((await moved?.request().redirectedFrom()?.response())?.status()).toBe(301)

  // The vCard holds the link, and the card's new short link marked as the vCard's.
  const downloading = card.waitForEvent('download')
  await card.getByRole('link', { name: 'Save Contact' }).click()
  const vcard = readFileSync((await (await downloading).path()) ?? '', 'utf8').replaceAll(
    '\r\n ',
    '',
  )
  expect(vcard).toContain(PORTFOLIO)
  expect(vcard).toContain(`URL;TYPE=CARD:${secondUrl}?s=v`)

  // The visitor leaves their details (no account): the thank-you offers Jo's contact and his
  // booking link, on the page without React (card-visitor.js).
  await card.getByLabel('Your name').fill('Vic Visitor')
  await card.getByLabel('Your email').fill(`vic-${unique()}@example.test`)
  await card.getByRole('button', { name: 'Send my details' }).click()
  await expect(card.getByText('Thanks! Jo will be in touch.')).toBeVisible()
  await expect(card.getByRole('link', { name: 'Book a time with Jo' })).toHaveAttribute(
    'href',
    BOOKING,
  )
  await expect(card.getByRole('link', { name: "Save Jo's contact" })).toBeVisible()
  await card.screenshot({ path: test.info().outputPath('375-lead-thanks.jpg'), quality: 60 })
  await visitor.close()

  // One visitor, one view (the redirect's page within the repeat window), the copied link's:
  // written by the batcher a moment later.
  await expect(async () => {
    await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
    await expect(page.getByTestId('views-chart-legend')).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  const legend = page.getByTestId('views-chart-legend')
  await expect(legend.locator('[data-source="link"]')).toHaveText('Copied link 1')
  await expect(legend.locator('li')).toHaveCount(1)
  await context.close()
})
