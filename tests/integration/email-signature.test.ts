// The email signature (issue 29 point 3, ADR 044): `/card/{ref}/signature.html` is parsed and held
// to what mail clients keep (tables and inline styles only; no class, <style>, SVG or data: URI;
// every image by absolute URL on the tenant's host; under 10 KB; links to the card marked `?s=e`)
// in every layout; the plain-text version carries the same; only the owner gets either, a card's
// hidden phone stays out, another tenant's card is not found; a bad layout is a 400. The builder
// answers its owner with the route's exact HTML. A recipient's click counts as the signature's
// view. The QR screen's offers follow the card gate.

import { type ChildNode, type Element, isTag, isText } from 'domhandler'
import { and, eq } from 'drizzle-orm'
import { parseDocument } from 'htmlparser2'
import { describe, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { replaceCardLinks } from '#app/models/cards.server'
import { storeMedia } from '#app/models/media.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { loader as shortLinkLoader } from '#app/routes/c.$slug'
import { loader as signatureLoader } from '#app/routes/card_.$ref.signature[.]html'
import { loader as builderLoader } from '#app/routes/dashboard.end-user.digital-cards.signature.$cardId'
import { loader as shareLoader } from '#app/routes/qrcode.$cardId'
import { sourceOfUrl } from '#app/utils/view-sources'
import {
  SIGNATURE_LAYOUTS,
  SIGNATURE_MAX_BYTES,
  type SignatureLayout,
  signaturePath,
} from '#app/validation/email-signature'
import type { Visibility } from '#app/validation/settings'
import { withTenant } from '#drizzle/db.server'
import { cardViews } from '#drizzle/schema'
import {
  contextFor,
  makeBrandedOrganization,
  makeCard,
  makePng,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { makeServiceAccountKey, TEST_ISSUER_ID } from '#tests/fake-google-wallet'
import {
  configureAppleWallet,
  makeTestCertificates,
  removeTestCertificates,
  unconfigureAppleWallet,
} from '../apple-wallet'

async function world() {
  const { organization } = await makeBrandedOrganization({ primaryColor: '#b91c1c' })
  const host = `${organization.slug}.localhost`
  const lastName = `Lovelace${uniqueSuffix()}`
  const owner = await makeUser(organization.id, { firstName: 'Ada', lastName })
  const stranger = await makeUser(organization.id)
  const photo = await withTenant(organization.id, (tx) =>
    makePng('#336699', 64, 64).then((bytes) =>
      storeMedia(tx, organization.id, {
        bytes,
        contentType: 'image/png',
        width: 64,
        height: 64,
        purpose: 'profile-picture',
      }),
    ),
  )
  const card = await makeCard(organization.id, owner.id, {
    firstName: 'Ada',
    lastName,
    jobTitle: 'Analyst',
    company: 'Engines & Co',
    phoneNumber: '+44 20 7946 0018',
    website: 'https://ada.example.test',
    profilePictureMediaId: photo.id,
  })
  await withTenant(organization.id, (tx) =>
    replaceCardLinks(tx, organization.id, owner.id, card.id, [
      { kind: 'linkedin', label: '', url: 'https://www.linkedin.com/in/ada' },
      { kind: 'whatsapp', label: '', url: 'https://wa.me/442079460018' },
    ]),
  )
  return {
    organization,
    host,
    owner,
    card,
    ownerCookie: await sessionCookieFor(organization.id, owner.id),
    strangerCookie: await sessionCookieFor(organization.id, stranger.id),
  }
}
type World = Awaited<ReturnType<typeof world>>

function get(w: World, path: string, cookie: string | null, host = w.host) {
  return settle(() =>
    signatureLoader({
      request: requestFor(host, path, cookie ? { headers: { Cookie: cookie } } : {}),
      context: contextFor(host),
      params: { ref: w.card.id },
    }),
  )
}

const setPrivacy = (w: World, visibility: Visibility, showPhone = true) =>
  withTenant(w.organization.id, (tx) =>
    setUserPreference(tx, w.organization.id, w.owner.id, 'privacy', {
      visibility,
      showEmail: true,
      showPhone,
    }),
  )

const ALLOWED_TAGS = new Set(['table', 'tbody', 'tr', 'td', 'a', 'img', 'span', 'br'])

function elements(nodes: ChildNode[]): Element[] {
  return nodes.flatMap((node) => (isTag(node) ? [node, ...elements(node.children)] : []))
}

function textOf(nodes: ChildNode[]): string {
  return nodes
    .map((node) => (isText(node) ? node.data : isTag(node) ? textOf(node.children) : ''))
    .join('')
}

/** Every rule of the issue a mail client needs, checked on the parsed HTML. */
function checkSignature(html: string, origin: string) {
  expect(Buffer.byteLength(html, 'utf8')).toBeLessThan(SIGNATURE_MAX_BYTES)
  const document = parseDocument(html)
  const all = elements(document.children)
  // A table lays it out, from the top.
  expect(document.children.filter(isTag).map((node) => node.name)).toEqual(['table'])
  for (const element of all) {
    expect(ALLOWED_TAGS, element.name).toContain(element.name)
    expect(Object.keys(element.attribs)).not.toContain('class')
    expect(Object.keys(element.attribs)).not.toContain('id')
    for (const [name, value] of Object.entries(element.attribs)) {
      expect(name.startsWith('on'), name).toBe(false)
      expect(value.toLowerCase()).not.toContain('data:')
      expect(value.toLowerCase()).not.toContain('javascript:')
    }
  }
  // Styles are inline: on the table and on every cell.
  for (const element of all.filter((node) => ['table', 'td'].includes(node.name))) {
    expect(element.attribs.style, element.name).toBeTruthy()
  }
  const images = all.filter((node) => node.name === 'img')
  for (const image of images) {
    const src = image.attribs.src ?? ''
    expect(new URL(src).origin, src).toBe(origin)
    expect(src).not.toMatch(/\.svg(\?|$)/)
    expect(image.attribs.alt, src).toBeTruthy()
    expect(image.attribs.height).toMatch(/^\d+$/)
  }
  const links = all.filter((node) => node.name === 'a').map((node) => node.attribs.href ?? '')
  const toCard = links.filter((href) => href.startsWith(origin))
  expect(toCard.length).toBeGreaterThan(0)
  for (const href of toCard) expect(sourceOfUrl(href), href).toBe('signature')
  return { all, images, links, text: textOf(document.children) }
}

describe('the signature HTML', () => {
  test.each(SIGNATURE_LAYOUTS)('%s keeps to what mail clients keep', async (layout) => {
    const w = await world()
    const response = await get(w, signaturePath(w.card.id, layout), w.ownerCookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    const origin = `http://${w.host}:3000`
    const { images, links, text } = checkSignature(await response.text(), origin)
    expect(text).toContain(`Ada ${w.card.lastName}`)
    expect(text).toContain('Analyst')
    expect(text).toContain('Engines & Co')
    expect(text).toContain('+44 20 7946 0018')
    expect(text).toContain('Save my contact')
    expect(links).toContain('tel:+442079460018')
    expect(links).toContain('https://www.linkedin.com/in/ada')
    expect(links).toContain('https://ada.example.test')
    const sources = images.map((image) => new URL(image.attribs.src ?? '').pathname)
    const expected: Record<SignatureLayout, RegExp[]> = {
      classic: [/^\/media\/[0-9a-f]{64}\.png$/, /\/qr\.png$/],
      compact: [],
      banner: [/^\/media\/[0-9a-f]{64}\.png$/, /\/qr\.png$/],
    }
    expect(sources.length).toBe(expected[layout].length)
    for (const [at, pattern] of expected[layout].entries()) expect(sources[at]).toMatch(pattern)
  })

  test('the plain-text version carries the same, the card link marked', async () => {
    const w = await world()
    const response = await get(w, signaturePath(w.card.id, 'classic', 'txt'), w.ownerCookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    const text = await response.text()
    expect(text).not.toMatch(/<[a-z]/i)
    expect(text).toContain(`Ada ${w.card.lastName}`)
    expect(text).toContain('Analyst, Engines & Co')
    expect(text).toContain('M +44 20 7946 0018')
    expect(text).toContain('LinkedIn: https://www.linkedin.com/in/ada')
    const cardLink = /Save my contact: (\S+)/.exec(text)?.[1] ?? ''
    expect(cardLink.startsWith(`http://${w.host}:3000/c/`)).toBe(true)
    expect(sourceOfUrl(cardLink)).toBe('signature')
  })

  test('a recipient who opens its link is counted under "Email signature"', async () => {
    const w = await world()
    const text = await (
      await get(w, signaturePath(w.card.id, 'classic', 'txt'), w.ownerCookie)
    ).text()
    const link = new URL(/Save my contact: (\S+)/.exec(text)?.[1] ?? '')
    const slug = link.pathname.replace('/c/', '')
    const opened = await settle(() =>
      shortLinkLoader({
        request: requestFor(w.host, `${link.pathname}${link.search}`, {
          headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 recipient' },
        }),
        context: contextFor(w.host),
        params: { slug },
      }),
    )
    expect(opened.status).toBe(200)
    const views = await withTenant(w.organization.id, (tx) =>
      tx
        .select({ source: cardViews.source })
        .from(cardViews)
        .where(
          and(eq(cardViews.organizationId, w.organization.id), eq(cardViews.cardId, w.card.id)),
        ),
    )
    expect(views).toEqual([{ source: 'signature' }])
  })

  test('a hidden phone stays out of it, WhatsApp included', async () => {
    const w = await world()
    await setPrivacy(w, 'public', false)
    for (const format of ['html', 'txt'] as const) {
      const body = await (
        await get(w, signaturePath(w.card.id, 'classic', format), w.ownerCookie)
      ).text()
      expect(body).toContain(`Ada ${w.card.lastName}`)
      expect(body).not.toContain('7946')
      expect(body).not.toContain('wa.me')
    }
  })

  test('a card with as many links as it may hold, each as long as it may be, still fits under 10 KB', async () => {
    const w = await world()
    const long = (n: number) => `https://example.test/${n}/${'x'.repeat(475)}`
    await withTenant(w.organization.id, (tx) =>
      replaceCardLinks(
        tx,
        w.organization.id,
        w.owner.id,
        w.card.id,
        Array.from({ length: 10 }, (_, n) => ({
          kind: 'custom',
          label: `Link ${n}`,
          url: long(n),
        })),
      ),
    )
    for (const layout of SIGNATURE_LAYOUTS) {
      const html = await (await get(w, signaturePath(w.card.id, layout), w.ownerCookie)).text()
      const { links } = checkSignature(html, `http://${w.host}:3000`)
      // All of them, as it happens (the last would give way to stay under the limit).
      expect(links).toContain(long(0))
    }
  })

  test('a bad layout is a 400 that says what is wrong', async () => {
    const w = await world()
    const response = await get(w, `/card/${w.card.id}/signature.html?layout=fancy`, w.ownerCookie)
    expect(response.status).toBe(400)
    expect(await response.text()).toBe('Layout must be classic, compact or banner')
  })
})

describe('who gets it', () => {
  test.each(['public', 'private'] as const)(
    'a %s card: its owner only; a stranger and a visitor get the missing card',
    async (visibility) => {
      const w = await world()
      await setPrivacy(w, visibility)
      expect((await get(w, signaturePath(w.card.id), w.ownerCookie)).status).toBe(200)
      for (const cookie of [w.strangerCookie, null]) {
        for (const format of ['html', 'txt'] as const) {
          const response = await get(w, signaturePath(w.card.id, 'classic', format), cookie)
          expect(response.status).toBe(404)
          expect(await response.text()).not.toContain('Ada')
        }
      }
    },
  )

  test("another tenant's card is not found, its owner's session on the other host included", async () => {
    const a = await world()
    const b = await world()
    // A's owner asks on A's host for B's card, and on B's host (where A's session is no session).
    for (const host of [a.host, b.host]) {
      const response = await settle(() =>
        signatureLoader({
          request: requestFor(host, signaturePath(b.card.id), {
            headers: { Cookie: a.ownerCookie },
          }),
          context: contextFor(host),
          params: { ref: b.card.id },
        }),
      )
      expect(response.status, host).toBe(404)
    }
  })
})

describe('the builder', () => {
  const open = (w: World, cookie: string, query = '') =>
    settle(() =>
      builderLoader({
        request: requestFor(
          w.host,
          `/dashboard/end-user/digital-cards/signature/${w.card.id}${query}`,
          { headers: { Cookie: cookie } },
        ),
        context: contextFor(w.host),
        params: { cardId: w.card.id },
      }),
    )

  test('shows its owner the exact HTML and text the routes answer, in the layout asked for', async () => {
    const w = await world()
    const data = (await (await open(w, w.ownerCookie, '?layout=banner')).json()) as {
      layout: string
      html: string
      text: string
      htmlPath: string
    }
    expect(data.layout).toBe('banner')
    expect(data.htmlPath).toBe(signaturePath(w.card.id, 'banner'))
    const served = await (await get(w, data.htmlPath, w.ownerCookie)).text()
    expect(data.html).toBe(served)
    const text = await (
      await get(w, signaturePath(w.card.id, 'banner', 'txt'), w.ownerCookie)
    ).text()
    expect(data.text).toBe(text)
  })

  test('sends anyone else back to their own cards, and says the card is not found', async () => {
    const w = await world()
    const response = await open(w, w.strangerCookie)
    expect(response).toHaveRedirect('/dashboard/end-user/digital-cards')
    await expect(response).toSendToast({ type: 'error', title: 'Digital card not found' })
  })
})

describe('the QR screen offers', () => {
  type Offers = {
    wallet: { apple: string | null; google: string | null }
    signaturePath: string | null
    backgroundCardId: string | null
  }
  async function offersOf(w: World, cookie: string | null, agent = 'Mozilla/5.0 (X11; Linux)') {
    const response = await settle(() =>
      shareLoader({
        request: requestFor(w.host, `/qrcode/${w.card.id}`, {
          headers: { 'User-Agent': agent, ...(cookie ? { Cookie: cookie } : {}) },
        }),
        context: contextFor(w.host),
        params: { cardId: w.card.id },
      }),
    )
    if (response.status !== 200) return { status: response.status, offers: null }
    return { status: 200, offers: ((await response.json()) as { offers: Offers }).offers }
  }

  test('without Google Wallet configured, no wallet badge', async () => {
    delete process.env.GOOGLE_WALLET_ISSUER_ID
    delete process.env.GOOGLE_WALLET_KEY
    resetEnvForTests()
    const w = await world()
    const { offers } = await offersOf(w, null)
    expect(offers?.wallet).toEqual({ apple: null, google: null })
  })

  test('the owner gets every offer; a visitor of a public card the wallets only; of a private card nothing', async () => {
    process.env.GOOGLE_WALLET_ISSUER_ID = TEST_ISSUER_ID
    process.env.GOOGLE_WALLET_KEY = makeServiceAccountKey('http://127.0.0.1:9/token').keyPath
    resetEnvForTests()
    try {
      const w = await world()
      const google = `/card/${w.card.id}/google-wallet`
      expect((await offersOf(w, w.ownerCookie)).offers).toEqual({
        wallet: { apple: null, google },
        signaturePath: `/dashboard/end-user/digital-cards/signature/${w.card.id}`,
        backgroundCardId: w.card.id,
      })
      for (const cookie of [null, w.strangerCookie]) {
        expect((await offersOf(w, cookie)).offers).toEqual({
          wallet: { apple: null, google },
          signaturePath: null,
          backgroundCardId: null,
        })
      }
      // Where it applies: not on an iPhone (Apple Wallet's), on Android.
      const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15'
      const android = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/131.0'
      expect((await offersOf(w, null, iphone)).offers?.wallet.google).toBeNull()
      expect((await offersOf(w, null, android)).offers?.wallet.google).toBe(google)
      // A private card: the screen itself is not found for a stranger, so nothing is offered.
      await setPrivacy(w, 'private')
      expect(await offersOf(w, null)).toEqual({ status: 404, offers: null })
      expect((await offersOf(w, w.strangerCookie)).status).toBe(302)
      expect((await offersOf(w, w.ownerCookie)).offers?.signaturePath).toBeTruthy()
    } finally {
      delete process.env.GOOGLE_WALLET_ISSUER_ID
      delete process.env.GOOGLE_WALLET_KEY
      resetEnvForTests()
    }
  })

  test('Apple Wallet where it applies, for anyone who sees the card; Google Wallet for a public card only', async () => {
    const certs = makeTestCertificates()
    configureAppleWallet(certs)
    process.env.GOOGLE_WALLET_ISSUER_ID = TEST_ISSUER_ID
    process.env.GOOGLE_WALLET_KEY = makeServiceAccountKey('http://127.0.0.1:9/token').keyPath
    resetEnvForTests()
    try {
      const w = await world()
      const apple = `/card/${w.card.id}/pass.pkpass`
      const google = `/card/${w.card.id}/google-wallet`
      const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15'
      const android = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/131.0'
      expect((await offersOf(w, null)).offers?.wallet).toEqual({ apple, google })
      expect((await offersOf(w, null, iphone)).offers?.wallet).toEqual({ apple, google: null })
      expect((await offersOf(w, null, android)).offers?.wallet).toEqual({ apple: null, google })
      // A private card's own owner: an Apple pass (one per viewer), no shared Google object.
      await setPrivacy(w, 'private')
      expect((await offersOf(w, w.ownerCookie)).offers?.wallet).toEqual({ apple, google: null })
    } finally {
      unconfigureAppleWallet()
      removeTestCertificates(certs)
      delete process.env.GOOGLE_WALLET_ISSUER_ID
      delete process.env.GOOGLE_WALLET_KEY
      resetEnvForTests()
    }
  })
})
