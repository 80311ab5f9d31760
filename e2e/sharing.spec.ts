import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { qrTextOf } from '#app/cards/short-link'
import { CARD_OWNER, HOSTS, TENANTS, urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const unique = () => Math.random().toString(36).slice(2, 8)
const cardPath = '/card/olivia-owner'

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

function unfold(vcard: string) {
  return vcard.replaceAll('\r\n ', '').split('\r\n').filter(Boolean)
}

test('a visitor opens a card: branded page, vCard, QR code and lead form', async ({
  page,
  browser,
}) => {
  await page.goto(urlFor(HOSTS.alpha, cardPath))
  await expect(page.getByRole('heading', { name: 'Contact Card' })).toBeVisible()
  await expect(page.getByTestId('tenant-name')).toHaveText(TENANTS.alpha.name)
  const card = page.getByTestId('card-display')
  await expect(card).toContainText('Olivia Owner')
  await expect(card).toContainText(CARD_OWNER.jobTitle)
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Olivia Owner')

  // Save Contact downloads a vCard, checked field by field.
  const downloadPromise = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Save Contact' }).click()
  const download = await downloadPromise
  expect(download.suggestedFilename()).toBe('Olivia_Owner.vcf')
  const lines = unfold(readFileSync((await download.path()) ?? '', 'utf8'))
  expect(lines[0]).toBe('BEGIN:VCARD')
  expect(lines).toContain('VERSION:3.0')
  expect(lines).toContain('N:Owner;Olivia;;;')
  expect(lines).toContain('FN:Olivia Owner')
  expect(lines).toContain('ORG:Widgets\\, Inc\\; Ltd')
  expect(lines).toContain(`TITLE:${CARD_OWNER.jobTitle}`)
  expect(lines).toContain(`TEL;TYPE=CELL:${CARD_OWNER.phoneNumber}`)
  expect(lines).toContain(`EMAIL;TYPE=INTERNET,HOME:${CARD_OWNER.email}`)
  expect(lines).toContain(`URL:${CARD_OWNER.website}`)
  const cardUrlLine = lines.find((l) => l.startsWith('URL;TYPE=CARD:')) ?? ''
  // The card's short link, marked as the vCard's (ADR 039, ADR 041).
  const cardUrl = cardUrlLine.replace('URL;TYPE=CARD:', '').replace(/\?s=v$/, '')
  expect(cardUrlLine).toMatch(
    new RegExp(`^URL;TYPE=CARD:http://${HOSTS.alpha}:\\d+/c/[a-z0-9-]+\\?s=v$`),
  )
  expect(lines.at(-1)).toBe('END:VCARD')
  await expect(page.getByText(/^Contact (exported for|file downloaded)/)).toBeVisible()

  const saveHref =
    (await page.getByRole('link', { name: 'Save Contact' }).getAttribute('href')) ?? ''
  const cardId = /^\/card\/([0-9a-f-]{36})\/vcard$/.exec(saveHref)?.[1] ?? ''
  expect(cardId).not.toBe('')

  // The QR code decodes back to the card's short link, in the capitals a QR code holds best.
  const png = await page.evaluate(async (src) => {
    const bytes = new Uint8Array(await (await fetch(src)).arrayBuffer())
    return Array.from(bytes)
  }, `${cardPath}/qr.png`)
  const { data, info } = await sharp(Buffer.from(png))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  expect([info.width, info.height]).toEqual([300, 300])
  const decoded = jsQR(new Uint8ClampedArray(data), info.width, info.height)
  expect(decoded?.data).toBe(qrTextOf(cardUrl))

  // A lead without an account becomes a contact of the owner.
  const leadEmail = `lead-${unique()}@example.test`
  await page.getByLabel('Your name').fill('Lee Lead')
  await page.getByLabel('Your email').fill(leadEmail)
  await page.getByLabel('Your company').fill('Prospects Ltd')
  await page.getByLabel('Note').fill('Met at the fair')
  await page.getByRole('button', { name: 'Send my details' }).click()
  await expect(page.getByText('Thanks! Olivia will be in touch.')).toBeVisible()
  // The thank-you's next step: Olivia's own contact to keep (issue 41 point 7).
  const keep = page.getByRole('link', { name: "Save Olivia's contact" })
  await expect(keep).toBeVisible()
  await expect(keep).toHaveAttribute('href', saveHref)

  const { context: ownerContext, page: owner } = await signedInAs(browser, CARD_OWNER, '/contacts')
  await expect(owner).toHaveURL(urlFor(HOSTS.alpha, '/contacts'))
  const row = owner.getByTestId('contact-row').filter({ hasText: leadEmail })
  await expect(row).toContainText('Lee Lead')
  await expect(row).toContainText('Met at the fair')
  await ownerContext.close()

  // The same link on another tenant's host is not found.
  const foreign = await page.goto(urlFor(HOSTS.betaSubdomain, `/card/${cardId}`))
  expect(foreign?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Contact Card Not Found' })).toBeVisible()
  await expect(
    page.getByText("Sorry, we couldn't find the contact card you're looking for."),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Go to Home' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.betaSubdomain, '/'))
})

test('connect: signed out, through sign-in, back to one automatic connection', async ({ page }) => {
  // A visitor with an account on Alpha.
  const email = `visitor-${unique()}@example.test`
  await page.goto(urlFor(HOSTS.alpha, '/auth/register'))
  await page.getByLabel('First name').fill('Vera')
  await page.getByLabel('Last name').fill('Visitor')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('visit-pass')
  await page.getByRole('button', { name: 'Create Account' }).click()
  // Sign-up signs in (ADR 071); this visitor comes back signed out.
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/onboarding'))
  await page.context().clearCookies()

  await page.goto(urlFor(HOSTS.alpha, cardPath))
  // Signed out, "Connect with Olivia" leads to the exchange form, no account needed (issue 41
  // point 7); a person with an account signs in from its foot.
  await page.getByRole('link', { name: 'Connect with Olivia' }).click()
  await expect(page).toHaveURL(/#lead-heading$/)
  await expect(
    page.getByRole('heading', { name: 'Share your details with Olivia' }),
  ).toBeInViewport()
  await page.getByRole('button', { name: 'Sign in to connect' }).click()
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=/)
  await expect(page.getByText('Sign in to connect with Olivia')).toBeVisible()
  await signIn(page, email, 'visit-pass')

  await expect(page.getByText('Successfully connected with Olivia')).toBeVisible()
  await expect(page).toHaveURL(/\/card\/[0-9a-f-]{36}$/)
  // The button then says so, and stays so.
  await expect(page.getByRole('button', { name: 'Connected with Olivia' })).toBeDisabled()

  // Reloading does not connect again.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Connected with Olivia' })).toBeDisabled()
  await page.goto(urlFor(HOSTS.alpha, '/contacts'))
  await expect(page.getByTestId('contact-row').filter({ hasText: 'Olivia Owner' })).toHaveCount(1)
})

/** A same-origin fetch from the page (Node cannot resolve *.localhost; Chromium does). */
async function fetchIn(page: Page, url: string) {
  const got = await page.evaluate(async (src) => {
    const response = await fetch(src)
    return {
      status: response.status,
      type: response.headers.get('Content-Type') ?? '',
      cacheControl: response.headers.get('Cache-Control') ?? '',
      bytes: Array.from(new Uint8Array(await response.arrayBuffer())),
    }
  }, url)
  return { ...got, body: Buffer.from(got.bytes) }
}

/** An image answer decoded: its size and the colour of one pixel as #rrggbb. */
async function decodePng(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  const pixel = `#${[data[at], data[at + 1], data[at + 2]]
    .map((c) => (c ?? 0).toString(16).padStart(2, '0'))
    .join('')}`
  return { width: info.width, height: info.height, pixel }
}

test('link previews and the home screen show the agency: og:image, manifest, icons (ADR 024)', async ({
  page,
}) => {
  const blocked: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text())
  })
  await page.goto(urlFor(HOSTS.alpha, cardPath))
  await expect(page.getByTestId('card-display')).toContainText('Olivia Owner')
  const meta = (selector: string) => page.locator(selector).getAttribute('content')
  const image = (await meta('meta[property="og:image"]')) ?? ''
  // Absolute, on the agency's own origin, addressed by a hash of what it shows.
  expect(image).toMatch(
    new RegExp(`^http://${HOSTS.alpha}:\\d+/card/[0-9a-f-]{36}/og/[0-9a-f]{20}\\.png$`),
  )
  expect(await meta('meta[property="og:image:width"]')).toBe('1200')
  expect(await meta('meta[property="og:image:height"]')).toBe('630')
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image')
  const preview = await fetchIn(page, image)
  expect(preview.status).toBe(200)
  expect(preview.type).toBe('image/png')
  expect(preview.cacheControl).toBe('public, max-age=300, must-revalidate')
  const drawn = await decodePng(preview.body, 5, 5)
  expect(drawn).toEqual({ width: 1200, height: 630, pixel: TENANTS.alpha.primaryColor })

  // The manifest the page links resolves on this host and names the agency in its colours.
  const manifestHref = (await page.locator('link[rel="manifest"]').getAttribute('href')) ?? ''
  expect(manifestHref).toBe('/manifest.webmanifest')
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute(
    'content',
    TENANTS.alpha.primaryColor,
  )
  const manifestResponse = await fetchIn(page, manifestHref)
  expect(manifestResponse.type).toMatch(/^application\/manifest\+json/)
  const manifest = JSON.parse(manifestResponse.body.toString('utf8')) as {
    name: string
    display: string
    theme_color: string
    icons: { src: string; sizes: string; purpose: string }[]
  }
  expect(manifest).toMatchObject({
    name: TENANTS.alpha.name,
    display: 'standalone',
    theme_color: TENANTS.alpha.primaryColor,
  })
  expect(manifest.icons.map((icon) => `${icon.purpose} ${icon.sizes}`).sort()).toEqual([
    'any 192x192',
    'any 512x512',
    'maskable 192x192',
    'maskable 512x512',
  ])
  for (const icon of manifest.icons) {
    const size = Number(icon.sizes.split('x')[0])
    const { body } = await fetchIn(page, icon.src)
    expect(await decodePng(body, 0, 0)).toEqual({
      width: size,
      height: size,
      pixel: TENANTS.alpha.primaryColor,
    })
  }
  const touch = (await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')) ?? ''
  const touchIcon = await decodePng((await fetchIn(page, touch)).body, 0, 0)
  expect(touchIcon).toEqual({ width: 180, height: 180, pixel: TENANTS.alpha.primaryColor })

  // Another agency's custom domain: its own manifest, in its own colours.
  await page.goto(urlFor(HOSTS.betaCustomDomain, '/'))
  const beta = JSON.parse((await fetchIn(page, '/manifest.webmanifest')).body.toString('utf8')) as {
    name: string
    theme_color: string
  }
  expect(beta).toMatchObject({ name: TENANTS.beta.name, theme_color: TENANTS.beta.primaryColor })
  expect(blocked).toEqual([])
})

// Issue 41 point 6 at a phone's width: a recipient's page has no app chrome (no back arrow, no
// Sign In / Sign Up bar; "Get your own card" in the footer), shows the card's QR code to pass it
// on (a disclosure that works without JavaScript), and offers the phone's own wallet.
test("a recipient's page: no app chrome, Show QR, the phone's own wallet", async ({ browser }) => {
  const iphone = await browser.newContext({
    viewport: { width: 375, height: 812 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  })
  const page = await iphone.newPage()
  await page.goto(urlFor(HOSTS.alpha, cardPath))
  await waitForHydration(page)
  const header = page.getByRole('banner')
  await expect(header.getByTestId('tenant-name')).toHaveText(TENANTS.alpha.name)
  await expect(header.getByRole('link', { name: 'Sign In' })).toHaveCount(0)
  await expect(header.getByRole('link', { name: 'Sign Up' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Back' })).toHaveCount(0)
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'Get your own card' }),
  ).toHaveAttribute('href', '/auth/register')
  // The phone's own wallet only; the QR code loads once shown.
  await expect(page.getByTestId('apple-wallet-badge')).toBeVisible()
  await expect(page.getByTestId('google-wallet-badge')).toHaveCount(0)
  const qr = page.getByRole('img', { name: "QR code of Olivia's card" })
  await expect(qr).toBeHidden()
  await page.getByText('Show QR').click()
  await expect(qr).toBeVisible()
  await expect
    .poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0)
  await page.screenshot({ path: test.info().outputPath('375-recipient-page.jpg'), quality: 60 })
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    ),
    'no sideways scroll on the card page at 375px',
  ).toBe(false)
  await iphone.close()

  // A desktop visitor is offered every configured wallet.
  const desktop = await browser.newContext()
  const other = await desktop.newPage()
  await other.goto(urlFor(HOSTS.alpha, cardPath))
  await expect(other.getByTestId('apple-wallet-badge')).toBeVisible()
  await expect(other.getByTestId('google-wallet-badge')).toBeVisible()
  await desktop.close()
})

