// Issue 29 points 3 and 5 in one journey (ADR 044): the owner's QR screen offers Add to Google
// Wallet and Add to Apple Wallet (configured by e2e/start-server.ts with a throwaway key and
// certificates; the Apple badge downloads the signed pass), the virtual background, whose
// download is a PNG of the size asked for, and the email signature; the builder's layout, preview
// and "Copy signature" put HTML with the card's name and the signature's link marker on the
// clipboard; its HTML source is copied too. A visitor of the card gets the wallet badge only. At
// a phone's 375 px nothing scrolls sideways.
import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import { CARD_OWNER, HOSTS, urlFor } from './fixtures'
import { expectAccessible, openAs, waitForHydration } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

const NAME = `${CARD_OWNER.firstName} ${CARD_OWNER.lastName}`

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

test('the owner downloads a background and copies an email signature; a visitor gets the wallet', async ({
  page,
  browser,
}) => {
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: urlFor(HOSTS.alpha, '') })
  await openAs(page, CARD_OWNER, '/qrcode')
  const offers = page.getByTestId('share-offers')
  await expect(offers).toBeVisible()

  // Google Wallet: configured, and a desktop browser gets it.
  const wallet = offers.getByRole('link', { name: 'Add to Google Wallet' })
  await expect(wallet).toBeVisible()
  const walletHref = (await wallet.getAttribute('href')) ?? ''
  const cardId = /^\/card\/([0-9a-f-]{36})\/google-wallet$/.exec(walletHref)?.[1] ?? ''
  expect(cardId).not.toBe('')
  await expectAccessible(page, 'QR screen with its offers')

  // Apple Wallet: configured too (throwaway certificates); the badge downloads the signed pass.
  const applePass = offers.getByRole('link', { name: 'Add to Apple Wallet' })
  await expect(applePass).toHaveAttribute('href', `/card/${cardId}/pass.pkpass`)
  const passing = page.waitForEvent('download')
  await applePass.click()
  const pass = await passing
  const zip = readFileSync((await pass.path()) ?? '')
  // A zip holding the pass, its manifest and signature (their contents: apple-wallet.test.ts).
  expect(zip.subarray(0, 2).toString()).toBe('PK')
  for (const name of ['pass.json', 'manifest.json', 'signature'])
    expect(zip.includes(name)).toBe(true)

  // The virtual background: the thumbnail follows the form; the download is the PNG asked for.
  await offers.getByLabel('Size').selectOption('1280x720')
  await offers.getByLabel('Layout').selectOption('panel')
  await offers.getByLabel('Theme').selectOption('dark')
  const thumbnail = offers.getByTestId('background-preview')
  await expect(thumbnail).toHaveAttribute(
    'src',
    `/card/${cardId}/background.png?size=1280x720&layout=panel&theme=dark`,
  )
  const downloading = page.waitForEvent('download')
  await offers.getByRole('button', { name: 'Download background' }).click()
  const download = await downloading
  // The route's own name (its Content-Disposition) wins over the link's.
  expect(download.suggestedFilename()).toBe('background.png')
  // From bytes: the app's sharp configuration, which specs may load, keeps only buffer loaders.
  const meta = await sharp(readFileSync(await download.path())).metadata()
  expect([meta.format, meta.width, meta.height]).toEqual(['png', 1280, 720])

  await page.setViewportSize({ width: 375, height: 800 })
  expect(await scrollsSideways(page)).toBe(false)
  await page.setViewportSize({ width: 1280, height: 900 })

  // The builder: from the QR screen, a layout, the preview of the served HTML.
  await offers.getByRole('link', { name: 'Email signature' }).click()
  await expect(page.getByRole('heading', { name: 'Email Signature', level: 1 })).toBeVisible()
  await expect(page).toHaveURL(
    urlFor(HOSTS.alpha, `/dashboard/end-user/digital-cards/signature/${cardId}`),
  )
  await waitForHydration(page)
  await page.getByRole('link', { name: 'Banner' }).click()
  await expect(page).toHaveURL(/\?layout=banner$/)
  await expect(page.getByRole('link', { name: 'Banner' })).toHaveAttribute('aria-current', 'true')
  const preview = page.frameLocator('[data-testid="signature-preview"]')
  await expect(preview.getByText(NAME)).toBeVisible()
  await expect(preview.getByRole('link', { name: 'Save my contact' })).toHaveAttribute(
    'href',
    /\/c\/[a-z0-9-]+\?s=e$/,
  )
  // Its images load (same origin, absolute on the tenant's host): the QR code PNG.
  await expect
    .poll(() =>
      preview
        .locator('img[src$="/qr.png"]')
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    )
    .toBe(true)

  // Copy signature: rich text (HTML and its plain twin) on the clipboard.
  await page.getByRole('button', { name: 'Copy signature' }).click()
  await expect(page.getByText('Signature copied.', { exact: false })).toBeVisible()
  const copied = await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read()
    if (!item) return null
    const text = async (type: string) =>
      item.types.includes(type) ? (await item.getType(type)).text() : ''
    return { types: item.types, html: await text('text/html'), plain: await text('text/plain') }
  })
  expect(copied?.types).toEqual(expect.arrayContaining(['text/html', 'text/plain']))
  expect(copied?.html).toContain(NAME)
  expect(copied?.html).toContain('?s=e')
  expect(copied?.html).not.toMatch(/<(style|svg)\b|class=/i)
  expect(copied?.plain).toContain(NAME)

  // Copy HTML source: the markup itself as text.
  await page.getByRole('button', { name: 'Copy HTML source' }).click()
  await expect(page.getByText('HTML source copied')).toBeVisible()
  const source = await page.evaluate(() => navigator.clipboard.readText())
  expect(source.startsWith('<table')).toBe(true)
  expect(source).toContain(NAME)

  // The instructions, one tab per mail app.
  await page.getByRole('tab', { name: 'Outlook' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('Signatures')
  await expectAccessible(page, 'email signature builder')
  await page.setViewportSize({ width: 375, height: 800 })
  expect(await scrollsSideways(page)).toBe(false)

  // A visitor of the (public) card: the wallet, and neither the signature nor the background.
  const visitor = await browser.newContext()
  try {
    const visitorPage = await visitor.newPage()
    await visitorPage.goto(urlFor(HOSTS.alpha, `/qrcode/${cardId}`))
    const visitorOffers = visitorPage.getByTestId('share-offers')
    await expect(visitorOffers.getByRole('link', { name: 'Add to Google Wallet' })).toBeVisible()
    await expect(visitorOffers.getByRole('link', { name: 'Email signature' })).toHaveCount(0)
    await expect(visitorOffers.getByRole('button', { name: 'Download background' })).toHaveCount(0)
    // And the signature itself is not found for them.
    // (Fetched by Chromium: Node does not resolve *.localhost.)
    const refused = await visitorPage.goto(urlFor(HOSTS.alpha, `/card/${cardId}/signature.html`))
    expect(refused?.status()).toBe(404)
  } finally {
    await visitor.close()
  }
})

