// The QR screen (spec §2, ADR 009): the QR in the HTML decodes to the card's link on the
// tenant's host, with and without JavaScript; share sheet fallback, copy, NFC, layout, roles.
import { readFileSync } from 'node:fs'
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { qrTextOf } from '#app/cards/short-link'
import { CARD_OWNER, HOSTS, PROFILE_ONLY, urlFor } from './fixtures'
import { expectAccessible, openAs } from './page-helpers'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

/**
 * Through the sign-in form, back to `path` (its redirectTo): kept for the test without
 * JavaScript, the one browser check of a plain form sign-in that returns to where it was asked.
 */
async function signIn(page: Page, user: { email: string; password: string }, path: string) {
  await page.goto(urlFor(HOSTS.alpha, `/auth/login?redirectTo=${encodeURIComponent(path)}`))
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, path))
}

/**
 * The bytes of the QR `<img>` the page holds, decoded: a link marked as the QR code's
 * (`?s=q`, ADR 039), returned without its marker.
 */
async function decodeQrOf(page: Page) {
  const image = page.getByTestId('qr-code')
  await expect(image).toBeVisible()
  // Loaded by the page itself (an <img> in the server's HTML), at the spec's 300 px.
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(300)
  const src = (await image.getAttribute('src')) ?? ''
  // Fetched by Chromium (Node does not resolve *.localhost), in a tab of its own so it works
  // with JavaScript off too.
  const tab = await page.context().newPage()
  const response = await tab.goto(new URL(src, page.url()).href)
  if (!response) throw new Error(`no response for ${src}`)
  expect(response.headers()['content-type']).toBe('image/png')
  const bytes = await response.body()
  await tab.close()
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  // The short link in capitals, which also counts a scan as the QR code's (ADR 041).
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? ''
}

/** Olivia's card URL, as a visitor finds it (the public page's canonical link). */
/** The short link (ADR 041) the card page names as canonical, and the card's id. */
async function oliviaCard(page: Page) {
  await page.goto(urlFor(HOSTS.alpha, '/card/olivia-owner'))
  const canonical = (await page.locator('link[rel="canonical"]').getAttribute('href')) ?? ''
  expect(canonical).toMatch(shortLink())
  const vcard = (await page.getByRole('link', { name: 'Save Contact' }).getAttribute('href')) ?? ''
  const id = new RegExp(`^/card/(${UUID})/vcard$`).exec(vcard)?.[1] ?? ''
  expect(id).not.toBe('')
  return { cardUrl: canonical, id }
}

/** Built while a test runs: urlFor reads the project's port. */
const shortLink = () => new RegExp(`^${urlFor(HOSTS.alpha, '/c/')}[a-z0-9-]+$`)

