// Short links (issue 28 point 3, ADR 041): `/c/{slug}` on the tenant's host opens the card, the
// owner picks the slug in the card editor (from the name by default), a changed slug keeps the
// old one redirecting, and QR codes carry the link small enough for version 4 at level H.
import { readFile } from 'node:fs/promises'
import { and, eq, sql } from 'drizzle-orm'
import jsQR from 'jsqr'
import QRCode from 'qrcode'
import sharp from 'sharp'
import { afterEach, describe, expect, test } from 'vitest'
import {
  CACHE_TAG_HEADER,
  CACHE_VIEW_HEADER,
  lookupPage,
  storePage,
} from '#app/cache/page-cache.server'
import { qrTextOf } from '#app/cards/short-link'
import { changeCardSlug } from '#app/models/card-slugs.server'
import { loader as shortLinkLoader } from '#app/routes/c.$slug'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { loader as qrPngLoader } from '#app/routes/card_.$ref.qr[.]png'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import { action as editAction } from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { loader as cardShareLoader } from '#app/routes/qrcode.$cardId'
import { startChangeFeed, stopChangeFeed } from '#app/tenancy/change-feed.server'
import type { PublicAddress } from '#app/tenancy/host'
import { invalidateTenant } from '#app/tenancy/tenant.server'
import {
  cardSlugField,
  RESERVED_SLUGS,
  SLUG_MAX_LENGTH,
  SLUG_MESSAGES,
  slugBaseFromName,
  slugCandidate,
} from '#app/validation/card-slug'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardSlugs, cardViews, organizations } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

async function tenant() {
  const organization = await makeOrganization()
  return { orgId: organization.id, host: `${organization.slug}.localhost` }
}

/** An owner with a card and a signed-in session. */
async function owner(orgId: string, firstName = 'Ada', lastName = `Lovelace${uniqueSuffix()}`) {
  const user = await makeUser(orgId, { firstName, lastName })
  const card = await makeCard(orgId, user.id, { firstName, lastName })
  return { user, card, cookie: await sessionCookieFor(orgId, user.id) }
}

const currentSlug = async (orgId: string, cardId: string) =>
  (
    await getDb()
      .select({ slug: cardSlugs.slug })
      .from(cardSlugs)
      .where(
        and(
          eq(cardSlugs.organizationId, orgId),
          eq(cardSlugs.cardId, cardId),
          sql`${cardSlugs.retiredAt} is null`,
        ),
      )
  ).map((row) => row.slug)

/** What `/c/{slug}` answers on `host`: the card it shows, a redirect, or the 404. */
async function open(host: string, slug: string) {
  const response = await settle(() =>
    shortLinkLoader({
      request: requestFor(host, `/c/${slug}`),
      context: contextFor(host),
      params: { slug },
    }),
  )
  if (response.status === 200) {
    const body = (await response.json()) as { card: { id: string }; cardUrl: string }
    return { status: 200, cardId: body.card.id, cardUrl: body.cardUrl }
  }
  return { status: response.status, location: response.headers.get('Location') }
}

/** The card editor's short-link form, posted by the card's owner. */
const setSlug = (host: string, cardId: string, cookie: string, slug: string) =>
  settle(() =>
    editAction({
      request: formRequest(
        host,
        `/dashboard/end-user/digital-cards/edit/${cardId}`,
        { intent: 'short-link', slug },
        cookie,
      ),
      context: contextFor(host),
      params: { cardId },
    }),
  )

