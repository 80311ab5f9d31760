import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { readWithIcal, readWithVcf } from '#tests/vcard-readers'
import { urlFor } from './fixtures'
import { signedInAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

// Issue 28: the owner adds a bio, a second phone, an address and two links in the card editor,
// moves the second link up (with JavaScript and without), and rewrites the bio from the profile's
// link to the editor;
// the recipient's page shows each as an action that works, in the new order, at a phone's width
// and a desktop's, its link preview says the bio, and the vCard it saves parses back with every
// field.
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
  await page.getByLabel('Headline or short bio').fill('A draft, rewritten later.')
  await page.getByLabel('Street').fill('1 Infinite Loop')
  await page.getByLabel('City').fill('Cupertino')
  await page.getByLabel('Region').fill('CA')
  await page.getByLabel('Postal code').fill('95014')
  await page.getByLabel('Country').fill('United States')
  await page.getByLabel('Link 1 kind').selectOption('linkedin')
  // A wrong address for the kind is refused next to the field, and nothing is saved.
  await page.getByLabel('Link 1 address').fill('https://example.test/dana')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Please enter a LinkedIn address (linkedin.com)')).toBeVisible()
  await page.getByLabel('Link 1 address').fill('linkedin.com/in/dana')
  // One empty row for the next link; "Add link" adds the row after it (issue 41 point 14).
  await expect(page.getByTestId('link-row')).toHaveCount(1)
  await page.getByRole('button', { name: 'Add link' }).click()
  await expect(page.getByTestId('link-row')).toHaveCount(2)
  await page.getByLabel('Link 2 kind').selectOption('custom')
  await page.getByLabel('Link 2 label').fill('Portfolio')
  await page.getByLabel('Link 2 address').fill('https://dana.example.test/work')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Card updated successfully')).toBeVisible()
  const detailsUrl = page.url()

  // At a phone's width the rows and their buttons fit; with JavaScript a move happens in place.
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto(detailsUrl)
  const moveUp = page.getByRole('button', { name: 'Move up link 2 (Portfolio)' })
  await expect(moveUp).toBeVisible()
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    ),
    'no sideways scroll in the editor at 375px',
  ).toBe(false)
  await expect(page.getByRole('button', { name: 'Move up link 1 (LinkedIn)' })).toBeDisabled()
  await moveUp.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByLabel('Link 1 label')).toHaveValue('Portfolio')
  await expect(page.getByLabel('Link 2 kind')).toHaveValue('linkedin')
  await page.getByRole('button', { name: 'Move down link 1 (Portfolio)' }).click()
  await expect(page.getByLabel('Link 2 label')).toHaveValue('Portfolio')
  await context.close()

  // Without JavaScript the server answers the move with the form, rows moved; Save saves them.
  const plain = await signedInAs(browser, OWNER, detailsUrl.replace(/^https?:\/\/[^/]+/, ''), {
    javaScript: false,
  })
  await plain.page.getByRole('button', { name: 'Move up link 2 (Portfolio)' }).click()
  await expect(plain.page.getByLabel('Link 1 label')).toHaveValue('Portfolio')
  await expect(plain.page.getByLabel('Link 1 address')).toHaveValue(
    'https://dana.example.test/work',
  )
  await plain.page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(plain.page).toHaveURL(/step=details/)
  await plain.page.reload()
  await expect(plain.page.getByLabel('Link 1 label')).toHaveValue('Portfolio')
  await plain.context.close()

  // The profile shows the card and repeats none of its fields (issue 41 point 11): its Edit
  // Card Details link opens the editor, where the bio is rewritten.
  const profile = await signedInAs(browser, OWNER, '/profile?tab=card')
  await expect(profile.page).toHaveURL(/\/profile\/end-user\?tab=card$/)
  await expect(profile.page.getByTestId('card-bio')).toHaveText('A draft, rewritten later.')
  await expect(profile.page.getByLabel('Headline or short bio')).toHaveCount(0)
  await profile.page.getByRole('link', { name: 'Edit Card Details' }).click()
  await expect(profile.page.getByRole('heading', { name: 'Edit Digital Card' })).toBeVisible()
  const bio = profile.page.getByLabel('Headline or short bio')
  await expect(bio).toHaveValue('A draft, rewritten later.')
  await expect(profile.page.getByLabel('Link 1 label')).toHaveValue('Portfolio')
  await bio.fill('Builds cards that do the work.')
  await profile.page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(profile.page.getByText('Card updated successfully')).toBeVisible()
  await profile.context.close()

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
    // In the order the owner moved them to.
    await expect(links.first()).toHaveText('Portfolio')
    // Through the tap counter (ADR 082), which sends the visitor on to the stored URL.
    await expect(links.nth(1)).toHaveAttribute('href', /^\/card\/[^/]+\/l\/[0-9a-f-]{36}$/)
    const tap = visitor.waitForEvent('response', (response) =>
      /\/l\/[0-9a-f-]{36}$/.test(response.url()),
    )
    const opened = visitor.waitForEvent('page')
    await links.nth(1).click()
    expect((await tap).status()).toBe(302)
    expect((await tap).headers().location).toBe('https://linkedin.com/in/dana')
    await (await opened).close()
    // The link preview describes the card by its bio.
    await expect(card.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      'Builds cards that do the work.',
    )
    await expect(card.locator('meta[property="og:description"]')).toHaveAttribute(
      'content',
      'Builds cards that do the work.',
    )

    const save = card.getByRole('link', { name: 'Save Contact' })
    const box = await save.boundingBox()
    expect(box?.height ?? 0, `Save Contact at ${width}px`).toBeGreaterThanOrEqual(48)
    if (width === 375) {
      // Held at the bottom of a phone's screen, the full width less the bar's padding.
      expect(box?.width ?? 0).toBeGreaterThanOrEqual(375 - 32)
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeGreaterThan(812 - 40)
    }
    // A visitor's connect is the way to the exchange form (issue 41 point 7): a link.
    const connect = card.getByRole('link', { name: 'Connect with Dana' })
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
          { types: ['custom'], value: 'https://dana.example.test/work' },
          { types: ['linkedin'], value: 'https://linkedin.com/in/dana' },
        ])
      }
    }
    await visitor.close()
  }
})
