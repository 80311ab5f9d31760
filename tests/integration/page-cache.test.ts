// The page cache's pieces on both drivers (ADR 021): what a route offers and only to a
// candidate request, the stored answer's policy, the database's change announcements, and the
// batched views (de-duplicated, written per organization, a deleted card's views dropped).
import { and, eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import {
  CACHE_TAG_HEADER,
  CACHE_VIEW_HEADER,
  dropPages,
  lookupPage,
  pageCacheKey,
  storePage,
} from '#app/cache/page-cache.server'
import { flushCardViews, pendingCardViews, queueCardView } from '#app/cards/view-batcher.server'
import { updateAccount } from '#app/models/people.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { loader } from '#app/routes/card.$ref'
import { startChangeFeed, stopChangeFeed } from '#app/tenancy/change-feed.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardViews, digitalCards, organizations } from '#drizzle/schema'
import {
  contextFor,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  toResponse,
  withStoppedDatabase,
} from '#tests/factories'

async function setup() {
  const organization = await makeOrganization()
  const owner = await makeUser(organization.id, { firstName: 'Pia', lastName: 'Page' })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Pia', lastName: 'Page' })
  const host = `${organization.slug}.localhost`
  return { organization, owner, card, host }
}

const viewsOf = (organizationId: string, cardId: string) =>
  withTenant(organizationId, (tx) =>
    tx
      .select()
      .from(cardViews)
      .where(and(eq(cardViews.organizationId, organizationId), eq(cardViews.cardId, cardId))),
  )

afterEach(async () => {
  await stopChangeFeed()
})

describe('what the card page offers the cache', () => {
  test('a candidate request gets the offer and no view is written by the loader', async () => {
    const { organization, card, host } = await setup()
    const context = { ...contextFor(host), pageCacheCandidate: true }
    const response = toResponse(
      await loader({
        request: requestFor(host, `/card/${card.id}`),
        context,
        params: { ref: card.id },
      }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get(CACHE_TAG_HEADER)).toBe(organization.id)
    expect(response.headers.get(CACHE_VIEW_HEADER)).toBe(card.id)
    expect(response.headers.get('Cache-Control')).toBe('no-cache')
    // The server records it (for this request and every hit), not the loader.
    expect(await viewsOf(organization.id, card.id)).toHaveLength(0)
  })

  test('any other request gets no offer, and its view is written at once', async () => {
    const { organization, card, host } = await setup()
    const response = toResponse(
      await loader({
        request: requestFor(host, `/card/${card.id}`, {
          headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0' },
        }),
        context: contextFor(host),
        params: { ref: card.id },
      }),
    )
    expect(response.headers.get(CACHE_TAG_HEADER)).toBeNull()
    expect(await viewsOf(organization.id, card.id)).toHaveLength(1)
  })
})

describe('stored answers', () => {
  const html = (nonce: string) =>
    Buffer.from(
      `<!DOCTYPE html><html><head><script nonce="${nonce}">window.a=1</script></head><body><script nonce="${nonce}" type="module">import "/assets/x.js"</script></body></html>`,
    )
  const answer = (headers: Record<string, string>) => ({
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "script-src 'strict-dynamic' 'nonce-abc'; object-src 'none'",
      [CACHE_TAG_HEADER]: 'org-1',
      ...headers,
    },
    body: html('abc'),
    nonce: 'abc',
  })

  test('the nonce gives way to the hashes of exactly the page’s inline scripts', () => {
    const page = storePage(pageCacheKey('a.localhost', '/x'), answer({}))
    expect(page?.identity.toString()).not.toContain('nonce')
    const csp = page?.headers.find(([name]) => name === 'content-security-policy')?.[1] ?? ''
    expect(csp).toMatch(/^script-src 'strict-dynamic' 'sha256-[^']+' 'sha256-[^']+'; object-src/)
    expect(csp).not.toContain('nonce')
    expect(page?.headers.map(([name]) => name)).not.toContain(CACHE_TAG_HEADER)
    expect(lookupPage(pageCacheKey('a.localhost', '/x'))).toBe(page)
  })

  test('a burst of misses compresses a page once: the same bytes again keep the stored page', () => {
    const key = pageCacheKey('a.localhost', '/burst')
    const first = storePage(key, answer({}))
    // Another render of the same page, with its own nonce: the stored page stays.
    const again = storePage(key, {
      ...answer({ 'content-security-policy': "script-src 'strict-dynamic' 'nonce-xyz'" }),
      body: html('xyz'),
      nonce: 'xyz',
    })
    expect(again).toBe(first)
    expect(lookupPage(key)).toBe(first)
    // Other bytes (the page changed) replace it.
    const changed = storePage(key, {
      ...answer({}),
      body: Buffer.from('<!DOCTYPE html><p>new</p>'),
    })
    expect(changed).not.toBe(first)
    expect(lookupPage(key)).toBe(changed)
  })

  test('an image keeps its own sandbox policy and drops the page policy with its nonce', () => {
    const page = storePage(pageCacheKey('a.localhost', '/media/x.png'), {
      status: 200,
      headers: {
        'content-type': 'image/png',
        'content-security-policy': [
          "script-src 'strict-dynamic' 'nonce-abc'; object-src 'none'",
          "default-src 'none'; sandbox",
        ],
        [CACHE_TAG_HEADER]: 'org-1',
      },
      body: Buffer.from('png'),
      nonce: 'abc',
    })
    const policies = page?.headers.filter(([name]) => name === 'content-security-policy')
    expect(policies?.map(([, value]) => value)).toEqual(["default-src 'none'; sandbox"])
  })

  test('an answer that sets a cookie, or is not a 200, is not kept', () => {
    expect(storePage('k1', answer({ 'set-cookie': 'a=b' }))).toBeUndefined()
    expect(storePage('k2', { ...answer({}), status: 404 })).toBeUndefined()
    expect(storePage('k3', { ...answer({}), headers: { 'content-type': 'text/html' } })).toBe(
      undefined,
    )
  })

  test('dropping an organization drops its entries only', () => {
    storePage('one', answer({ [CACHE_TAG_HEADER]: 'org-a' }))
    storePage('two', answer({ [CACHE_TAG_HEADER]: 'org-b' }))
    dropPages('org-a')
    expect(lookupPage('one')).toBeUndefined()
    expect(lookupPage('two')).toBeDefined()
    dropPages('*')
    expect(lookupPage('two')).toBeUndefined()
  })
})

describe('change announcements', () => {
  const cached = (tag: string) =>
    storePage(`${tag}\n/`, {
      status: 200,
      headers: { 'content-type': 'text/plain', [CACHE_TAG_HEADER]: tag },
      body: Buffer.from('x'),
      nonce: '',
    })

  async function dropped(key: string) {
    // postgres.js delivers on its listening connection shortly after the commit.
    for (let i = 0; i < 100 && lookupPage(key); i++) await new Promise((r) => setTimeout(r, 20))
    return lookupPage(key) === undefined
  }

  test('a card edit drops that organization’s pages, not another’s', async () => {
    const { organization, owner, card } = await setup()
    const other = await makeOrganization()
    await startChangeFeed(() => {})
    cached(organization.id)
    cached(other.id)
    await withTenant(organization.id, (tx) =>
      tx
        .update(digitalCards)
        .set({ jobTitle: 'Edited' })
        .where(and(eq(digitalCards.organizationId, organization.id), eq(digitalCards.id, card.id))),
    )
    expect(await dropped(`${organization.id}\n/`)).toBe(true)
    expect(lookupPage(`${other.id}\n/`)).toBeDefined()
    expect(owner.id).toBeTruthy()
  })

  test('a rolled-back write announces nothing', async () => {
    const { organization, card } = await setup()
    await startChangeFeed(() => {})
    cached(organization.id)
    await expect(
      withTenant(organization.id, async (tx) => {
        await tx
          .update(digitalCards)
          .set({ jobTitle: 'Never' })
          .where(
            and(eq(digitalCards.organizationId, organization.id), eq(digitalCards.id, card.id)),
          )
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await new Promise((r) => setTimeout(r, 100))
    expect(lookupPage(`${organization.id}\n/`)).toBeDefined()
  })

  test('a card switched from public to team or contacts drops its cached public copy', async () => {
    for (const visibility of ['team', 'contacts'] as const) {
      const { organization, owner, card, host } = await setup()
      await startChangeFeed(() => {})
      const candidate = () =>
        loader({
          request: requestFor(host, `/card/${card.id}`),
          context: { ...contextFor(host), pageCacheCandidate: true },
          params: { ref: card.id },
        }).then(toResponse)
      // The public answer, as server.ts would keep it.
      const before = await candidate()
      expect(before.headers.get(CACHE_TAG_HEADER)).toBe(organization.id)
      cached(organization.id)
      await withTenant(organization.id, (tx) =>
        setUserPreference(tx, organization.id, owner.id, 'privacy', {
          visibility,
          showEmail: true,
          showPhone: true,
        }),
      )
      expect(await dropped(`${organization.id}\n/`)).toBe(true)
      // The next anonymous request, which would fill the cache again, finds no card to keep.
      expect((await candidate()).status).toBe(404)
      await stopChangeFeed()
    }
  })

  test("a deactivated owner's card drops out of the cache and is not kept again", async () => {
    const { organization, owner, card, host } = await setup()
    await startChangeFeed(() => {})
    const candidate = () =>
      loader({
        request: requestFor(host, `/card/${card.id}`),
        context: { ...contextFor(host), pageCacheCandidate: true },
        params: { ref: card.id },
      }).then(toResponse)
    expect((await candidate()).headers.get(CACHE_TAG_HEADER)).toBe(organization.id)
    cached(organization.id)
    await withTenant(organization.id, (tx) =>
      updateAccount(tx, organization.id, owner.id, { status: 'inactive' }),
    )
    expect(await dropped(`${organization.id}\n/`)).toBe(true)
    // The agency's forwarding (ADR 049), a 410 by default: never offered to the cache.
    const after = await candidate()
    expect(after.status).toBe(410)
    expect(after.headers.get(CACHE_TAG_HEADER)).toBeNull()
  })

  test('a change to the organization row (status, branding) drops its pages', async () => {
    const { organization } = await setup()
    await startChangeFeed(() => {})
    cached(organization.id)
    await getDb()
      .update(organizations)
      .set({ status: 'inactive' })
      .where(eq(organizations.id, organization.id))
    expect(await dropped(`${organization.id}\n/`)).toBe(true)
  })
})

describe('batched views', () => {
  test('written per organization, once per visitor in the window, none for a deleted card', async () => {
    const a = await setup()
    const b = await setup()
    const gone = await makeCard(a.organization.id, a.owner.id, { firstName: 'Gone' })
    const view = (organizationId: string, cardId: string, visitorHash: string) =>
      queueCardView({ organizationId, cardId, visitorHash, deviceClass: 'mobile' })
    view(a.organization.id, a.card.id, 'visitor-1')
    view(a.organization.id, a.card.id, 'visitor-1')
    view(a.organization.id, a.card.id, 'visitor-2')
    view(b.organization.id, b.card.id, 'visitor-b1')
    view(a.organization.id, gone.id, 'visitor-3')
    await withTenant(a.organization.id, (tx) =>
      tx
        .delete(digitalCards)
        .where(
          and(eq(digitalCards.organizationId, a.organization.id), eq(digitalCards.id, gone.id)),
        ),
    )
    expect(pendingCardViews()).toBe(4)
    await flushCardViews()
    expect(pendingCardViews()).toBe(0)
    expect(await viewsOf(a.organization.id, a.card.id)).toHaveLength(2)
    expect(await viewsOf(b.organization.id, b.card.id)).toHaveLength(1)
    const [row] = await viewsOf(b.organization.id, b.card.id)
    expect(row?.deviceClass).toBe('mobile')
  })

  test('a visitor already counted by another process in the window is not counted again', async () => {
    const { organization, card } = await setup()
    await withTenant(organization.id, (tx) =>
      tx.insert(cardViews).values({
        organizationId: organization.id,
        cardId: card.id,
        visitorHash: 'seen-elsewhere',
        // A second before this process's view: the database's now() (the transaction's start,
        // in microseconds) can fall after the queued view's millisecond Date when the whole
        // insert takes under a millisecond, and a view is never a repeat of a later one.
        viewedAt: new Date(Date.now() - 1000),
      }),
    )
    queueCardView({
      organizationId: organization.id,
      cardId: card.id,
      visitorHash: 'seen-elsewhere',
      deviceClass: 'desktop',
    })
    await flushCardViews()
    expect(await viewsOf(organization.id, card.id)).toHaveLength(1)
  })

  test('a flush the database refuses keeps every view for the next one', async () => {
    const { organization, card } = await setup()
    // Queued once the database is down: queued before, the batcher's own timer could write them
    // while the stopped database is still being set up (seconds, on a loaded machine).
    await withStoppedDatabase(async () => {
      for (const visitorHash of ['kept-1', 'kept-2', 'kept-3']) {
        queueCardView({
          organizationId: organization.id,
          cardId: card.id,
          visitorHash,
          deviceClass: 'mobile',
        })
      }
      await expect(flushCardViews()).rejects.toBeDefined()
    })
    expect(pendingCardViews()).toBe(3)
    await flushCardViews()
    expect(pendingCardViews()).toBe(0)
    expect(await viewsOf(organization.id, card.id)).toHaveLength(3)
  })

  test('a flush that finds nothing queued does not hold back the next one', async () => {
    const { organization, card } = await setup()
    await flushCardViews()
    expect(pendingCardViews()).toBe(0)
    await flushCardViews()
    queueCardView({
      organizationId: organization.id,
      cardId: card.id,
      visitorHash: 'after-an-empty-flush',
      deviceClass: 'desktop',
    })
    await flushCardViews()
    expect(pendingCardViews()).toBe(0)
    expect(await viewsOf(organization.id, card.id)).toHaveLength(1)
  })
})
