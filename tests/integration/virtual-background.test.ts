// The virtual background (issue 29 point 4): `/card/{ref}/background.png` is a PNG of 1920×1080
// (or 1280×720) whose QR code decodes to the card's short link marked as the background's, in
// three layouts, light and dark; bad options are a 400 naming them; an unchanged card is a 304
// and a changed one a new ETag; through the card gate, a hidden card has no background.
import { and, eq } from 'drizzle-orm'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { updateCard } from '#app/models/cards.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { loader as backgroundLoader } from '#app/routes/card_.$ref.background[.]png'
import { sourceOfUrl } from '#app/utils/view-sources'
import {
  VIRTUAL_BACKGROUND_LAYOUTS,
  VIRTUAL_BACKGROUND_THEMES,
  virtualBackgroundPath,
} from '#app/validation/virtual-background'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardSlugs } from '#drizzle/schema'
import {
  contextFor,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

async function world() {
  const { organization } = await makeBrandedOrganization({
    primaryColor: '#b91c1c',
    secondaryColor: '#f59e0b',
  })
  const host = `${organization.slug}.localhost`
  const lastName = `Hopper${uniqueSuffix()}`
  const owner = await makeUser(organization.id, { firstName: 'Grace', lastName })
  const card = await makeCard(organization.id, owner.id, {
    firstName: 'Grace',
    lastName,
    jobTitle: 'Rear Admiral',
    company: 'Navy Computing',
  })
  const [slug] = await getDb()
    .select({ slug: cardSlugs.slug })
    .from(cardSlugs)
    .where(and(eq(cardSlugs.organizationId, organization.id), eq(cardSlugs.cardId, card.id)))
  const cookie = await sessionCookieFor(organization.id, owner.id)
  return { organization, host, owner, card, cookie, slug: slug?.slug ?? '' }
}
type World = Awaited<ReturnType<typeof world>>

function get(host: string, path: string, ref: string, headers: Record<string, string> = {}) {
  return settle(() =>
    backgroundLoader({
      request: requestFor(host, path, { headers }),
      context: contextFor(host),
      params: { ref },
    }),
  )
}

const fetchBackground = (w: World, query = '', headers: Record<string, string> = {}) =>
  get(w.host, `/card/${w.card.id}/background.png${query}`, w.card.id, headers)

async function decode(response: Response) {
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const qr = jsQR(new Uint8ClampedArray(data), info.width, info.height)
  return { width: info.width, height: info.height, qr: qr?.data ?? null }
}

const shortLinkOf = (w: World) => `http://${w.host}:3000/c/${w.slug}?s=b`

describe('the background', () => {
  test('decodes at 1920×1080 and its QR code to the short link marked as the background', async () => {
    const w = await world()
    const response = await fetchBackground(w)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('image/png')
    expect(response.headers.get('Cache-Control')).toBe('public, no-cache')
    expect(response.headers.get('ETag')).toMatch(/^"[0-9a-f]{20}"$/)
    const { width, height, qr } = await decode(response)
    expect([width, height]).toEqual([1920, 1080])
    expect(qr).toBe(shortLinkOf(w))
    expect(sourceOfUrl(qr ?? '')).toBe('background')
  })

  test('at 1280×720 by a parameter', async () => {
    const w = await world()
    const response = await fetchBackground(w, '?size=1280x720')
    expect(response.status).toBe(200)
    const { width, height, qr } = await decode(response)
    expect([width, height]).toEqual([1280, 720])
    expect(qr).toBe(shortLinkOf(w))
  })

  test('three layouts, light and dark, each its own image with a readable QR code', async () => {
    const w = await world()
    const etags = new Set<string>()
    for (const layout of VIRTUAL_BACKGROUND_LAYOUTS) {
      for (const theme of VIRTUAL_BACKGROUND_THEMES) {
        const path = virtualBackgroundPath(w.card.id, { layout, theme, size: '1280x720' })
        const response = await get(w.host, path, w.card.id)
        expect(response.status, path).toBe(200)
        etags.add(response.headers.get('ETag') ?? '')
        const { width, qr } = await decode(response)
        expect(width, path).toBe(1280)
        expect(qr, path).toBe(shortLinkOf(w))
      }
    }
    expect(etags.size).toBe(6)
    // A layout by its number is the same image as by its name.
    const byNumber = await fetchBackground(w, '?layout=2&theme=dark&size=1280x720')
    const byName = await fetchBackground(w, '?layout=panel&theme=dark&size=1280x720')
    expect(byNumber.headers.get('ETag')).toBe(byName.headers.get('ETag'))
  })

  test('bad options are a 400 that names them, never a 500', async () => {
    const w = await world()
    const cases: [string, string][] = [
      ['?size=800x600', 'Size must be 1920x1080 or 1280x720'],
      ['?layout=4', 'Layout must be 1, 2 or 3'],
      ['?layout=fancy', 'Layout must be 1, 2 or 3'],
      ['?theme=blue', 'Theme must be light or dark'],
      ['?size=', 'Size must be'],
    ]
    for (const [query, message] of cases) {
      const response = await fetchBackground(w, query)
      expect(response.status, query).toBe(400)
      expect(await response.text(), query).toContain(message)
    }
    // Other parameters (a view marker, a cache buster) are no error.
    expect((await fetchBackground(w, '?s=b&v=2')).status).toBe(200)
  })

  test('an unchanged card is a 304; an edited one is a new image', async () => {
    const w = await world()
    const first = await fetchBackground(w)
    const etag = first.headers.get('ETag') ?? ''
    const again = await fetchBackground(w, '', { 'If-None-Match': etag })
    expect(again.status).toBe(304)
    await withTenant(w.organization.id, (tx) =>
      updateCard(tx, w.organization.id, w.owner.id, w.card.id, { jobTitle: 'Commodore' }),
    )
    const edited = await fetchBackground(w, '', { 'If-None-Match': etag })
    expect(edited.status).toBe(200)
    expect(edited.headers.get('ETag')).not.toBe(etag)
  })

  test('a private card has no background for a visitor or a stranger; its owner gets it', async () => {
    const w = await world()
    await withTenant(w.organization.id, (tx) =>
      setUserPreference(tx, w.organization.id, w.owner.id, 'privacy', {
        visibility: 'private',
        showEmail: false,
        showPhone: false,
      }),
    )
    const stranger = await makeUser(w.organization.id)
    const strangerCookie = await sessionCookieFor(w.organization.id, stranger.id)
    expect((await fetchBackground(w)).status).toBe(404)
    expect((await fetchBackground(w, '', { Cookie: strangerCookie })).status).toBe(404)
    const own = await fetchBackground(w, '', { Cookie: w.cookie })
    expect(own.status).toBe(200)
    expect(own.headers.get('Cache-Control')).toBe('private, no-cache')
  })

  test("another tenant's card has no background on this tenant's host", async () => {
    const a = await world()
    const b = await world()
    const path = `/card/${b.card.id}/background.png`
    expect((await get(a.host, path, b.card.id)).status).toBe(404)
    expect((await get(a.host, path, b.card.id, { Cookie: a.cookie })).status).toBe(404)
  })
})
