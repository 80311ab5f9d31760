// Contacts on a phone (issue 41 point 12), on the production project at 375 px: a visitor leaves
// their details (phone, note, consent) on Coco's card; Coco finds them in her list of cards,
// narrows it by source and by personal or company, opens the contact's page (call, email, note,
// consent, the card they met on), marks them personal from the keyboard, and meets the list's
// empty states and an unknown contact's page. Each screen is checked in both themes: axe at zero,
// no sideways scroll, and a screenshot of each kept in the test's output.
import { expect, type Page, test } from '@playwright/test'
import { PERSONAL_MEANING } from '#app/validation/contact-filters'
import { urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.contacts
const [coco] = agency.endUsers
const PHONE = { width: 375, height: 800 }
const unique = () => Math.random().toString(36).slice(2, 8)

/**
 * The screen as it is now, light then dark (the account follows the system's theme): axe finds
 * nothing, the page is no wider than the phone, and a screenshot of each is kept.
 */
async function checkBothThemes(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    if (scheme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
    await expectAccessible(page, `${name} (${scheme})`)
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }))
    expect(scrollWidth, `${name} (${scheme}) scrolls sideways`).toBeLessThanOrEqual(clientWidth)
    await page.screenshot({
      path: test.info().outputPath(`375-${name}-${scheme}.jpg`),
      quality: 60,
      fullPage: true,
    })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test("a lead on Coco's card, found, filtered and opened on her phone", async ({ browser }) => {
  test.setTimeout(120_000)
  const leadEmail = `lee-${unique()}@prospects.e2e.test`

  // The visitor, on a phone, leaves their details and consents to the agency's text.
  const visitor = await browser.newContext({ viewport: PHONE })
  const card = await visitor.newPage()
  await card.goto(urlFor(agency.host, '/c/coco-collector'))
  await waitForHydration(card)
  await card.getByLabel('Your name').fill('Lee Lead')
  await card.getByLabel('Your email').fill(leadEmail)
  await card.getByLabel('Your phone').fill('+44 20 7946 0000')
  await card.getByLabel('Your company').fill('Prospects Ltd')
  await card.getByLabel('Note').fill('Met at the fair, wants a demo')
  await card.getByLabel(agency.consentText).check()
  await card.getByRole('button', { name: 'Send my details' }).click()
  await expect(card.getByText('Thanks! Coco will be in touch.')).toBeVisible()
  await visitor.close()

  // Coco's list: a card per contact with name, company, source and day; what Personal means.
  const { context, page } = await signedInAs(browser, coco)
  await page.setViewportSize(PHONE)
  await page.goto(urlFor(agency.host, '/contacts'))
  await waitForHydration(page)
  await expect(page.getByText(PERSONAL_MEANING)).toBeVisible()
  const rows = page.getByTestId('contact-row')
  const lead = rows.filter({ hasText: leadEmail })
  await expect(lead).toContainText('Lee Lead')
  await expect(lead).toContainText('Prospects Ltd')
  await expect(lead).toContainText('Left details')
  await expect(lead).toContainText(/Added \d/)
  await expect(lead.getByTestId('contact-consent')).toContainText('Consent v1')
  await expect(rows.filter({ hasText: 'Mia Mentor' })).toContainText('Added')
  await checkBothThemes(page, 'contacts')
  // The same list on a laptop, for the reviewer: email and phone join each card.
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.screenshot({ path: test.info().outputPath('1280-contacts-light.jpg'), quality: 60 })
  await page.setViewportSize(PHONE)

  // Filters are GET params: by source, then personal (none yet), then back to all contacts.
  await page.getByLabel('Source').selectOption({ label: 'Left details' })
  await expect(page).toHaveURL(/[?&]source=lead\b/)
  await expect(rows.filter({ hasText: 'Mia Mentor' })).toHaveCount(0)
  await expect(lead).toHaveCount(1)
  await page.getByLabel('Personal or company').selectOption({ label: 'Personal contacts' })
  await expect(page).toHaveURL(/[?&]kind=personal\b/)
  await expect(page.getByRole('heading', { name: 'No contacts match these filters' })).toBeVisible()
  await checkBothThemes(page, 'contacts-no-match')
  await page.getByLabel('Personal or company').selectOption({ label: 'All contacts' })
  await expect(lead).toHaveCount(1)

  // A tap anywhere on the card opens the contact's page.
  await lead.click({ position: { x: 60, y: 40 } })
  await expect(page).toHaveURL(/\/contacts\/[0-9a-f-]{36}\?source=lead/)
  await expect(page.getByRole('heading', { level: 1, name: 'Lee Lead' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Call' })).toHaveAttribute(
    'href',
    'tel:+442079460000',
  )
  await expect(page.getByRole('link', { name: '+44 20 7946 0000' })).toHaveAttribute(
    'href',
    'tel:+442079460000',
  )
  await expect(page.getByRole('link', { name: leadEmail })).toHaveAttribute(
    'href',
    `mailto:${leadEmail}`,
  )
  await expect(page.getByText('Met at the fair, wants a demo')).toBeVisible()
  await expect(page.getByText('Left details')).toBeVisible()
  const consent = page.getByTestId('contact-consent')
  await expect(consent).toContainText('Consent v1')
  await expect(consent).toContainText('/c/coco-collector')
  const metOn = page.getByTestId('contact-card')
  await expect(metOn).toHaveAttribute('href', /^\/card\/[0-9a-f-]{36}$/)
  await expect(page.getByText('Your card')).toBeVisible()
  await expect(page.getByText(PERSONAL_MEANING)).toBeVisible()
  await checkBothThemes(page, 'contact')

  // The Personal switch from the keyboard: focused, then Space.
  const personal = page.getByRole('switch', { name: 'Lee Lead: personal contact' })
  await expect(personal).toHaveAttribute('aria-checked', 'false')
  await personal.focus()
  await page.keyboard.press('Space')
  await expect(page.getByText('Marked as personal')).toBeVisible()
  await expect(personal).toHaveAttribute('aria-checked', 'true')

  // Back to the list as it was left (source kept); the personal filter now finds Lee.
  await page.getByRole('link', { name: 'Back to contacts' }).click()
  await expect(page).toHaveURL(/\/contacts\?source=lead$/)
  await page.getByLabel('Personal or company').selectOption({ label: 'Personal contacts' })
  await expect(page).toHaveURL(/kind=personal/)
  await expect(lead).toHaveCount(1)
  await expect(lead.getByRole('switch', { name: 'Lee Lead: personal contact' })).toHaveAttribute(
    'aria-checked',
    'true',
  )
  // The exports carry the same filters.
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    '/contacts/export.csv?source=lead&kind=personal',
  )

  // A search with no match says so, and offers the whole list back.
  await page.goto(urlFor(agency.host, '/contacts'))
  await page.getByRole('searchbox').fill('nobody-by-this-name')
  await page.getByRole('searchbox').press('Enter')
  await expect(page.getByRole('heading', { name: 'No contacts match your search' })).toBeVisible()
  await page.getByRole('link', { name: 'Show all contacts' }).click()
  await expect(lead).toHaveCount(1)

  // An id that is not one of hers: not found, in the signed-in frame, with the way back.
  const missing = await page.goto(
    urlFor(agency.host, '/contacts/00000000-0000-4000-8000-000000000000'),
  )
  expect(missing?.status()).toBe(404)
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Contact not found' })).toBeVisible()
  await checkBothThemes(page, 'contact-not-found')
  await page.getByRole('link', { name: 'Back to contacts' }).click()
  await expect(page).toHaveURL(urlFor(agency.host, '/contacts'))
  await context.close()
})
