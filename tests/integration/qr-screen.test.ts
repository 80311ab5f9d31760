// The QR screen's loaders (spec §2, ADR 009): /qrcode/{cardId} is open within the tenant,
// /qrcode needs sign-in and falls back from the default card to the profile.
import { eq } from 'drizzle-orm'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { qrTextOf } from '#app/cards/short-link'
import { setDefaultCard } from '#app/models/cards.server'
import { storeMedia } from '#app/models/media.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { action as cardAction, loader as cardLoader } from '#app/routes/card.$ref'
import { loader as qrPngLoader } from '#app/routes/card_.$ref.qr[.]png'
import { loader as qrSvgLoader } from '#app/routes/card_.$ref.qr[.]svg'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import { loader as ownShareLoader } from '#app/routes/qrcode._index'
import { loader as cardShareLoader } from '#app/routes/qrcode.$cardId'
import { brandTextOnWhite } from '#app/validation/hex-color'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardViews, contacts, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makePng,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

type Screen = {
  status: 'card' | 'empty' | 'not-found'
  shareUrl?: string
  qrSrc?: string
  vcardUrl?: string
  signedIn?: boolean
  cardsPath?: string | null
  editPath?: string | null
  isProfile?: boolean
  createPath?: string
  reason?: 'no-name' | 'namesake' | 'unshared'
  privacyPath?: string | null
  restrictedProfile?: boolean
  card?: { firstName: string; lastName: string }
}

async function tenant() {
  const organization = await makeOrganization()
  return { organization, host: `${organization.slug}.localhost` }
}

const openCard = (host: string, cardId: string, cookie?: string) =>
  settle(() =>
    cardShareLoader({
      request: requestFor(host, `/qrcode/${cardId}`, {
        headers: cookie ? { Cookie: cookie } : {},
      }),
      context: contextFor(host),
      params: { cardId },
    }),
  )

const openOwn = (host: string, cookie?: string) =>
  settle(() =>
    ownShareLoader({
      request: requestFor(host, '/qrcode', { headers: cookie ? { Cookie: cookie } : {} }),
      context: contextFor(host),
      params: {},
    }),
  )

