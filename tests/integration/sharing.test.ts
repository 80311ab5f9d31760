import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { loader as cardIndexLoader } from '#app/routes/card._index'
import { action, loader } from '#app/routes/card.$ref'
import { loader as qrLoader } from '#app/routes/card_.$ref.qr[.]png'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import { loader as contactIndexLoader } from '#app/routes/contact._index'
import { getDb } from '#drizzle/db.server'
import { cardViews, contacts } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

const HUMAN =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

async function setup() {
  const organization = await makeOrganization()
  const owner = await makeUser(organization.id, {
    firstName: 'Olga',
    lastName: 'Owner',
    email: 'olga@example.test',
  })
  const card = await makeCard(organization.id, owner.id, {
    firstName: 'Olga',
    lastName: 'Owner',
    email: 'olga@example.test',
    company: 'Semi; Colon, Inc',
  })
  return { organization, owner, card, host: `${organization.slug}.localhost` }
}

function view(host: string, path: string, userAgent: string, ip: string, cookie?: string) {
  const headers: Record<string, string> = { 'User-Agent': userAgent }
  if (cookie) headers.Cookie = cookie
  return settle(() =>
    loader({
      request: requestFor(host, path, { headers }),
      context: contextFor(host, ip),
      params: { ref: path.split('/')[2] },
    }),
  )
}

const viewCount = async (cardId: string) =>
  (await getDb().select().from(cardViews).where(eq(cardViews.cardId, cardId))).length