describe('a default short link from the name', () => {
  test('first-last, then numeric suffixes while taken in the organization', async () => {
    const { orgId, host } = await tenant()
    const last = `Lace${uniqueSuffix().slice(0, 4)}`
    const base = `ada-${last.toLowerCase()}`
    const first = await owner(orgId, 'Ada', last)
    const second = await owner(orgId, 'Ada', last)
    const third = await makeCard(orgId, second.user.id, { firstName: 'Ada', lastName: last })
    expect(await currentSlug(orgId, first.card.id)).toEqual([base])
    expect(await currentSlug(orgId, second.card.id)).toEqual([`${base}-2`])
    expect(await currentSlug(orgId, third.id)).toEqual([`${base}-3`])
    expect(await open(host, `${base}-2`)).toMatchObject({ status: 200, cardId: second.card.id })
  })

  test('accents dropped, cut to leave room for a suffix, never a reserved word', () => {
    expect(slugBaseFromName('José', 'Núñez')).toBe('jose-nunez')
    const long = slugBaseFromName('Maximilian', 'Schwarzenegger-Long')
    expect(long).toBe('maximilian-schwa')
    expect(slugBaseFromName('Help', '')).toBe('my-card')
    expect(slugBaseFromName('A', '')).toBe('my-card')
    expect(slugCandidate(long, 2)).toBe('maximilian-schwa-2')
    expect(slugCandidate(long, 100)).toBe('maximilian-schw-100')
    for (const n of [1, 2, 10, 100, 1000]) {
      expect(cardSlugField.safeParse(slugCandidate(long, n)).success, String(n)).toBe(true)
    }
  })

  test("the migration's backfill gives cards without a slug one from the name", async () => {
    const { orgId } = await tenant()
    const last = `Back${uniqueSuffix().slice(0, 4)}`
    const { card } = await owner(orgId, 'Bea', last)
    const other = await owner(orgId, 'Bea', last)
    await getDb()
      .delete(cardSlugs)
      .where(
        and(
          eq(cardSlugs.organizationId, orgId),
          sql`${cardSlugs.cardId} in (${card.id}, ${other.card.id})`,
        ),
      )
    // The migration's backfill statements, as the migrator runs them (one transaction).
    const migration = await readFile('migrations/0017_short_links.sql', 'utf8')
    const statements = migration.split('--> statement-breakpoint')
    const from = statements.findIndex((s) => s.includes("set_config('app.platform_scope', 'on'"))
    expect(from).toBeGreaterThan(0)
    await getDb().transaction(async (tx) => {
      for (const statement of statements.slice(from)) await tx.execute(sql.raw(statement))
    })
    const base = `bea-${last.toLowerCase()}`
    expect(await currentSlug(orgId, card.id)).toEqual([base])
    expect(await currentSlug(orgId, other.card.id)).toEqual([`${base}-2`])
  })
})

describe('the short link opens the card', () => {
  test('in any case, with the short link as its canonical address; /card/{id} still opens it', async () => {
    const { orgId, host } = await tenant()
    const { card } = await owner(orgId)
    const [slug = ''] = await currentSlug(orgId, card.id)
    const opened = await open(host, slug)
    expect(opened).toMatchObject({ status: 200, cardId: card.id })
    expect(opened.cardUrl).toMatch(new RegExp(`^http://${host}(:\\d+)?/c/${slug}$`))
    // The QR code's capitals.
    expect(await open(host, slug.toUpperCase())).toMatchObject({ status: 200, cardId: card.id })
    const byId = await settle(() =>
      cardLoader({
        request: requestFor(host, `/card/${card.id}`),
        context: contextFor(host),
        params: { ref: card.id },
      }),
    )
    expect(byId.status).toBe(200)
    expect(((await byId.json()) as { cardUrl: string }).cardUrl).toBe(opened.cardUrl)
    // The vCard's URL line and the QR screen's share link carry it too.
    const vcard = await settle(() =>
      vcardLoader({
        request: requestFor(host, `/card/${card.id}/vcard`),
        context: contextFor(host),
        params: { ref: card.id },
      }),
    )
    expect(await vcard.text()).toContain(`URL;TYPE=CARD:${opened.cardUrl}`)
    const screen = await settle(() =>
      cardShareLoader({
        request: requestFor(host, `/qrcode/${card.id}`),
        context: contextFor(host),
        params: { cardId: card.id },
      }),
    )
    expect(((await screen.json()) as { shareUrl: string }).shareUrl).toBe(opened.cardUrl)
  })

  test("a slug of tenant A never resolves on tenant B's host; the same slug may live in both", async () => {
    const a = await tenant()
    const b = await tenant()
    const ofA = await owner(a.orgId)
    const [slugA = ''] = await currentSlug(a.orgId, ofA.card.id)
    expect(await open(b.host, slugA)).toEqual({ status: 404, location: null })
    // B's owner takes the same slug: each host opens its own card.
    const ofB = await owner(b.orgId)
    expect((await setSlug(b.host, ofB.card.id, ofB.cookie, slugA)).status).toBe(200)
    expect(await open(a.host, slugA)).toMatchObject({ status: 200, cardId: ofA.card.id })
    expect(await open(b.host, slugA)).toMatchObject({ status: 200, cardId: ofB.card.id })
    // A's session changes nothing of B's cards' slugs.
    const crossed = await setSlug(a.host, ofB.card.id, ofA.cookie, `x-${uniqueSuffix()}`)
    // Not A's card: the editor's "not found" redirect back to the list.
    expect(crossed.status).toBe(302)
    expect(await currentSlug(b.orgId, ofB.card.id)).toEqual([slugA])
  })
})