async function decodeQr(host: string, reference: string) {
  const response = await settle(() =>
    qrPngLoader({
      request: requestFor(host, `/card/${reference}/qr.png`),
      context: contextFor(host),
      params: { ref: reference },
    }),
  )
  expect(response.status).toBe(200)
  // A visitor's answer: a public card's QR, shown by signatures and emails on other origins.
  expect(response.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin')
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data
}

/** A user who went through the profile wizard and then deleted every card. */
async function cardlessProfile(organizationId: string, names = { firstName: 'Pia', lastName: '' }) {
  const lastName = names.lastName || `Van Der ${uniqueSuffix()}`
  const user = await makeUser(organizationId, { firstName: names.firstName, lastName })
  await getDb()
    .update(users)
    .set({ onboardingCompletedAt: new Date() })
    .where(eq(users.id, user.id))
  return {
    ...user,
    lastName,
    slug: `${names.firstName}-${lastName}`.toLowerCase().replaceAll(' ', '-'),
  }
}

describe('/qrcode/{cardId}', () => {
  test('a visitor sees the QR, link and preview, with the sign-up banner and no owner links', async () => {
    const { organization, host } = await tenant()
    const owner = await makeUser(organization.id)
    const card = await makeCard(organization.id, owner.id, { firstName: 'Vera', lastName: 'Visit' })
    const response = await openCard(host, card.id)
    expect(response.status).toBe(200)
    const screen = (await response.json()) as Screen
    expect(screen).toMatchObject({
      status: 'card',
      signedIn: false,
      cardsPath: null,
      editPath: null,
      isProfile: false,
      qrSrc: `/card/${card.id}/qr.png`,
      vcardUrl: `/card/${card.id}/vcard`,
      card: { firstName: 'Vera', lastName: 'Visit' },
    })
    // The short link (ADR 041), which the QR code carries in capitals.
    expect(screen.shareUrl).toMatch(new RegExp(`^http://${host}(:\\d+)?/c/vera-visit$`))
    expect(await decodeQr(host, card.id)).toBe(qrTextOf(screen.shareUrl ?? ''))
    // Opening the QR screen is not a view of the card page.
    expect(await getDb().select().from(cardViews).where(eq(cardViews.cardId, card.id))).toEqual([])
  })

  test('the owner gets Edit and Manage; another signed-in user of the tenant only Manage', async () => {
    const { organization, host } = await tenant()
    const owner = await makeUser(organization.id)
    const card = await makeCard(organization.id, owner.id)
    const own = (await (
      await openCard(host, card.id, await sessionCookieFor(organization.id, owner.id))
    ).json()) as Screen
    expect(own).toMatchObject({
      signedIn: true,
      cardsPath: '/dashboard/end-user/digital-cards',
      editPath: `/dashboard/end-user/digital-cards/edit/${card.id}`,
    })
    const teamAdmin = await makeUser(organization.id, { role: 'team_admin' })
    const other = (await (
      await openCard(host, card.id, await sessionCookieFor(organization.id, teamAdmin.id))
    ).json()) as Screen
    expect(other).toMatchObject({
      signedIn: true,
      cardsPath: '/dashboard/team-member/digital-cards',
      editPath: null,
    })
  })

  test("another tenant's card id, an unknown id and a name are not found on this host", async () => {
    const a = await tenant()
    const b = await tenant()
    const ownerB = await makeUser(b.organization.id, { firstName: 'Bo', lastName: 'Bee' })
    const cardB = await makeCard(b.organization.id, ownerB.id, { firstName: 'Bo', lastName: 'Bee' })
    for (const ref of [
      cardB.id,
      '00000000-0000-4000-8000-000000000000',
      'bo-bee',
      '%00',
      'x'.repeat(500),
    ]) {
      const visitor = await openCard(a.host, ref)
      expect(visitor.status, ref).toBe(404)
      expect(await visitor.json()).toEqual({ status: 'not-found' })
    }
    const userA = await makeUser(a.organization.id)
    const signedIn = await openCard(
      a.host,
      cardB.id,
      await sessionCookieFor(a.organization.id, userA.id),
    )
    expect(signedIn).toHaveRedirect('/dashboard/end-user/digital-cards')
    // On its own host the card opens.
    expect((await openCard(b.host, cardB.id)).status).toBe(200)
  })
})

describe('/qrcode', () => {
  test('signed out is sent to sign in and back', async () => {
    const { host } = await tenant()
    const response = await openOwn(host)
    expect(response).toHaveRedirect('/auth/login?redirectTo=%2Fqrcode')
  })

  test('shows the default card, not the oldest', async () => {
    const { organization, host } = await tenant()
    const user = await makeUser(organization.id)
    await makeCard(organization.id, user.id, { title: 'First' })
    const second = await makeCard(organization.id, user.id, { title: 'Second' })
    await withTenant(organization.id, (tx) =>
      setDefaultCard(tx, organization.id, user.id, second.id),
    )
    const screen = (await (
      await openOwn(host, await sessionCookieFor(organization.id, user.id))
    ).json()) as Screen
    expect(screen.status).toBe('card')
    expect(screen.qrSrc).toBe(`/card/${second.id}/qr.png`)
    expect(screen.shareUrl).toMatch(/\/c\/test-user-2$/)
    expect(screen.editPath).toBe(`/dashboard/end-user/digital-cards/edit/${second.id}`)
  })

  test('without a card, the profile: its name link opens the profile, its QR decodes to it', async () => {
    const { organization, host } = await tenant()
    const user = await cardlessProfile(organization.id)
    const screen = (await (
      await openOwn(host, await sessionCookieFor(organization.id, user.id))
    ).json()) as Screen
    expect(screen).toMatchObject({
      status: 'card',
      isProfile: true,
      editPath: null,
      qrSrc: `/card/${user.slug}/qr.png`,
      card: { firstName: 'Pia', lastName: user.lastName },
    })
    expect(screen.shareUrl).toMatch(new RegExp(`^http://${host}(:\\d+)?/card/${user.slug}$`))
    expect(await decodeQr(host, user.slug)).toBe(`${screen.shareUrl}?s=q`)

    // The link itself: the public page, vCard and lead form work for the profile.
    const page = await settle(() =>
      cardLoader({
        request: requestFor(host, `/card/${user.slug}`),
        context: contextFor(host),
        params: { ref: user.slug },
      }),
    )
    expect(page.status).toBe(200)
    const data = (await page.json()) as { found: boolean; cardUrl: string; noindex: boolean }
    expect(data).toMatchObject({ found: true, cardUrl: screen.shareUrl, noindex: true })
    const vcard = await settle(() =>
      vcardLoader({
        request: requestFor(host, `/card/${user.slug}/vcard`),
        context: contextFor(host),
        params: { ref: user.slug },
      }),
    )
    expect(await vcard.text()).toContain(`FN:Pia ${user.lastName}`)
    const lead = await settle(() =>
      cardAction({
        request: formRequest(host, `/card/${user.slug}`, {
          intent: 'lead',
          fullName: 'Lena Lead',
          email: 'lena@example.test',
        }),
        context: contextFor(host, '198.51.100.60'),
        params: { ref: user.slug },
      }),
    )
    expect(lead.status).toBe(200)
    const [contact] = await getDb().select().from(contacts).where(eq(contacts.userId, user.id))
    expect(contact).toMatchObject({ email: 'lena@example.test', sourceCardId: null })

    // Another tenant's host does not know the name.
    const other = await tenant()
    const elsewhere = await settle(() =>
      cardLoader({
        request: requestFor(other.host, `/card/${user.slug}`),
        context: contextFor(other.host),
        params: { ref: user.slug },
      }),
    )
    expect(elsewhere.status).toBe(404)
  })

  test('a profile stays unlisted until the wizard is done; with a card the name link opens the card', async () => {
    const { organization, host } = await tenant()
    const fresh = await makeUser(organization.id, {
      firstName: 'Fay',
      lastName: `New${uniqueSuffix()}`,
    })
    const freshSlug = `fay-${fresh.lastName.toLowerCase()}`
    const screen = (await (
      await openOwn(host, await sessionCookieFor(organization.id, fresh.id))
    ).json()) as Screen
    // A message that fits: the profile is there, not yet shared, and where to share it.
    expect(screen).toMatchObject({
      status: 'empty',
      reason: 'unshared',
      privacyPath: '/settings/end-user?tab=privacy',
      createPath: '/onboarding',
    })
    const open = (slug: string) =>
      settle(() =>
        cardLoader({
          request: requestFor(host, `/card/${slug}`),
          context: contextFor(host),
          params: { ref: slug },
        }),
      )
    expect((await open(freshSlug)).status).toBe(404)
    // The name link is the account's (ADR 027): it opens the account's card, whatever its names.
    const carded = await cardlessProfile(organization.id, { firstName: 'Cal', lastName: '' })
    const card = await makeCard(organization.id, carded.id, {
      firstName: 'Other',
      lastName: 'Name',
    })
    const page = await open(carded.slug)
    expect(page.status).toBe(200)
    expect(await page.json()).toMatchObject({ card: { id: card.id, firstName: 'Other' } })
  })

  test("a namesake's card does not take the name link; a later namesake account gets none", async () => {
    const { organization, host } = await tenant()
    const user = await cardlessProfile(organization.id, { firstName: 'Sam', lastName: '' })
    const other = await makeUser(organization.id)
    await makeCard(organization.id, other.id, { firstName: 'Sam', lastName: user.lastName })
    const screen = (await (
      await openOwn(host, await sessionCookieFor(organization.id, user.id))
    ).json()) as Screen
    expect(screen).toMatchObject({
      status: 'card',
      isProfile: true,
      qrSrc: `/card/${user.slug}/qr.png`,
    })
    // A second account with the same name finished the wizard too: the link stays the first
    // one's, so the second is offered no QR that would open someone else.
    const namesake = await makeUser(organization.id, { firstName: 'Sam', lastName: user.lastName })
    await getDb()
      .update(users)
      .set({ onboardingCompletedAt: new Date() })
      .where(eq(users.id, namesake.id))
    expect(
      await (await openOwn(host, await sessionCookieFor(organization.id, namesake.id))).json(),
    ).toMatchObject({
      status: 'empty',
      reason: 'namesake',
      createPath: '/dashboard/end-user/digital-cards',
    })
  })

  test('no card and no name: an empty state pointing to the wizard', async () => {
    const { organization, host } = await tenant()
    const user = await makeUser(organization.id, { firstName: '', lastName: '' })
    const response = await openOwn(host, await sessionCookieFor(organization.id, user.id))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      status: 'empty',
      reason: 'no-name',
      createPath: '/onboarding',
    })
  })

  // ADR 009's addendum (issue 30): a profile is shared by name once its owner finished the wizard
  // or chose who may see their profile; the gate then applies that choice to every viewer.
  test('without the wizard, a chosen visibility shares the profile, to whom it allows', async () => {
    const { organization, host } = await tenant()
    const user = await makeUser(organization.id, {
      firstName: 'Vic',
      lastName: `Chosen${uniqueSuffix()}`,
    })
    const slug = `vic-${user.lastName.toLowerCase()}`
    const cookie = await sessionCookieFor(organization.id, user.id)
    const open = (cookieHeader?: string) =>
      settle(() =>
        cardLoader({
          request: requestFor(host, `/card/${slug}`, {
            headers: cookieHeader ? { Cookie: cookieHeader } : {},
          }),
          context: contextFor(host),
          params: { ref: slug },
        }),
      )
    const choose = (visibility: 'public' | 'private') =>
      withTenant(organization.id, (tx) =>
        setUserPreference(tx, organization.id, user.id, 'privacy', {
          visibility,
          showEmail: false,
          showPhone: false,
        }),
      )
    // Nothing chosen, no wizard: unlisted for everyone, the owner told how to share it.
    expect((await open()).status).toBe(404)
    expect(await (await openOwn(host, cookie)).json()).toMatchObject({ reason: 'unshared' })

    // Public, chosen in Privacy settings: the name link opens the profile for a visitor, without
    // the email the owner hid; the owner's QR screen shows it and no restriction note.
    await choose('public')
    const shown = await open()
    expect(shown.status).toBe(200)
    const body = await shown.text()
    expect(body).toContain(user.lastName)
    expect(body).not.toContain(user.email)
    expect(await (await openOwn(host, cookie)).json()).toMatchObject({
      status: 'card',
      isProfile: true,
      qrSrc: `/card/${slug}/qr.png`,
      restrictedProfile: false,
    })

    // Private: nobody else gets it; the owner still sees the QR, told that it is not public and
    // where to change it.
    await choose('private')
    expect((await open()).status).toBe(404)
    expect(await (await openOwn(host, cookie)).json()).toMatchObject({
      status: 'card',
      isProfile: true,
      restrictedProfile: true,
      privacyPath: '/settings/end-user?tab=privacy',
    })
  })

  test('an agency admin without a card or the wizard stays unlisted, told to complete the profile', async () => {
    const { organization, host } = await tenant()
    const admin = await makeUser(organization.id, {
      role: 'agency_admin',
      firstName: 'Ada',
      lastName: `Admin${uniqueSuffix()}`,
    })
    const screen = (await (
      await openOwn(host, await sessionCookieFor(organization.id, admin.id))
    ).json()) as Screen
    // Agency settings have no Privacy tab (spec §2.6): the wizard is their way to share it.
    expect(screen).toMatchObject({
      status: 'empty',
      reason: 'unshared',
      privacyPath: null,
      createPath: '/onboarding',
    })
  })
})