// Issue 41 point 2: Beta's signature is built on its verified custom domain, where mail clients
// will load it from; on Beta's subdomain the preview loads those images too (the page's
// Content-Security-Policy names the tenant's own domain, server.ts), so it shows what they show.
test("on an agency's subdomain the preview loads the signature's images from the agency's custom domain", async ({
  page,
}) => {
  const owner = SPEC_ACCOUNTS.betaSignature
  await openAs(page, owner, '/qrcode')
  await page.getByTestId('share-offers').getByRole('link', { name: 'Email signature' }).click()
  await expect(page.getByRole('heading', { name: 'Email Signature', level: 1 })).toBeVisible()
  const preview = page.frameLocator('[data-testid="signature-preview"]')
  await expect(preview.getByText(`${owner.firstName} ${owner.lastName}`)).toBeVisible()
  const images = preview.locator('img')
  // The QR code among them, every one on cards.beta.test.
  await expect(preview.locator('img[src$="/qr.png"]')).toHaveCount(1)
  const sources = await images.evaluateAll((all) =>
    all.map((image) => (image as HTMLImageElement).src),
  )
  const customDomain = urlFor(HOSTS.betaCustomDomain, '/')
  expect(sources.filter((src) => !src.startsWith(customDomain))).toEqual([])
  // Each one loaded (a refused image stays complete with no width).
  await expect
    .poll(() =>
      images.evaluateAll((all) =>
        all.every((image) => {
          const img = image as HTMLImageElement
          return img.complete && img.naturalWidth > 0
        }),
      ),
    )
    .toBe(true)
})