describe('card views', () => {
  test('bots are not counted; one visitor within 30 minutes counts once; no raw address is stored', async () => {
    const { card, host } = await setup()
    await view(host, `/card/${card.id}`, BOT, '198.51.100.1')
    expect(await viewCount(card.id)).toBe(0)
    await view(host, `/card/${card.id}`, HUMAN, '198.51.100.1')
    await view(host, `/card/${card.id}`, HUMAN, '198.51.100.1')
    await view(host, '/card/olga-owner', HUMAN, '198.51.100.1')
    expect(await viewCount(card.id)).toBe(1)
    await view(host, `/card/${card.id}`, HUMAN, '198.51.100.2')
    expect(await viewCount(card.id)).toBe(2)
    const rows = await getDb().select().from(cardViews).where(eq(cardViews.cardId, card.id))
    for (const row of rows) expect(JSON.stringify(row)).not.toContain('198.51.100')

    // A view older than 30 minutes no longer hides a new one.
    await getDb()
      .update(cardViews)
      .set({ viewedAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(cardViews.cardId, card.id))
    await view(host, `/card/${card.id}`, HUMAN, '198.51.100.1')
    expect(await viewCount(card.id)).toBe(3)
  })

  test("the owner's own views are not counted", async () => {
    const { organization, owner, card, host } = await setup()
    const cookie = await sessionCookieFor(organization.id, owner.id)
    await view(host, `/card/${card.id}`, HUMAN, '198.51.100.9', cookie)
    expect(await viewCount(card.id)).toBe(0)
  })

  test('lookup by name is case-insensitive; another tenant never finds the card', async () => {
    const { card, host } = await setup()
    const byName = await view(host, '/card/OLGA-owner', HUMAN, '198.51.100.3')
    expect(((await byName.json()) as { card: { id: string } }).card.id).toBe(card.id)
    const other = await makeOrganization()
    const otherHost = `${other.slug}.localhost`
    for (const path of [`/card/${card.id}`, '/card/olga-owner', `/contact/${card.id}`]) {
      const response = await view(otherHost, path, HUMAN, '198.51.100.4')
      expect(response.status).toBe(404)
    }
    const qr = await settle(() =>
      qrLoader({
        request: requestFor(otherHost, `/card/${card.id}/qr.png`),
        context: contextFor(otherHost),
        params: { ref: card.id },
      }),
    )
    expect(qr.status).toBe(404)
    const vcard = await settle(() =>
      vcardLoader({
        request: requestFor(otherHost, `/card/${card.id}/vcard`),
        context: contextFor(otherHost),
        params: { ref: card.id },
      }),
    )
    expect(vcard.status).toBe(404)
  })
})

describe('files of a card', () => {
  test('the vCard escapes commas and semicolons and names the file', async () => {
    const { card, host } = await setup()
    const response = await settle(() =>
      vcardLoader({
        request: requestFor(host, `/card/${card.id}/vcard`),
        context: contextFor(host),
        params: { ref: card.id },
      }),
    )
    expect(response.headers.get('Content-Disposition')).toBe(
      'attachment; filename="Olga_Owner.vcf"',
    )
    expect(await response.text()).toContain('ORG:Semi\\; Colon\\, Inc\r\n')
  })

  test('the QR PNG is cached by content: same ETag, 304 on revalidation', async () => {
    const { card, host } = await setup()
    const get = (etag?: string) =>
      settle(() =>
        qrLoader({
          request: requestFor(host, `/card/${card.id}/qr.png`, {
            headers: etag ? { 'If-None-Match': etag } : {},
          }),
          context: contextFor(host),
          params: { ref: card.id },
        }),
      )
    const first = await get()
    expect(first.headers.get('Content-Type')).toBe('image/png')
    const etag = first.headers.get('ETag') ?? ''
    expect(etag).not.toBe('')
    expect((await get(etag)).status).toBe(304)
  })
})

describe('contacts from a card', () => {
  test('saving the same contact twice answers "This contact is already in your list"', async () => {
    const { organization, card, host } = await setup()
    const visitor = await makeUser(organization.id)
    const cookie = await sessionCookieFor(organization.id, visitor.id)
    const save = () =>
      settle(() =>
        action({
          request: formRequest(host, `/card/${card.id}`, { intent: 'save' }, cookie),
          context: contextFor(host),
          params: { ref: card.id },
        }),
      )
    const first = await save()
    expect(await first.json()).toMatchObject({ ok: true, message: 'Contact saved successfully' })
    const second = await save()
    expect(second.status).toBe(409)
    expect(await second.json()).toMatchObject({ message: 'This contact is already in your list' })
    expect(
      await getDb().select().from(contacts).where(eq(contacts.userId, visitor.id)),
    ).toHaveLength(1)
  })

  test('connecting writes one contact each way, once; a nameless visitor is "Unknown User"', async () => {
    const { organization, owner, card, host } = await setup()
    const visitor = await makeUser(organization.id, { firstName: '', lastName: '' })
    const cookie = await sessionCookieFor(organization.id, visitor.id)
    for (let i = 0; i < 2; i++) {
      const response = await settle(() =>
        action({
          request: formRequest(host, `/card/${card.id}`, { intent: 'connect' }, cookie),
          context: contextFor(host),
          params: { ref: card.id },
        }),
      )
      expect(await response.json()).toMatchObject({
        ok: true,
        message: 'Successfully connected with Olga',
      })
    }
    const ownerContacts = await getDb().select().from(contacts).where(eq(contacts.userId, owner.id))
    expect(ownerContacts.map((c) => c.fullName)).toEqual(['Unknown User'])
    const visitorContacts = await getDb()
      .select()
      .from(contacts)
      .where(eq(contacts.userId, visitor.id))
    expect(visitorContacts.map((c) => c.fullName)).toEqual(['Olga Owner'])
  })

  test('signed out, connect sends to sign in and back with the connect flag', async () => {
    const { card, host } = await setup()
    const response = await settle(() =>
      action({
        request: formRequest(host, `/card/${card.id}`, { intent: 'connect' }),
        context: contextFor(host),
        params: { ref: card.id },
      }),
    )
    expect(response).toHaveRedirect(
      `/auth/login?${new URLSearchParams({ redirectTo: `/card/${card.id}?connect=1` })}`,
    )
  })

  test('leads: honeypot answers but stores nothing; bad input is 400; per-IP limit', async () => {
    const { owner, card, host } = await setup()
    const lead = (fields: Record<string, string>, ip = '203.0.113.50') =>
      settle(() =>
        action({
          request: formRequest(host, `/card/${card.id}`, { intent: 'lead', ...fields }),
          context: contextFor(host, ip),
          params: { ref: card.id },
        }),
      )
    const bot = await lead({
      fullName: 'Bot',
      email: 'bot@example.test',
      website: 'http://spam.test',
    })
    expect(bot.status).toBe(200)
    const bad = await lead({ fullName: 'X', email: 'nope' })
    expect(bad.status).toBe(400)
    expect(await getDb().select().from(contacts).where(eq(contacts.userId, owner.id))).toHaveLength(
      0,
    )
    for (let i = 0; i < 10; i++) {
      expect((await lead({ fullName: `Lead ${i}`, email: `lead${i}@example.test` })).status).toBe(
        200,
      )
    }
    expect((await lead({ fullName: 'One more', email: 'more@example.test' })).status).toBe(429)
    expect(await getDb().select().from(contacts).where(eq(contacts.userId, owner.id))).toHaveLength(
      10,
    )
  })

  test('an IPv6 client is counted by its /64: a new address in it does not reset the limit', async () => {
    const { card, host } = await setup()
    const lead = (i: number, ip: string) =>
      settle(() =>
        action({
          request: formRequest(host, `/card/${card.id}`, {
            intent: 'lead',
            fullName: `Lead ${i}`,
            email: `lead${i}@example.test`,
          }),
          context: contextFor(host, ip),
          params: { ref: card.id },
        }),
      )
    // Ten addresses of one /64, as a host picks them at will (SLAAC privacy addresses).
    for (let i = 0; i < 10; i++) {
      expect((await lead(i, `2001:db8:26:1:${i.toString(16)}::${i + 1}`)).status).toBe(200)
    }
    expect((await lead(10, '2001:db8:26:1:ffff:ffff:ffff:fffe')).status).toBe(429)
    // The next /64 is another client.
    expect((await lead(11, '2001:db8:26:2::1')).status).toBe(200)
  })
})

test('/card/ and /contact/ without an id go home (spec §2)', () => {
  expect(cardIndexLoader()).toHaveRedirect('/')
  expect(contactIndexLoader()).toHaveRedirect('/')
})
