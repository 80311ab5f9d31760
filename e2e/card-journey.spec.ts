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
import { signedInAs, waitForHydration } from './page-helpers'
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
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Card updated successfully')).toBeVisible()

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
  // Through the tap counter (ADR 082), marked with the page's source, on to the stored URL.
  const portfolio = card.locator('a[data-action="link"]').first()
  await expect(portfolio).toHaveAttribute('href', /^\/card\/[^/]+\/l\/[0-9a-f-]{36}\?s=l$/)
  const tap = visitor.waitForEvent('response', (response) =>
    /\/l\/[0-9a-f-]{36}\?s=l$/.test(response.url()),
  )
  const opened = visitor.waitForEvent('page')
  await portfolio.click()
  expect((await tap).status()).toBe(302)
  expect((await tap).headers().location).toBe(PORTFOLIO)
  await (await opened).close()

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

// Issue 41 point 5 at a phone's width: the preview follows the form as the owner types, leaving
// with unsaved changes asks first (Keep editing stays, Discard leaves), and one Save publishes.
test('the card editor saves in one step, with a live preview, and asks before losing changes', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const eve = SPEC_ACCOUNTS.editor
  const { context, page } = await signedInAs(browser, eve, '/qrcode')
  await page.setViewportSize({ width: 375, height: 812 })
  const edit =
    (await page.getByRole('link', { name: 'Edit', exact: true }).getAttribute('href')) ?? ''
  await page.goto(urlFor(HOSTS.alpha, edit))
  await waitForHydration(page)
  const preview = page.getByRole('complementary', { name: 'Preview' }).getByTestId('card-display')
  const jobTitle = `Chief Editor ${unique()}`

  // Nothing changed yet: the back link leaves without a question.
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0)
  await page.getByLabel('Job title').fill(jobTitle)
  await expect(preview).toContainText(jobTitle)

  // Leaving asks first; Keep editing stays with the text as typed.
  await page.getByRole('link', { name: 'Back to digital cards' }).click()
  const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' })
  await expect(ask).toBeVisible()
  await page.screenshot({ path: test.info().outputPath('375-editor-unsaved.jpg'), quality: 60 })
  await ask.getByRole('button', { name: 'Keep editing' }).click()
  await expect(ask).toBeHidden()
  await expect(page).toHaveURL(/step=details|edit\/[0-9a-f-]{36}$/)
  await expect(page.getByLabel('Job title')).toHaveValue(jobTitle)
  // So does the other tab.
  await page.getByRole('link', { name: 'Visuals & Images' }).click()
  await expect(ask).toBeVisible()
  await ask.getByRole('button', { name: 'Keep editing' }).click()

  // One Save: it stays on the tab, says so, and the card page shows it at once.
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Card updated successfully')).toBeVisible()
  await expect(page.getByLabel('Job title')).toHaveValue(jobTitle)
  await page.screenshot({ path: test.info().outputPath('375-editor-saved.jpg'), quality: 60 })
  const visitor = await browser.newContext({ userAgent: VISITOR_AGENT })
  const card = await visitor.newPage()
  await card.goto(urlFor(HOSTS.alpha, `/card/${edit.split('/').at(-1)?.split('?')[0]}`))
  await expect(card.getByTestId('card-display')).toContainText(jobTitle)

  // Saved, nothing asks; the review is a look at the card, with no second save.
  await page.getByRole('link', { name: 'Review Card' }).click()
  await expect(page.getByRole('heading', { name: 'Review Card' })).toBeVisible()
  await expect(page.getByRole('button', { name: /Save/ })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Back to Editing' })).toBeVisible()
  await page.getByRole('link', { name: 'Done' }).click()
  await expect(page).toHaveURL(/\/dashboard\/end-user\/digital-cards$/)

  // A change discarded is lost, as the dialog said.
  await page.goto(urlFor(HOSTS.alpha, edit))
  await waitForHydration(page)
  await page.getByLabel('Job title').fill('Never saved')
  await page.getByRole('link', { name: 'Back to digital cards' }).click()
  await page.getByRole('button', { name: 'Discard changes' }).click()
  await expect(page).toHaveURL(/\/dashboard\/end-user\/digital-cards$/)
  await card.reload()
  await expect(card.getByTestId('card-display')).toContainText(jobTitle)
  await visitor.close()
  await context.close()
})