describe('the owner picks the short link', () => {
  test('refused next to the field: too short, too long, characters, reserved words, taken', async () => {
    const { orgId, host } = await tenant()
    const { card, cookie } = await owner(orgId)
    const other = await owner(orgId, 'Otto', `Other${uniqueSuffix()}`)
    const [taken = ''] = await currentSlug(orgId, other.card.id)
    const cases: [string, string][] = [
      ['ab', SLUG_MESSAGES.tooShort],
      ['', SLUG_MESSAGES.tooShort],
      ['a'.repeat(SLUG_MAX_LENGTH + 1), SLUG_MESSAGES.tooLong],
      ['Ada-Lovelace', SLUG_MESSAGES.characters],
      ['ada lovelace', SLUG_MESSAGES.characters],
      ['-ada', SLUG_MESSAGES.characters],
      ['ada--lovelace', SLUG_MESSAGES.characters],
      ['ada_lovelace', SLUG_MESSAGES.characters],
      ['admin', SLUG_MESSAGES.reserved],
      ['dashboard', SLUG_MESSAGES.reserved],
      ['card', SLUG_MESSAGES.reserved],
      ['www', SLUG_MESSAGES.reserved],
      [taken, SLUG_MESSAGES.taken],
    ]
    for (const [slug, message] of cases) {
      const response = await setSlug(host, card.id, cookie, slug)
      expect(response.status, slug).toBe(message === SLUG_MESSAGES.taken ? 409 : 400)
      expect((await replyErrors(response)).slug, slug).toEqual([message])
    }
    for (const word of ['api', 'auth', 'settings', 'help', 'login']) {
      expect(RESERVED_SLUGS.has(word), word).toBe(true)
    }
    expect(await currentSlug(orgId, other.card.id)).toEqual([taken])
  })

  test('a change keeps the old link redirecting to the new one; only its own card gets it back', async () => {
    const { orgId, host } = await tenant()
    const { card, cookie } = await owner(orgId)
    const [old = ''] = await currentSlug(orgId, card.id)
    const chosen = `ada-${uniqueSuffix()}`
    const saved = await setSlug(host, card.id, cookie, chosen)
    // Answered in place (the form posts with a fetcher).
    expect(saved.status).toBe(200)
    expect(await saved.json()).toMatchObject({ slug: chosen, changed: true })
    expect(await currentSlug(orgId, card.id)).toEqual([chosen])
    expect(await open(host, chosen)).toMatchObject({ status: 200, cardId: card.id })
    const before = await viewsOf(card.id)
    expect(await open(host, old)).toEqual({ status: 301, location: `/c/${chosen}` })
    expect(await open(host, old.toUpperCase())).toEqual({ status: 301, location: `/c/${chosen}` })
    // The redirect is not a view: the page it leads to counts it.
    expect(await viewsOf(card.id)).toBe(before)

    // The retired slug stays the card's: another card cannot take it ...
    const other = await owner(orgId, 'Otto', `Other${uniqueSuffix()}`)
    const refused = await setSlug(host, other.card.id, other.cookie, old)
    expect((await replyErrors(refused)).slug).toEqual([SLUG_MESSAGES.taken])
    // ... and the owner can take it back; the newer one then redirects.
    expect((await setSlug(host, card.id, cookie, old)).status).toBe(200)
    expect(await open(host, old)).toMatchObject({ status: 200, cardId: card.id })
    expect(await open(host, chosen)).toEqual({ status: 301, location: `/c/${old}` })
  })
})

const viewsOf = async (cardId: string) =>
  (
    await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(cardViews)
      .where(eq(cardViews.cardId, cardId))
  )[0]?.n ?? 0

