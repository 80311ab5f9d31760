// The tenant on phones and in link previews (issue 17 point 3, ADR 024): the manifest, its icons
// and the apple-touch-icon follow the host's branding; a card's Open Graph image is drawn in the
// tenant's colours, addressed by a hash of what it shows, and absent for a private card. Every
// image is decoded with sharp: its size, and the colours it must show.
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { CACHE_TAG_HEADER } from '#app/cache/page-cache.server'
import { SHARED_IMAGE_CACHE_CONTROL } from '#app/media/shared-cache'
import { storeMedia } from '#app/models/media.server'
import { setOrganizationBrandingImages } from '#app/models/organizations.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { loader as rootLoader } from '#app/root'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { loader as ogLoader } from '#app/routes/card_.$ref.og.$file'
import { loader as iconLoader } from '#app/routes/icons.$file'
import { loader as manifestLoader } from '#app/routes/manifest[.]webmanifest'
import { escapeMarkup, initialsOf } from '#app/services/brand-images.server'
import { invalidateTenant } from '#app/tenancy/tenant.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { digitalCards, organizations } from '#drizzle/schema'
import {
  contextFor,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makePng,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

type Manifest = {
  name: string
  short_name: string
  start_url: string
  display: string
  theme_color: string
  background_color: string
  icons: { src: string; sizes: string; type: string; purpose: string }[]
}

const LOGO_COLOUR = '#ff8800'
const PHOTO_COLOUR = '#00cc44'

/** An agency with its own colours and, unless `logo: false`, a flat orange logo. */
async function agency(options: { logo?: boolean; name?: string; customDomain?: string } = {}) {
  const organization = await makeOrganization({
    name: options.name ?? `Acme Digital ${uniqueSuffix()}`,
    primaryColor: '#1d4ed8',
    secondaryColor: '#f59e0b',
    ...(options.customDomain
      ? { customDomain: options.customDomain, customDomainVerifiedAt: new Date() }
      : {}),
  })
  if (options.logo !== false) {
    await withTenant(organization.id, async (tx) => {
      const logo = await storeMedia(tx, organization.id, {
        bytes: await makePng(LOGO_COLOUR, 200, 80),
        contentType: 'image/png',
        width: 200,
        height: 80,
        purpose: 'organization-logo',
      })
      await setOrganizationBrandingImages(tx, organization.id, { logoMediaId: logo.id })
    })
  }
  invalidateTenant(organization.id)
  return { organization, host: options.customDomain ?? `${organization.slug}.localhost` }
}

async function get(
  loader: (args: never) => unknown,
  host: string,
  path: string,
  params: Record<string, string> = {},
  cookie?: string,
) {
  return settle(async () =>
    (loader as (args: unknown) => unknown)({
      request: requestFor(host, path, cookie ? { headers: { Cookie: cookie } } : {}),
      context: contextFor(host),
      params,
    }),
  )
}

async function manifestOf(host: string) {
  const response = await get(manifestLoader, host, '/manifest.webmanifest')
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toMatch(/^application\/manifest\+json/)
  return (await response.json()) as Manifest
}

/** An image answer decoded: its format, size, and its pixels as #rrggbb. */
async function decode(response: Response) {
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toBe('image/png')
  const bytes = Buffer.from(await response.arrayBuffer())
  const metadata = await sharp(bytes).metadata()
  const { data, info } = await sharp(bytes)
    .flatten({ background: '#808080' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels
    return `#${[data[i], data[i + 1], data[i + 2]]
      .map((c) => (c ?? 0).toString(16).padStart(2, '0'))
      .join('')}`
  }
  /** How many pixels of the rectangle have exactly this colour. */
  const count = (colour: string, x0 = 0, y0 = 0, x1 = info.width, y1 = info.height) => {
    let n = 0
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (at(x, y) === colour) n++
    return n
  }
  return { format: metadata.format, width: metadata.width, height: metadata.height, at, count }
}

async function icon(host: string, src: string) {
  const file = src.replace(/^\/icons\//, '')
  return get(iconLoader, host, src, { file })
}

describe('the web app manifest and icons', () => {
  test("an agency's manifest names it, in its colours, with icons drawn from its logo", async () => {
    const { host } = await agency({ name: 'Acme Digital Partners' })
    const manifest = await manifestOf(host)
    expect(manifest).toMatchObject({
      name: 'Acme Digital Partners',
      short_name: 'Acme',
      start_url: '/',
      display: 'standalone',
      theme_color: '#1d4ed8',
      background_color: '#f59e0b',
    })
    const sizes = manifest.icons.map((entry) => `${entry.purpose} ${entry.sizes}`).sort()
    expect(sizes).toEqual(['any 192x192', 'any 512x512', 'maskable 192x192', 'maskable 512x512'])
    for (const entry of manifest.icons) {
      // Same origin (a relative path on this host) and addressed by content.
      expect(entry.src).toMatch(/^\/icons\/[a-z]+-\d+-[0-9a-f]{20}\.png$/)
      const response = await icon(host, entry.src)
      expect(response.headers.get('Cache-Control')).toBe(SHARED_IMAGE_CACHE_CONTROL)
      const image = await decode(response)
      const size = Number(entry.sizes.split('x')[0])
      expect(image).toMatchObject({ format: 'png', width: size, height: size })
      // The brand colour bleeds to the corners; the logo sits in the middle on a white disc.
      expect(image.at(1, 1)).toBe('#1d4ed8')
      expect(image.at(size - 2, size - 2)).toBe('#1d4ed8')
      expect(image.at(size / 2, size / 2)).toBe(LOGO_COLOUR)
      expect(image.count('#ffffff')).toBeGreaterThan(size * size * 0.1)
    }
    // The maskable icon keeps the logo inside the safe zone (the central 80% circle).
    const maskable = manifest.icons.find(
      (entry) => entry.purpose === 'maskable' && entry.sizes === '512x512',
    )
    const image = await decode(await icon(host, maskable?.src ?? ''))
    const outside = 512 * 0.1
    expect(image.count(LOGO_COLOUR, 0, 0, 512, outside)).toBe(0)
    expect(image.count(LOGO_COLOUR, 0, 0, outside, 512)).toBe(0)
    expect(image.count('#ffffff', 0, 0, 512, outside - 1)).toBe(0)
  })

  test('the root layout links the manifest, a 180px apple-touch-icon and the theme colour', async () => {
    const { host } = await agency()
    const response = await get(rootLoader, host, '/')
    const data = (await response.json()) as {
      branding: { manifestUrl: string; appleTouchIconUrl: string; themeColor: string }
    }
    expect(data.branding.manifestUrl).toBe('/manifest.webmanifest')
    expect(data.branding.themeColor).toBe('#1d4ed8')
    const image = await decode(await icon(host, data.branding.appleTouchIconUrl))
    expect(image).toMatchObject({ format: 'png', width: 180, height: 180 })
    expect(image.at(0, 0)).toBe('#1d4ed8')
    expect(image.at(90, 90)).toBe(LOGO_COLOUR)
  })

  test("without a logo, the icon shows the agency's initials on its primary colour", async () => {
    const { host } = await agency({ logo: false, name: 'Zenith Works' })
    const manifest = await manifestOf(host)
    for (const entry of manifest.icons) {
      const image = await decode(await icon(host, entry.src))
      const size = Number(entry.sizes.split('x')[0])
      expect(image.width).toBe(size)
      expect(image.at(0, 0)).toBe('#1d4ed8')
      // White letters (the readable colour on this blue) in the middle, none at the edges.
      const third = Math.round(size / 3)
      expect(image.count('#ffffff', third, third, 2 * third, 2 * third)).toBeGreaterThan(size)
      expect(image.count('#ffffff', 0, 0, size, Math.round(size * 0.1))).toBe(0)
    }
    expect(initialsOf('Zenith Works')).toBe('ZW')
  })

  test('icons and manifest follow the host: a custom domain, white labeling off, the root domain', async () => {
    const domain = `cards-${uniqueSuffix()}.example.test`
    const { organization, host } = await agency({ customDomain: domain, name: 'Domain Agency' })
    const onDomain = await manifestOf(host)
    expect(onDomain.name).toBe('Domain Agency')
    const onSubdomain = await manifestOf(`${organization.slug}.localhost`)
    expect(onSubdomain.icons).toEqual(onDomain.icons)
    const first = onDomain.icons[0]?.src ?? ''
    expect((await decode(await icon(domain, first))).at(0, 0)).toBe('#1d4ed8')

    const platform = await getPlatformOrganization()
    await getDb()
      .update(organizations)
      .set({ name: 'Platform Brand', primaryColor: '#123456', secondaryColor: '#abcdef' })
      .where(eq(organizations.id, platform.id))
    invalidateTenant(platform.id)
    const root = await manifestOf('localhost')
    expect(root).toMatchObject({
      name: 'Platform Brand',
      theme_color: '#123456',
      background_color: '#abcdef',
    })

    // White labeling off: the agency's host shows the platform (ADR 017).
    await getDb()
      .update(organizations)
      .set({ whiteLabelActive: false })
      .where(eq(organizations.id, organization.id))
    invalidateTenant(organization.id)
    const unbranded = await manifestOf(host)
    expect(unbranded).toMatchObject({ name: 'Platform Brand', theme_color: '#123456' })
    const src = unbranded.icons[0]?.src ?? ''
    expect(src).not.toBe(first)
    expect((await decode(await icon(host, src))).at(0, 0)).toBe('#123456')
    // The old icon's address now leads to the current one.
    const old = await icon(host, first)
    expect(old).toHaveRedirect(`/icons/${src.replace('/icons/', '')}`)
  })

  test('an unknown icon name is not found', async () => {
    const { host } = await agency()
    for (const file of ['any-64-0123456789abcdef0123.png', 'logo.png', '../x.png']) {
      expect((await get(iconLoader, host, `/icons/${file}`, { file })).status).toBe(404)
    }
  })

  test('the manifest and icons may be kept by the page cache', async () => {
    const { host, organization } = await agency()
    const context = { ...contextFor(host), pageCacheCandidate: true }
    const manifest = await settle(async () =>
      manifestLoader({ request: requestFor(host, '/manifest.webmanifest'), context, params: {} }),
    )
    expect(manifest.headers.get(CACHE_TAG_HEADER)).toBe(organization.id)
    const { icons } = (await manifest.json()) as Manifest
    const src = icons[0]?.src ?? ''
    const file = src.replace('/icons/', '')
    const png = await settle(async () =>
      iconLoader({ request: requestFor(host, src), context, params: { file } }),
    )
    expect(png.headers.get(CACHE_TAG_HEADER)).toBe(organization.id)
  })
})

describe("a card's Open Graph image", () => {
  async function cardOf(options: { photo?: boolean } = {}) {
    const tenant = await agency()
    const owner = await makeUser(tenant.organization.id)
    const photo = options.photo
      ? await withTenant(tenant.organization.id, async (tx) =>
          storeMedia(tx, tenant.organization.id, {
            bytes: await sharp({
              create: { width: 500, height: 500, channels: 3, background: PHOTO_COLOUR },
            })
              .jpeg({ quality: 100 })
              .toBuffer(),
            contentType: 'image/jpeg',
            width: 500,
            height: 500,
            purpose: 'profile-picture',
          }),
        )
      : null
    const card = await makeCard(tenant.organization.id, owner.id, {
      firstName: 'Grace',
      lastName: 'Hopper',
      jobTitle: 'Rear Admiral',
      company: 'US Navy',
      ...(photo ? { profilePictureMediaId: photo.id } : {}),
    })
    return { ...tenant, owner, card }
  }

  type PageData = {
    previewImage: { url: string; width: number; height: number } | null
  }
  async function previewOf(host: string, cardId: string, cookie?: string) {
    const response = await get(cardLoader, host, `/card/${cardId}`, { ref: cardId }, cookie)
    if (response.status !== 200) return { status: response.status, preview: null }
    return { status: 200, preview: ((await response.json()) as PageData).previewImage }
  }
  async function fetchPreview(host: string, url: string) {
    const path = new URL(url).pathname
    const [, , ref, , file] = path.split('/')
    return get(ogLoader, host, path, { ref: ref ?? '', file: file ?? '' })
  }

  test('the card page names an absolute 1200x630 PNG on the tenant origin, in its colours', async () => {
    const { host, card, organization } = await cardOf({ photo: true })
    const { preview } = await previewOf(host, card.id)
    expect(preview).toMatchObject({ width: 1200, height: 630 })
    const url = new URL(preview?.url ?? '')
    expect(url.hostname).toBe(`${organization.slug}.localhost`)
    expect(url.pathname).toMatch(new RegExp(`^/card/${card.id}/og/[0-9a-f]{20}\\.png$`))

    const response = await fetchPreview(host, preview?.url ?? '')
    // Minutes in shared caches, not a year: a removed photo leaves them (issue 39 point 3).
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300, must-revalidate')
    const image = await decode(response)
    expect(image).toMatchObject({ format: 'png', width: 1200, height: 630 })
    expect(image.at(5, 5)).toBe('#1d4ed8') // primary background
    expect(image.at(600, 625)).toBe('#f59e0b') // the secondary band
    expect(image.count('#1d4ed8')).toBeGreaterThan(1200 * 630 * 0.3)
    // The photo, in its white ring (left column), and the logo on its plate (bottom right).
    const photo = image.at(260, 297)
    const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(photo.slice(at, at + 2), 16))
    expect(
      Math.abs((r ?? 0) - 0x00) + Math.abs((g ?? 0) - 0xcc) + Math.abs((b ?? 0) - 0x44),
    ).toBeLessThan(20)
    expect(image.count('#ffffff', 70, 40, 90, 560)).toBeGreaterThan(0)
    expect(image.count(LOGO_COLOUR, 900, 400, 1200, 600)).toBeGreaterThan(1000)
    // The name and title in white (readable on this blue) in the text column.
    expect(image.count('#ffffff', 500, 40, 1130, 560)).toBeGreaterThan(2000)
  })

  test('a new name, title or branding is a new address; the old one leads to the new', async () => {
    const { host, card, organization } = await cardOf()
    const before = (await previewOf(host, card.id)).preview?.url ?? ''
    const first = await (await fetchPreview(host, before)).arrayBuffer()

    await getDb()
      .update(digitalCards)
      .set({ firstName: 'Amazing' })
      .where(eq(digitalCards.id, card.id))
    const renamed = (await previewOf(host, card.id)).preview?.url ?? ''
    expect(renamed).not.toBe(before)
    const second = await (await fetchPreview(host, renamed)).arrayBuffer()
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(false)
    const old = await fetchPreview(host, before)
    expect(old).toHaveRedirect(new URL(renamed).pathname)

    await getDb()
      .update(organizations)
      .set({ primaryColor: '#7c3aed' })
      .where(eq(organizations.id, organization.id))
    invalidateTenant(organization.id)
    const recoloured = (await previewOf(host, card.id)).preview?.url ?? ''
    expect(recoloured).not.toBe(renamed)
    expect((await decode(await fetchPreview(host, recoloured))).at(5, 5)).toBe('#7c3aed')
  })

  test('text is drawn as text, whatever it holds; a card without a photo shows its initials', async () => {
    const { host, card } = await cardOf()
    await getDb()
      .update(digitalCards)
      .set({ firstName: '<b>Ada</b> & "Co"', lastName: "O'Brien\u0007", jobTitle: 'x'.repeat(300) })
      .where(eq(digitalCards.id, card.id))
    const { preview } = await previewOf(host, card.id)
    const image = await decode(await fetchPreview(host, preview?.url ?? ''))
    expect(image.width).toBe(1200)
    // Initials in the primary colour on the white disc.
    expect(image.count('#1d4ed8', 120, 130, 400, 460)).toBeGreaterThan(1000)
    expect(escapeMarkup(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    )
  })

  test('a private card has no preview: no meta for its owner, 404 for everyone', async () => {
    const { host, card, owner, organization } = await cardOf()
    const url = (await previewOf(host, card.id)).preview?.url ?? ''
    await withTenant(organization.id, (tx) =>
      setUserPreference(tx, organization.id, owner.id, 'privacy', { visibility: 'private' }),
    )
    expect((await fetchPreview(host, url)).status).toBe(404)
    expect((await previewOf(host, card.id)).status).toBe(404)
    const cookie = await sessionCookieFor(organization.id, owner.id)
    const own = await previewOf(host, card.id, cookie)
    expect(own.status).toBe(200)
    expect(own.preview).toBeNull()
  })

  test("another tenant's card is not found on this host, even with its current address", async () => {
    const mine = await cardOf()
    const theirs = await cardOf()
    const url = (await previewOf(theirs.host, theirs.card.id)).preview?.url ?? ''
    expect((await fetchPreview(theirs.host, url)).status).toBe(200)
    expect((await fetchPreview(mine.host, url)).status).toBe(404)
  })
})
