// Short links (issue 28 point 3, ADR 041): the owner picks the card's short link in the card
// editor, a visitor opens it, the owner changes it and the old one redirects to the new; the QR
// code decodes to the short link, which opens the card.
import { expect, type Page, test } from '@playwright/test'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { qrTextOf } from '#app/cards/short-link'
import { SLUG_MESSAGES } from '#app/validation/card-slug'
import { HOSTS, urlFor } from './fixtures'
import { signedInAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

const owner = SPEC_ACCOUNTS.shortLinker
const unique = () => Math.random().toString(36).slice(2, 8)

/** The owner's card editor, found from the QR screen's Edit link, and the card's id. */
async function openEditor(page: Page) {
  await page.goto(urlFor(HOSTS.alpha, '/qrcode'))
  const edit = (await page.getByRole('link', { name: 'Edit' }).getAttribute('href')) ?? ''
  const id = edit.split('/').at(-1) ?? ''
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  await page.goto(urlFor(HOSTS.alpha, edit))
  await expect(page.getByRole('heading', { name: 'Short link' })).toBeVisible()
  return id
}

async function saveSlug(page: Page, slug: string) {
  const field = page.getByLabel('Short link', { exact: true })
  await field.fill(slug)
  await page.getByRole('button', { name: 'Save Short Link' }).click()
}

/** A PNG's QR code as Chromium fetched it (Node does not resolve *.localhost). */
async function decodeQrPng(page: Page, path: string) {
  const tab = await page.context().newPage()
  const response = await tab.goto(urlFor(HOSTS.alpha, path))
  expect(response?.headers()['content-type']).toBe('image/png')
  const bytes = (await response?.body()) ?? Buffer.alloc(0)
  await tab.close()
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)
}

test('the owner chooses a short link, opens it, changes it; the old one redirects; the QR decodes to it', async ({
  browser,
}) => {
  const { context, page } = await signedInAs(browser, owner)
  const cardId = await openEditor(page)
  // The default, from the name.
  await expect(page.getByLabel('Short link', { exact: true })).toHaveValue('sia-shortlink')

  // Refused next to the field: a reserved word, then capitals and spaces.
  await saveSlug(page, 'admin')
  await expect(page.getByText(SLUG_MESSAGES.reserved)).toBeVisible()
  await expect(page.getByLabel('Short link', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  )
  await saveSlug(page, 'Sia Short')
  await expect(page.getByText(SLUG_MESSAGES.characters)).toBeVisible()

  const first = `sia-${unique()}`
  await saveSlug(page, first)
  await expect(page.getByText('Short link saved. The old one still leads here')).toBeVisible()
  const firstUrl = urlFor(HOSTS.alpha, `/c/${first}`)
  await expect(page.getByRole('link', { name: firstUrl })).toBeVisible()

  // A visitor opens it: the card itself, no redirect, its canonical address the short link.
  const visitor = await browser.newContext()
  const visit = await visitor.newPage()
  const opened = await visit.goto(firstUrl)
  expect(opened?.status()).toBe(200)
  expect(opened?.request().redirectedFrom()).toBeNull()
  await expect(visit.getByTestId('card-display')).toContainText('Sia Shortlink')
  await expect(visit.locator('link[rel="canonical"]')).toHaveAttribute('href', firstUrl)
  // The next visitor's copy comes from the page cache, as /card/{id}'s does (ADR 021). Other
  // specs edit Alpha's cards meanwhile, and each edit empties Alpha's cached pages: asked again
  // until an answer comes from the cache.
  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await expect.poll(async () => (await otherPage.goto(firstUrl))?.headers()['x-cache']).toBe('HIT')
  await other.close()

  // The owner changes it; the old link now redirects to the new one.
  const second = `sia-${unique()}`
  await saveSlug(page, second)
  await expect(page.getByRole('link', { name: urlFor(HOSTS.alpha, `/c/${second}`) })).toBeVisible()
  const secondUrl = urlFor(HOSTS.alpha, `/c/${second}`)
  // The change dropped the cached page: the old link now redirects to the new one.
  const moved = await visit.goto(firstUrl)
  expect(visit.url()).toBe(secondUrl)
  const hop = moved?.request().redirectedFrom()
  expect(hop?.url()).toBe(firstUrl)
  expect((await hop?.response())?.status()).toBe(301)
  await expect(visit.getByTestId('card-display')).toContainText('Sia Shortlink')

  // The QR code holds the short link (in capitals), small; scanned, it opens the card.
  const qr = await decodeQrPng(visit, `/card/${cardId}/qr.png`)
  expect(qr?.data).toBe(qrTextOf(secondUrl))
  expect(qr?.version).toBeLessThanOrEqual(4)
  const scanned = await visit.goto(qr?.data ?? '')
  expect(scanned?.status()).toBe(200)
  await expect(visit.getByTestId('card-display')).toContainText('Sia Shortlink')

  // The id link keeps working.
  expect((await visit.goto(urlFor(HOSTS.alpha, `/card/${cardId}`)))?.status()).toBe(200)
  await visitor.close()
  await context.close()
})
