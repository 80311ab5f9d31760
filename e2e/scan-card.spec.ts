// Paper cards read on the device (issue 45 point 3, ADR 101), on a phone at 375 px: the test draws
// a business card itself (an HTML card on a grey table, screenshotted as a JPEG photo), Sid opens Contacts, taps "Scan a card"
// and uploads the photo through the page's file field (the camera or the library on a phone);
// the server reads it with tesseract.js and no network, the page proposes the name, title,
// company, email, phone and website, Sid corrects nothing and saves, and the contact is in her
// list with the source "Scanned". Reading takes seconds on a busy machine: the waits are generous
// and nothing is timed.
import { type Browser, expect, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.contacts
const sid = agency.endUsers[1] as (typeof agency.endUsers)[number]
const PHONE = { width: 375, height: 800 }
const READ = { timeout: 60_000 }
const pick = (words: string[]) => words[Math.floor(Math.random() * words.length)] as string

/**
 * A plain business card as a phone would photograph it: an HTML card, white with dark print, on a
 * grey table, screenshotted as a JPEG by a page of its own (no network: the page is inline).
 */
async function cardPhoto(browser: Browser, person: { name: string; email: string; phone: string }) {
  const context = await browser.newContext({ viewport: { width: 1250, height: 800 } })
  const page = await context.newPage()
  await page.setContent(`<body style="margin:0;background:#9aa0a6">
  <div id="card" style="margin:100px;width:1050px;height:600px;background:#fff;color:#111;
    font-family:'DejaVu Sans','Liberation Sans',Arial,sans-serif;position:relative">
    <div style="position:absolute;left:60px;top:70px;font-size:56px;font-weight:bold">${person.name}</div>
    <div style="position:absolute;left:60px;top:150px;font-size:34px">Head of Sales</div>
    <div style="position:absolute;left:60px;top:200px;font-size:34px">Acme Widgets Ltd</div>
    <div style="position:absolute;left:60px;top:370px;font-size:30px">${person.email}</div>
    <div style="position:absolute;left:60px;top:420px;font-size:30px">${person.phone}</div>
    <div style="position:absolute;left:60px;top:470px;font-size:30px">www.acme-widgets.com</div>
  </div></body>`)
  const photo = await page.screenshot({ type: 'jpeg', quality: 85 })
  await context.close()
  return photo
}

test('a photo of a paper card becomes a contact with the source "scan"', async ({ browser }) => {
  test.setTimeout(180_000)
  // A real name (OCR reads words back as printed) and an email unique per run by its digits.
  const [first, last] = [
    pick(['Maria', 'Elena', 'Sofia', 'Anna']),
    pick(['Lopez', 'Novak', 'Jensen', 'Moreau']),
  ]
  const digits = String(Math.floor(10_000 + Math.random() * 89_999))
  const person = {
    name: `${first} ${last}`,
    email: `${first.toLowerCase()}.${last.toLowerCase()}.${digits}@acme-widgets.com`,
    phone: '+44 20 7946 0958',
  }
  const photo = await cardPhoto(browser, person)

  const { context, page } = await signedInAs(browser, sid)
  await page.setViewportSize(PHONE)
  await page.goto(urlFor(agency.host, '/contacts'))
  await waitForHydration(page)
  await page.getByRole('link', { name: 'Scan a card' }).click()
  await expect(page).toHaveURL(/\/contacts\/scan$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Scan a card' })).toBeVisible()
  await waitForHydration(page)
  // Any image: a phone offers its camera and its photo library (no `capture`, which would
  // leave the camera only).
  const field = page.getByLabel('Photo of the card')
  await expect(field).toHaveAttribute('accept', 'image/*')
  await expect(field).not.toHaveAttribute('capture')
  await expectAccessible(page, 'scan a card')

  // Read without a photo: the field says what to do.
  await page.getByRole('button', { name: 'Read the card' }).click()
  await expect(page.getByText('Please take or choose a photo of the card')).toBeVisible()

  await field.setInputFiles({ name: 'card.jpg', mimeType: 'image/jpeg', buffer: photo })
  await page.getByRole('button', { name: 'Read the card' }).click()
  const proposal = page.getByRole('form', { name: 'Check the details' })
  await expect(proposal).toBeVisible(READ)
  await expect(proposal.getByLabel('Name')).toHaveValue(person.name)
  await expect(proposal.getByLabel('Title')).toHaveValue('Head of Sales')
  await expect(proposal.getByLabel('Company')).toHaveValue('Acme Widgets Ltd')
  await expect(proposal.getByLabel('Email')).toHaveValue(person.email)
  await expect(proposal.getByLabel('Phone')).toHaveValue(person.phone)
  await expect(proposal.getByLabel('Website')).toHaveValue('www.acme-widgets.com')
  // Both themes: axe finds nothing (the account follows the system's theme).
  await expectAccessible(page, 'scan a card: the proposal (light)')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await expectAccessible(page, 'scan a card: the proposal (dark)')
  await page.screenshot({
    path: test.info().outputPath('375-scan-proposal-dark.jpg'),
    quality: 60,
    fullPage: true,
  })
  await page.emulateMedia({ colorScheme: 'light' })
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }))
  expect(scrollWidth, 'the proposal scrolls sideways').toBeLessThanOrEqual(clientWidth)
  await page.screenshot({
    path: test.info().outputPath('375-scan-proposal.jpg'),
    quality: 60,
    fullPage: true,
  })

  // Nothing to correct: saved as read, and the contact's page says where it came from.
  await proposal.getByRole('button', { name: 'Save contact' }).click()
  await expect(page.getByRole('heading', { level: 1, name: person.name })).toBeVisible()
  await expect(page.getByText('Contact saved')).toBeVisible()
  await expect(page.getByText('Scanned')).toBeVisible()
  await expect(page.getByRole('link', { name: person.email })).toHaveAttribute(
    'href',
    `mailto:${person.email}`,
  )
  await expect(page.getByRole('link', { name: person.phone })).toHaveAttribute(
    'href',
    'tel:+442079460958',
  )
  await expect(page.getByText('Website: www.acme-widgets.com')).toBeVisible()

  // In the list, filtered by its source.
  await page.goto(urlFor(agency.host, '/contacts?source=scan'))
  const row = page.getByTestId('contact-row').filter({ hasText: person.email })
  await expect(row).toContainText('Scanned')
  await expect(row).toContainText('Acme Widgets Ltd')

  // The same card again: already in the list, said next to the email, nothing saved twice.
  await page.goto(urlFor(agency.host, '/contacts/scan'))
  await waitForHydration(page)
  await page
    .getByLabel('Photo of the card')
    .setInputFiles({ name: 'card.jpg', mimeType: 'image/jpeg', buffer: photo })
  await page.getByRole('button', { name: 'Read the card' }).click()
  await expect(
    page.getByRole('form', { name: 'Check the details' }).getByLabel('Email'),
  ).toHaveValue(person.email, READ)
  await page.getByRole('button', { name: 'Save contact' }).click()
  await expect(page.getByText('This contact is already in your list').first()).toBeVisible()
  await page.goto(urlFor(agency.host, '/contacts?source=scan'))
  await expect(page.getByTestId('contact-row').filter({ hasText: person.email })).toHaveCount(1)
  await context.close()
})