describe('the QR code', () => {
  test('for a host of 20 characters and the longest slug: version 4 or less at level H, decoding to the short link', async () => {
    const organization = await makeOrganization()
    // A verified custom domain of exactly 20 characters, reached over https without a port.
    const domain = `${uniqueSuffix()}.example.com`
    expect(domain).toHaveLength(20)
    await getDb()
      .update(organizations)
      .set({ customDomain: domain, customDomainVerifiedAt: new Date() })
      .where(eq(organizations.id, organization.id))
    invalidateTenant(organization.id)
    const host = `${organization.slug}.localhost`
    const { card, cookie } = await owner(organization.id)
    const slug = `q${'x'.repeat(SLUG_MAX_LENGTH - 3)}-9`
    expect(slug).toHaveLength(SLUG_MAX_LENGTH)
    expect((await setSlug(host, card.id, cookie, slug)).status).toBe(200)

    const via: PublicAddress = { scheme: 'https', port: null }
    const response = await settle(() =>
      qrPngLoader({
        request: requestFor(domain, `/card/${card.id}/qr.png`),
        context: { ...contextFor(domain), via },
        params: { ref: card.id },
      }),
    )
    expect(response.status).toBe(200)
    const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const decoded = jsQR(new Uint8ClampedArray(data), info.width, info.height)
    const shortLink = `https://${domain}/c/${slug}`
    expect(decoded?.data).toBe(qrTextOf(shortLink))
    expect(decoded?.data.toLowerCase()).toBe(shortLink)
    expect(decoded?.version).toBeLessThanOrEqual(4)
    expect(QRCode.create(qrTextOf(shortLink), { errorCorrectionLevel: 'H' }).version).toBeLessThan(
      5,
    )
    // What a phone opens from it: the capitals' path is the same card.
    const path = new URL(decoded?.data ?? '').pathname
    expect(path).toBe(`/C/${slug.toUpperCase()}`)
    const scanned = await settle(() =>
      shortLinkLoader({
        request: requestFor(domain, path),
        context: { ...contextFor(domain), via },
        params: { slug: path.slice(3) },
      }),
    )
    expect(scanned.status).toBe(200)
    expect(((await scanned.json()) as { card: { id: string } }).card.id).toBe(card.id)
  })

  test('links that are not short links keep their case and carry the QR marker (ADR 039)', () => {
    expect(qrTextOf('http://a.localhost:3000/card/abc')).toBe(
      'http://a.localhost:3000/card/abc?s=q',
    )
  })
})

describe('the page cache (ADR 021)', () => {
  afterEach(async () => {
    await stopChangeFeed()
  })

  test('a short link is offered to the cache like /card/{id}; a retired one is not', async () => {
    const { orgId, host } = await tenant()
    const { card } = await owner(orgId)
    const [slug = ''] = await currentSlug(orgId, card.id)
    const ask = (path: string) =>
      settle(() =>
        shortLinkLoader({
          request: requestFor(host, `/c/${path}`),
          context: { ...contextFor(host), pageCacheCandidate: true },
          params: { slug: path },
        }),
      )
    const page = await ask(slug)
    expect(page.status).toBe(200)
    expect(page.headers.get(CACHE_TAG_HEADER)).toBe(orgId)
    expect(page.headers.get(CACHE_VIEW_HEADER)).toBe(card.id)
    // The server records the view of a cacheable page (for it and every hit), not the loader.
    expect(await viewsOf(card.id)).toBe(0)

    await withTenant(orgId, (tx) => changeCardSlug(tx, orgId, card.id, `new-${uniqueSuffix()}`))
    const moved = await ask(slug)
    expect(moved.status).toBe(301)
    expect(moved.headers.get(CACHE_TAG_HEADER)).toBeNull()
  })

  test("a slug change drops the organization's cached pages", async () => {
    const { orgId } = await tenant()
    const { card } = await owner(orgId)
    await startChangeFeed(() => {})
    const key = `${orgId}\n/c/cached`
    storePage(key, {
      status: 200,
      headers: { 'content-type': 'text/plain', [CACHE_TAG_HEADER]: orgId },
      body: Buffer.from('x'),
      nonce: '',
    })
    expect(lookupPage(key)).toBeDefined()
    await withTenant(orgId, (tx) => changeCardSlug(tx, orgId, card.id, `drop-${uniqueSuffix()}`))
    for (let i = 0; i < 100 && lookupPage(key); i++) await new Promise((r) => setTimeout(r, 20))
    expect(lookupPage(key)).toBeUndefined()
  })
})