test.describe('with JavaScript', () => {
  test('the owner: /qrcode and /qrcode/{id} show the card, its QR decodes to its URL, Edit and Manage', async ({
    page,
  }) => {
    await openAs(page, CARD_OWNER, '/qrcode')
    await expect(page.getByRole('heading', { name: 'QR Code', level: 1 })).toBeVisible()
    const shareUrl = (await page.getByTestId('share-url').textContent()) ?? ''
    expect(shareUrl).toMatch(shortLink())
    expect(await decodeQrOf(page)).toBe(qrTextOf(shareUrl))
    await expect(page.getByTestId('card-preview')).toContainText('Olivia Owner')
    await expect(page.getByTestId('signup-banner')).toHaveCount(0)
    const { id } = await oliviaCard(await page.context().newPage())
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/dashboard/end-user/digital-cards/edit/${id}`,
    )
    await expect(page.getByRole('link', { name: 'Manage Your Digital Cards' })).toHaveAttribute(
      'href',
      '/dashboard/end-user/digital-cards',
    )

    await page.goto(urlFor(HOSTS.alpha, `/qrcode/${id}`))
    expect(await decodeQrOf(page)).toBe(qrTextOf(shareUrl))
    await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Manage Your Digital Cards' })).toBeVisible()
  })

  test('a visitor: QR, preview and the sign-up banner, no Edit or Manage', async ({ page }) => {
    const { cardUrl, id } = await oliviaCard(page)
    await page.goto(urlFor(HOSTS.alpha, `/qrcode/${id}`))
    expect(await decodeQrOf(page)).toBe(qrTextOf(cardUrl))
    await expect(page.getByTestId('card-preview')).toContainText('Olivia Owner')
    const banner = page.getByTestId('signup-banner')
    await expect(banner).toBeVisible()
    await expect(banner.getByRole('link', { name: 'Sign Up' })).toHaveAttribute(
      'href',
      '/auth/register',
    )
    await expect(banner.getByRole('link', { name: 'Log In' })).toHaveAttribute(
      'href',
      '/auth/login',
    )
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Manage Your Digital Cards' })).toHaveCount(0)
  })

  test('an unknown card id is a clear not-found page with status 404', async ({ page }) => {
    const response = await page.goto(
      urlFor(HOSTS.alpha, '/qrcode/00000000-0000-4000-8000-000000000000'),
    )
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Card Not Found' })).toBeVisible()
    await expect(page.getByTestId('qr-code')).toHaveCount(0)
  })

  test('without the Web Share API the header share button opens the bottom sheet; Copy Link copies', async ({
    page,
    context,
  }) => {
    await allowClipboard(context)
    await page.addInitScript(() => {
      // Desktop Chromium may offer navigator.share; the fallback is what is under test.
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true })
    })
    const { cardUrl, id } = await oliviaCard(page)
    await page.goto(urlFor(HOSTS.alpha, `/qrcode/${id}`))
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined')
    // The share button sits in the page's own title row (spec §2).
    const titleRow = page.getByRole('heading', { name: 'QR Code', level: 1 }).locator('..')
    await titleRow.getByRole('button', { name: 'Share' }).click()
    const sheet = page.getByRole('dialog', { name: 'Share your card' })
    await expect(sheet).toBeVisible()
    await expect(sheet).toContainText(cardUrl)
    // Email and a text message carry the link marked as the share sheet's (issue 41 point 13).
    const email = (await sheet.getByRole('link', { name: 'Email' }).getAttribute('href')) ?? ''
    expect(email.startsWith('mailto:?')).toBe(true)
    expect(new URLSearchParams(email.slice('mailto:?'.length)).get('body')).toBe(`${cardUrl}?s=s`)
    const text =
      (await sheet.getByRole('link', { name: 'Text message' }).getAttribute('href')) ?? ''
    expect(text.startsWith('sms:?&body=')).toBe(true)
    expect(decodeURIComponent(text)).toContain(`${cardUrl}?s=s`)
    await sheet.getByRole('button', { name: 'Copy Link' }).click()
    await expect(sheet.getByRole('button', { name: 'Copied!' })).toBeVisible()
    // The copied link is marked as a copied link's (ADR 039).
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${cardUrl}?s=l`)
    await sheet.getByRole('button', { name: 'Close' }).click()
    await expect(sheet).toHaveCount(0)

    // The page's own 'Copy link' does the same.
    await page.evaluate(() => navigator.clipboard.writeText(''))
    await page.getByRole('button', { name: 'Copy link' }).click()
    await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${cardUrl}?s=l`)
  })

  test("'Share via NFC' only where NDEFReader exists: Ready to Scan, then Success! or Error", async ({
    page,
  }) => {
    const { id } = await oliviaCard(page)
    const qrPath = `/qrcode/${id}`
    await page.goto(urlFor(HOSTS.alpha, qrPath))
    await expect(page.getByTestId('qr-code')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeEnabled()
    await expect(page.getByRole('button', { name: 'Share via NFC' })).toHaveCount(0)

    // A tag that takes a moment and then accepts the vCard.
    await page.addInitScript(() => {
      const fake = class {
        async write(message: { records: { data: string }[] }) {
          await new Promise((resolve) => setTimeout(resolve, 600))
          if (!message.records[0]?.data.startsWith('BEGIN:VCARD')) throw new Error('no vCard')
          if (localStorage.getItem('nfc-fails') === '1') throw new Error('tag lost')
          if (localStorage.getItem('nfc-fails') === 'adapter') {
            throw new DOMException('No NFC adapter', 'NotSupportedError')
          }
        }
      }
      Object.assign(window, { NDEFReader: fake })
    })
    await page.reload()
    await page.getByRole('button', { name: 'Share via NFC' }).click()
    const modal = page.getByRole('dialog')
    await modal.getByRole('button', { name: 'Start' }).click()
    await expect(modal.getByRole('heading', { name: 'Ready to Scan' })).toBeVisible()
    await expect(modal.getByRole('button', { name: 'Cancel' })).toBeVisible()
    await expect(modal.getByRole('heading', { name: 'Success!' })).toBeVisible()
    // Spec §9: success closes after 2 s.
    await expect(modal).toHaveCount(0, { timeout: 30_000 })

    await page.evaluate(() => localStorage.setItem('nfc-fails', '1'))
    await page.getByRole('button', { name: 'Share via NFC' }).click()
    await modal.getByRole('button', { name: 'Start' }).click()
    await expect(modal.getByRole('heading', { name: 'Error' })).toBeVisible()
    await expect(modal.getByRole('button', { name: 'Try Again' })).toBeVisible()
    await expect(
      page.getByText('Failed to write to NFC tag. Please try again.').first(),
    ).toBeVisible()

    // A device whose browser has Web NFC but no NFC adapter.
    await page.evaluate(() => localStorage.setItem('nfc-fails', 'adapter'))
    // Spec §9: the error state returns to idle after 3 s, so either button may be showing.
    await modal.getByRole('button', { name: /^(Try Again|Start)$/ }).click()
    await expect(page.getByText('NFC is not supported on this device').first()).toBeVisible()
    await page.evaluate(() => localStorage.removeItem('nfc-fails'))
  })

  test('for print: PNG at 1200 px and SVG download under the owner’s name; at 375 px the link wraps only between its parts', async ({
    page,
  }) => {
    const { id } = await oliviaCard(page)
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(urlFor(HOSTS.alpha, `/qrcode/${id}`))
    for (const [name, file] of [
      ['Download PNG', 'olivia-owner-qr.png'],
      ['Download SVG', 'olivia-owner-qr.svg'],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name }).click(),
      ])
      expect(download.suggestedFilename()).toBe(file)
      const saved = await download.path()
      if (file.endsWith('.png')) {
        expect((await sharp(readFileSync(saved)).metadata()).width).toBe(1200)
      } else expect(readFileSync(saved, 'utf8')).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/)
    }
    // Each part of the link (between its slashes, dots and hyphens) sits on one line.
    const parts = await page
      .getByTestId('share-url')
      .locator('span')
      .evaluateAll((spans) =>
        spans.map((span) => ({ part: span.textContent, lines: span.getClientRects().length })),
      )
    expect(parts.length).toBeGreaterThan(3)
    expect(parts.filter((part) => part.lines !== 1)).toEqual([])
    await page.screenshot({ path: test.info().outputPath('375-qr-screen.jpg'), quality: 60 })
  })

  test('one column at 375 px, two at 1024 px', async ({ page }) => {
    const { id } = await oliviaCard(page)
    const path = `/qrcode/${id}`
    const boxes = async () => {
      const qr = await page.getByTestId('qr-panel').boundingBox()
      const preview = await page.getByTestId('card-preview').boundingBox()
      if (!qr || !preview) throw new Error('panels not laid out')
      return { qr, preview }
    }
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(urlFor(HOSTS.alpha, path))
    const narrow = await boxes()
    expect(narrow.preview.y).toBeGreaterThanOrEqual(narrow.qr.y + narrow.qr.height - 1)
    expect(Math.abs(narrow.preview.x - narrow.qr.x)).toBeLessThan(2)

    await page.setViewportSize({ width: 1024, height: 800 })
    const wide = await boxes()
    expect(wide.preview.x).toBeGreaterThanOrEqual(wide.qr.x + wide.qr.width - 1)
    expect(Math.abs(wide.preview.y - wide.qr.y)).toBeLessThan(2)
  })

  test('a user without a card: the profile, whose name link opens it', async ({ page }) => {
    await openAs(page, PROFILE_ONLY, '/qrcode')
    const profileUrl = urlFor(HOSTS.alpha, `/card/${PROFILE_ONLY.slug}`)
    await expect(page.getByTestId('share-url')).toHaveText(profileUrl)
    // Not a short link: the QR code's marker on it (ADR 039).
    expect(await decodeQrOf(page)).toBe(qrTextOf(profileUrl))
    await expect(page.getByTestId('card-preview')).toContainText('Pia Profile Only')
    await expect(page.getByTestId('card-preview')).toContainText(PROFILE_ONLY.jobTitle)
    await expect(page.getByRole('link', { name: 'Manage Your Digital Cards' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0)

    await page.goto(profileUrl)
    await expect(page.getByRole('heading', { name: 'Contact Card' })).toBeVisible()
    await expect(page.getByTestId('card-display')).toContainText('Pia Profile Only')
  })
})

test('the visitor view, the not-found page and the share sheet pass axe (WCAG 2.2 AA)', async ({
  page,
}) => {
  const { id } = await oliviaCard(page)
  await page.goto(urlFor(HOSTS.alpha, `/qrcode/${id}`))
  await expect(page.getByTestId('qr-code')).toBeVisible()
  await expectAccessible(page, 'visitor view')
  await page.getByRole('button', { name: 'Share' }).click()
  await expect(page.getByRole('dialog', { name: 'Share your card' })).toBeVisible()
  await expectAccessible(page, 'share sheet')
  await page.goto(urlFor(HOSTS.alpha, '/qrcode/not-a-card'))
  await expect(page.getByRole('heading', { name: 'Card Not Found' })).toBeVisible()
  await expectAccessible(page, 'not found')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the QR is in the HTML and decodes to the card URL, signed in and as a visitor', async ({
    page,
    browser,
  }) => {
    await signIn(page, CARD_OWNER, '/qrcode')
    const shareUrl = (await page.getByTestId('share-url').textContent()) ?? ''
    expect(shareUrl).toMatch(shortLink())
    expect(await decodeQrOf(page)).toBe(qrTextOf(shareUrl))

    const visitor = await browser.newContext({ javaScriptEnabled: false })
    const visitorPage = await visitor.newPage()
    const { id } = await oliviaCard(visitorPage)
    await visitorPage.goto(urlFor(HOSTS.alpha, `/qrcode/${id}`))
    expect(await decodeQrOf(visitorPage)).toBe(qrTextOf(shareUrl))
    await expect(visitorPage.getByTestId('signup-banner')).toBeVisible()
    await visitor.close()
  })
})

async function allowClipboard(context: BrowserContext) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(urlFor(HOSTS.alpha)).origin,
  })
}