describe('the QR code for print (issue 41 point 13)', () => {
  const qrFile = (host: string, reference: string, file: 'qr.png' | 'qr.svg', query = '') =>
    settle(() =>
      (file === 'qr.png' ? qrPngLoader : qrSvgLoader)({
        request: requestFor(host, `/card/${reference}/${file}${query}`),
        context: contextFor(host),
        params: { ref: reference },
      }),
    )

  test("PNG at 1200 px and SVG, in the agency's colour with the card's logo, saved under the owner's name", async () => {
    const organization = await makeOrganization({ primaryColor: '#e11d48' })
    const host = `${organization.slug}.localhost`
    const owner = await makeUser(organization.id, { firstName: 'Pía', lastName: 'Print' })
    const logo = await withTenant(organization.id, async (tx) =>
      storeMedia(tx, organization.id, {
        bytes: await makePng('#22c55e', 40, 40),
        contentType: 'image/png',
        width: 40,
        height: 40,
        purpose: 'card-logo',
      }),
    )
    const card = await makeCard(organization.id, owner.id, {
      firstName: 'Pía',
      lastName: 'Print',
      logoMediaId: logo.id,
    })
    const dark = brandTextOnWhite('#e11d48')

    const png = await qrFile(host, card.id, 'qr.png', '?print')
    expect(png.status).toBe(200)
    expect(png.headers.get('Content-Disposition')).toBe('attachment; filename="pia-print-qr.png"')
    const image = sharp(Buffer.from(await png.arrayBuffer()))
    const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height]).toEqual([1200, 1200])
    // It still scans, to the card's QR text, with the logo in the middle.
    const screenText = await decodeQr(host, card.id)
    expect(screenText).toBeTruthy()
    expect(jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data).toBe(screenText)
    const pixel = (x: number, y: number) => {
      const at = (y * info.width + x) * 4
      return `#${[data[at], data[at + 1], data[at + 2]].map((c) => (c ?? 0).toString(16).padStart(2, '0')).join('')}`
    }
    const colours = new Set<string>()
    for (let y = 0; y < info.height; y += 7)
      for (let x = 0; x < info.width; x += 7) colours.add(pixel(x, y))
    expect(colours.has(dark), [...colours].slice(0, 10).join(' ')).toBe(true)
    expect(colours.has('#000000')).toBe(false)
    expect(pixel(600, 600)).toBe('#22c55e')

    const svg = await qrFile(host, card.id, 'qr.svg', '?print')
    expect(svg.headers.get('Content-Type')).toBe('image/svg+xml')
    expect(svg.headers.get('Content-Disposition')).toBe('attachment; filename="pia-print-qr.svg"')
    expect(svg.headers.get('Content-Security-Policy')).toContain('img-src data:')
    const text = await svg.text()
    expect(text).toContain(`stroke="${dark}"`)
    expect(text).toMatch(
      /<image x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" href="data:image\/png;base64,/,
    )

    // The screen's code is the spec's: 300 px, black on white, shown in the page, not saved.
    const screen = await qrFile(host, card.id, 'qr.png')
    expect(screen.headers.get('Content-Disposition')).toBeNull()
    const meta = await sharp(Buffer.from(await screen.arrayBuffer())).metadata()
    expect(meta.width).toBe(300)
  })

  test('the QR screen offers both downloads', async () => {
    const { organization, host } = await tenant()
    const owner = await makeUser(organization.id)
    const card = await makeCard(organization.id, owner.id)
    const screen = (await (
      await openCard(host, card.id, await sessionCookieFor(organization.id, owner.id))
    ).json()) as Screen & { qrDownloads: { png: string; svg: string } }
    expect(screen.qrDownloads).toEqual({
      png: `/card/${card.id}/qr.png?print`,
      svg: `/card/${card.id}/qr.svg?print`,
    })
  })
})
