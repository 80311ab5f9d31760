import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { readWithIcal, readWithVcf } from '#tests/vcard-readers'
import { urlFor } from './fixtures'
import { signedInAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

// Issue 28: the owner adds a bio, a second phone, an address and two links in the card editor;
// the recipient's page shows each as an action that works, at a phone's width and a desktop's,
// and the vCard it saves parses back with every field.
const OWNER = SPEC_ACCOUNTS.cardDetails
const CARD_PATH = '/card/dana-details'

test('the owner adds details; the recipient gets them as actions and in the vCard', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const { context, page } = await signedInAs(browser, OWNER, '/dashboard/end-user/digital-cards')
  await page
    .getByRole('link', { name: /^Edit / })
    .first()
    .click()
  await expect(page.getByRole('heading', { name: 'Edit Digital Card' })).toBeVisible()
  await page.getByLabel('Phone', { exact: true }).fill('+1 555 0101')
  await page.getByLabel('Second phone', { exact: true }).fill('+1 555 0102')
  await page.getByLabel('Second phone type').selectOption('work')
  await page.getByLabel('Pronouns').fill('they/them')
  await page.getByLabel('Headline or short bio').fill('Builds cards that do the work.')
  await page.getByLabel('Street').fill('1 Infinite Loop')
  await page.getByLabel('City').fill('Cupertino')
  await page.getByLabel('Region').fill('CA')
  await page.getByLabel('Postal code').fill('95014')
  await page.getByLabel('Country').fill('United States')
  await page.getByLabel('Link 1 kind').selectOption('linkedin')
  // A wrong address for the kind is refused next to the field, and nothing is saved.
  await page.getByLabel('Link 1 address').fill('https://example.test/dana')
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText('Please enter a LinkedIn address (linkedin.com)')).toBeVisible()
  await page.getByLabel('Link 1 address').fill('linkedin.com/in/dana')
  await page.getByLabel('Link 2 kind').selectOption('custom')
  await page.getByLabel('Link 2 label').fill('Portfolio')
  await page.getByLabel('Link 2 address').fill('https://dana.example.test/work')
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page).toHaveURL(/step=visuals/)
  await context.close()

  for (const width of [375, 1280]) {
    // The phone prefers dark, the desktop light: the page follows each, without a setting.
    const colorScheme = width === 375 ? 'dark' : 'light'
    const visitor = await browser.newContext({
      viewport: { width, height: width === 375 ? 812 : 900 },
      acceptDownloads: true,
      colorScheme,
    })
    const card = await visitor.newPage()
    await card.goto(urlFor(OWNER.host, CARD_PATH))
    const background = await card.evaluate(() => getComputedStyle(document.body).backgroundColor)
    if (colorScheme === 'dark') expect(background).not.toBe('rgb(255, 255, 255)')
    else expect(background).toBe('rgb(255, 255, 255)')
    if (process.env.CARD_DETAILS_SCREENSHOT) {
      await card.screenshot({ path: `${process.env.CARD_DETAILS_SCREENSHOT}-${width}.png` })
    }
    const shown = card.getByTestId('card-display')
    await expect(shown).toContainText('Builds cards that do the work.')
    await expect(shown).toContainText('(they/them)')
    await expect(card.locator('a[href="tel:+15550101"]')).toBeVisible()
    await expect(card.locator('a[href="tel:+15550102"]')).toBeVisible()
    await expect(card.locator('a[href="sms:+15550101"]')).toBeVisible()
    await expect(card.locator(`a[href="mailto:${OWNER.email}"]`)).toBeVisible()
    const directions = card.locator('a[data-action="directions"]')
    await expect(directions).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=1%20Infinite%20Loop/,
    )
    const links = card.locator('a[data-action="link"]')
    await expect(links).toHaveCount(2)
    for (const link of await links.all()) {
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow')
      await expect(link).toHaveAttribute('target', '_blank')
    }
    await expect(links.first()).toHaveAttribute('href', 'https://linkedin.com/in/dana')
    await expect(links.nth(1)).toHaveText('Portfolio')

    const save = card.getByRole('link', { name: 'Save Contact' })
    const box = await save.boundingBox()
    expect(box?.height ?? 0, `Save Contact at ${width}px`).toBeGreaterThanOrEqual(48)
    if (width === 375) {
      // Held at the bottom of a phone's screen, the full width less the bar's padding.
      expect(box?.width ?? 0).toBeGreaterThanOrEqual(375 - 32)
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeGreaterThan(812 - 40)
    }
    const connect = card.getByRole('button', { name: 'Connect with Dana' })
    const connectBox = await connect.boundingBox()
    expect(connectBox?.height ?? 0).toBeLessThan(60)
    const sideways = await card.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    )
    expect(sideways, `no sideways scroll at ${width}px`).toBe(false)

    if (width === 375) {
      const downloading = card.waitForEvent('download')
      await save.click()
      const text = readFileSync((await (await downloading).path()) ?? '', 'utf8')
      for (const read of [readWithVcf, readWithIcal]) {
        const parsed = read(text)
        expect(parsed, read.name).toMatchObject({
          version: '3.0',
          fn: 'Dana Details',
          note: 'Builds cards that do the work.',
          pronouns: 'they/them',
          adr: ['', '', '1 Infinite Loop', 'Cupertino', 'CA', '95014', 'United States'],
        })
        expect(parsed.tels.map((t) => [t.types[0], t.value])).toEqual([
          ['cell', '+1 555 0101'],
          ['work', '+1 555 0102'],
        ])
        expect(parsed.emails.map((e) => e.value)).toContain(OWNER.email)
        expect(parsed.socialProfiles).toEqual([
          { types: ['linkedin'], value: 'https://linkedin.com/in/dana' },
          { types: ['custom'], value: 'https://dana.example.test/work' },
        ])
      }
    }
    await visitor.close()
  }
})