// Issue 41 point 6 (ADR 083) at a phone's width: the owner gives her card a cover and a video,
// her agency's admin points "Get your own card" at its own page, and a recipient sees the cover,
// the video as a facade that frames the player only when tapped, and the agency's link. Nothing
// leaves this machine: every request to another host is aborted and recorded.
test("a recipient's page: cover image, video facade, the agency's own footer link", async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const agency = SPEC_AGENCIES.recipient
  const [rita] = agency.endUsers
  const VIDEO = 'https://youtu.be/dQw4w9WgXcQ'
  const FOOTER = 'https://get.recipient-agency.test/cards'
  const outside: string[] = []
  const localOnly = async (context: Awaited<ReturnType<typeof browser.newContext>>) => {
    await context.route('**/*', (route) => {
      const { hostname } = new URL(route.request().url())
      if (hostname === '127.0.0.1' || hostname === 'localhost' || hostname.endsWith('.localhost')) {
        return route.continue()
      }
      outside.push(route.request().url())
      return route.abort()
    })
  }

  // The owner, on a phone: the video (a wrong address first, refused next to the field).
  const owner = await signedInAs(browser, rita)
  await localOnly(owner.context)
  await owner.page.setViewportSize({ width: 375, height: 812 })
  await owner.page.goto(urlFor(agency.host, '/qrcode'))
  const edit = (await owner.page.getByRole('link', { name: 'Edit' }).getAttribute('href')) ?? ''
  await owner.page.goto(urlFor(agency.host, edit))
  await waitForHydration(owner.page)
  const video = owner.page.getByLabel('Video', { exact: true })
  await video.fill('https://example.test/watch?v=dQw4w9WgXcQ')
  await owner.page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(owner.page.getByText(/^Enter a YouTube or Vimeo link/)).toBeVisible()
  await video.fill(VIDEO)
  await owner.page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(owner.page.getByText('Card updated successfully')).toBeVisible()
  // The preview shows the facade as it will be (a link there: the editor frames nothing).
  await expect(
    owner.page.getByRole('complementary', { name: 'Preview' }).getByRole('link', {
      name: /Watch video/,
    }),
  ).toBeVisible()

  // The cover, through the same image field as the photo.
  await owner.page.getByRole('link', { name: 'Visuals & Images' }).click()
  const cover = await sharp({
    create: { width: 1500, height: 500, channels: 3, background: '#0e7490' },
  })
    .png()
    .toBuffer()
  await owner.page
    .locator('input[name="coverFile"]')
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover })
  const preview = owner.page.getByRole('complementary', { name: 'Preview' })
  await expect(preview.getByTestId('card-cover')).toBeVisible()
  await owner.page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(owner.page.getByText('Changes saved')).toBeVisible()
  await owner.context.close()

  // The agency's admin chooses where "Get your own card" leads.
  const admin = await signedInAs(browser, agency.owner, '/dashboard/agency/branding?tab=domain')
  await localOnly(admin.context)
  await admin.page.getByLabel('"Get your own card" link').fill(FOOTER)
  await admin.page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(admin.page.getByText('Branding Updated')).toBeVisible()
  await admin.context.close()

  // A recipient on a phone, signed out.
  const visitor = await browser.newContext({ viewport: { width: 375, height: 812 } })
  await localOnly(visitor)
  const page = await visitor.newPage()
  const cardPath = `/card/${rita?.firstName.toLowerCase()}-${rita?.lastName.toLowerCase()}`
  const response = await page.goto(urlFor(agency.host, cardPath))
  await waitForHydration(page)
  // The page may frame the two players and nothing else.
  expect(response?.headers()['content-security-policy']).toContain(
    'frame-src https://www.youtube-nocookie.com https://player.vimeo.com',
  )
  const shownCover = page.getByTestId('card-cover')
  await expect(shownCover).toBeVisible()
  await expect
    .poll(() => shownCover.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0)
  // Its box is 3:1 whatever the image: nothing moves when it arrives.
  const box = await shownCover.boundingBox()
  expect(Math.round((box?.width ?? 0) / 3)).toBe(Math.round(box?.height ?? 0))
  const facade = page.getByRole('link', { name: /^Watch video/ })
  await expect(facade).toBeVisible()
  await expect(facade).toHaveAttribute('href', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ')
  await expect(page.locator('iframe')).toHaveCount(0)
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'Get your own card' }),
  ).toHaveAttribute('href', FOOTER)
  expect(outside, 'nothing loads from outside before the tap').toEqual([])
  await expectAccessible(page, 'card page with a cover and a video')
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    ),
    'no sideways scroll on the card page at 375px',
  ).toBe(false)
  await page.screenshot({ path: test.info().outputPath('375-cover-and-video.jpg'), quality: 60 })

  // A tap puts the player in the poster's place (its request is aborted here: not awaited).
  await facade.click()
  const player = page.locator('iframe[data-video-player]')
  await expect(player).toHaveAttribute(
    'src',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
  )
  await expect(player).toHaveAttribute('title', "Rita's video on YouTube")
  await visitor.close()

  // Without JavaScript the facade is a plain link to the video on YouTube.
  const plain = await browser.newContext({ javaScriptEnabled: false })
  await localOnly(plain)
  const still = await plain.newPage()
  await still.goto(urlFor(agency.host, cardPath))
  await expect(still.getByRole('link', { name: /^Watch video/ })).toHaveAttribute(
    'href',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  )
  await expect(still.locator('iframe')).toHaveCount(0)
  await plain.close()
})
