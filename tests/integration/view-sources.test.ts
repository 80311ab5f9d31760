// Where a view came from (issue 28 point 4, ADR 039), on both drivers: the marker each channel
// puts on its link and what a request's marker is counted as (an unknown one as direct), the
// views written in batches with their source (on the timer and at shutdown), card_view_hours in
// step with card_views per source, and the views by source per card and per user over the
// chart's 14 days, each tenant's alone.
import { and, eq, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, test } from 'vitest'
import { CACHE_VIEW_HEADER } from '#app/cache/page-cache.server'
import { vcardResponse } from '#app/cards/card-files.server'
import { recordPublicCardView } from '#app/cards/public-card-route.server'
import { flushCardViews, pendingCardViews, queueCardView } from '#app/cards/view-batcher.server'
import { describeViews, ViewsChart } from '#app/components/dashboard/views-chart'
import { closeDatabase } from '#app/entry.server'
import {
  CHART_DAYS,
  countCardViewsBySource,
  countPlatformViewsBySourcePerDay,
  countUserViewsBySourcePerDay,
  countViewsBySourcePerDay,
  type SourcedDay,
  type StatsScope,
} from '#app/models/stats.server'
import { loader as shortLinkLoader } from '#app/routes/c.$slug'
import { loader } from '#app/routes/card.$ref'
import {
  SOURCE_PARAM,
  sourceOfCode,
  sourceOfRequest,
  sourceOfUrl,
  splitSourceMarker,
  VIEW_SOURCES,
  type ViewSource,
  withSource,
} from '#app/utils/view-sources'
import {
  type DatabaseHandle,
  getDatabaseHandle,
  getDb,
  setDatabaseHandle,
  withTenant,
} from '#drizzle/db.server'
import { cardViewHours, cardViews, users, viewSource } from '#drizzle/schema'
import {
  contextFor,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  toResponse,
} from '#tests/factories'

const HOUR = 3_600_000
const DAY = 86_400_000
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0'

async function setup() {
  const organization = await makeOrganization()
  const owner = await makeUser(organization.id, { firstName: 'Sol', lastName: 'Source' })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Sol', lastName: 'Source' })
  return { organization, owner, card, host: `${organization.slug}.localhost` }
}

const sourcesOf = (organizationId: string, cardId: string) =>
  withTenant(organizationId, (tx) =>
    tx
      .select({ source: cardViews.source, visitorHash: cardViews.visitorHash })
      .from(cardViews)
      .where(and(eq(cardViews.organizationId, organizationId), eq(cardViews.cardId, cardId))),
  )

const MARKED: [Exclude<ViewSource, 'direct'>, string][] = [
  ['qr', 'q'],
  ['nfc', 'n'],
  ['link', 'l'],
  ['share', 's'],
  ['vcard', 'v'],
  ['wallet', 'w'],
  ['signature', 'e'],
  ['background', 'b'],
]

describe('the marker', () => {
  test('each channel has its own, at most four characters, read back as that channel', () => {
    expect(MARKED.map(([source]) => source).sort()).toEqual(
      VIEW_SOURCES.filter((s) => s !== 'direct').sort(),
    )
    for (const [source, code] of MARKED) {
      const marked = withSource('https://a.example/c/sol', source)
      expect(marked).toBe(`https://a.example/c/sol?${SOURCE_PARAM}=${code}`)
      expect(marked.length - 'https://a.example/c/sol'.length).toBeLessThanOrEqual(4)
      expect(sourceOfUrl(marked)).toBe(source)
      expect(splitSourceMarker(`/c/sol?s=${code}`)).toEqual({ path: '/c/sol', source })
      // A camera app that upper-cases the whole QR text still counts as the channel's.
      expect(splitSourceMarker(`/C/SOL?S=${code.toUpperCase()}`)).toEqual({
        path: '/C/SOL',
        source,
      })
    }
  })

  test('an unmarked, unknown or empty marker is a direct visit, never an error', () => {
    expect(sourceOfUrl('https://a.example/card/x')).toBe('direct')
    expect(sourceOfUrl('https://a.example/card/x?s=zz')).toBe('direct')
    expect(sourceOfUrl('https://a.example/card/x?s=')).toBe('direct')
    expect(sourceOfCode(null)).toBe('direct')
    expect(splitSourceMarker('/card/x?s=zz')).toEqual({ path: '/card/x', source: 'direct' })
    expect(splitSourceMarker('/card/x')).toEqual({ path: '/card/x', source: 'direct' })
  })

  test('a short link in capitals is the QR code’s (ADR 041); in lowercase it is not', () => {
    expect(sourceOfUrl('HTTPS://A.EXAMPLE/C/SOL-SOURCE')).toBe('qr')
    expect(sourceOfUrl('https://a.example/c/sol-source')).toBe('direct')
    expect(sourceOfUrl('https://a.example/c/sol-source?s=l')).toBe('link')
    expect(splitSourceMarker('/C/SOL-SOURCE')).toEqual({ path: '/C/SOL-SOURCE', source: 'qr' })
    expect(splitSourceMarker('/c/sol-source')).toEqual({ path: '/c/sol-source', source: 'direct' })
    // An explicit marker wins over the capitals.
    expect(splitSourceMarker('/C/SOL-SOURCE?s=n')).toEqual({ path: '/C/SOL-SOURCE', source: 'nfc' })
    // Only the short link's prefix: a card path in capitals is not a QR code's.
    expect(sourceOfUrl('https://a.example/CARD/X')).toBe('direct')
  })

  test('any other query keeps a request out of the page cache; the marker is still read', () => {
    expect(splitSourceMarker('/card/x?s=q&utm=1')).toBeNull()
    expect(splitSourceMarker('/card/x?connect=1')).toBeNull()
    expect(splitSourceMarker('/card/x?s=q/../y')).toBeNull()
    expect(sourceOfUrl('https://a.example/card/x?utm=1&s=q#top')).toBe('qr')
  })

  test('marking replaces a marker, keeps the rest of the query and the fragment', () => {
    expect(withSource('/card/x?s=q', 'link')).toBe('/card/x?s=l')
    expect(withSource('/card/x?a=1#top', 'qr')).toBe('/card/x?a=1&s=q#top')
    expect(withSource('/card/x?s=q', 'direct')).toBe('/card/x')
  })

  test('the stored enum is the module’s list of sources', () => {
    expect(viewSource.enumValues).toEqual([...VIEW_SOURCES])
  })

  test("the page cache's candidates carry the source in the load context", () => {
    const request = new Request('http://a.localhost/card/x')
    expect(sourceOfRequest(request, { viewSource: 'nfc' })).toBe('nfc')
    expect(sourceOfRequest(new Request('http://a.localhost/card/x?s=v'), {})).toBe('vcard')
  })
})

describe('views counted with their source', () => {
  test('a request the loader counts itself takes the source off its URL', async () => {
    const { organization, card, host } = await setup()
    for (const [suffix, agent] of [
      ['?s=q', 'qr'],
      ['?s=l', 'link'],
      ['?s=unknown', 'unknown'],
      ['', 'none'],
    ]) {
      const response = toResponse(
        await loader({
          request: requestFor(host, `/card/${card.id}${suffix}`, {
            // One visitor per link: the same visitor within 30 minutes is one view.
            headers: { 'User-Agent': `${CHROME} ${agent}` },
          }),
          context: contextFor(host),
          params: { ref: card.id },
        }),
      )
      expect(response.status).toBe(200)
    }
    const sources = (await sourcesOf(organization.id, card.id)).map((row) => row.source).sort()
    expect(sources).toEqual(['direct', 'direct', 'link', 'qr'])
  })

  test('a short link opened in capitals (its QR code) counts as the QR code’s (ADR 041)', async () => {
    const { organization, card, host } = await setup()
    for (const [slug, agent] of [
      ['SOL-SOURCE', 'camera'],
      ['sol-source', 'typed'],
    ] as const) {
      const response = toResponse(
        await shortLinkLoader({
          request: requestFor(host, `/${slug === 'SOL-SOURCE' ? 'C' : 'c'}/${slug}`, {
            headers: { 'User-Agent': `${CHROME} ${agent}` },
          }),
          context: contextFor(host),
          params: { slug },
        }),
      )
      expect(response.status).toBe(200)
    }
    const sources = (await sourcesOf(organization.id, card.id)).map((row) => row.source).sort()
    expect(sources).toEqual(['direct', 'qr'])
  })

  test('a cached page’s view is queued with the source server.ts read off the request', async () => {
    const { organization, card, host } = await setup()
    const response = toResponse(
      await loader({
        request: requestFor(host, `/card/${card.id}`),
        context: { ...contextFor(host), pageCacheCandidate: true, viewSource: 'qr' },
        params: { ref: card.id },
      }),
    )
    // The loader offers the page (the same for every link) and leaves the view to the server.
    expect(response.headers.get(CACHE_VIEW_HEADER)).toBe(card.id)
    expect(await sourcesOf(organization.id, card.id)).toEqual([])
    recordPublicCardView(organization.id, card.id, '198.51.100.7', CHROME, 'qr')
    recordPublicCardView(organization.id, card.id, '198.51.100.8', CHROME, 'share')
    recordPublicCardView(organization.id, card.id, '198.51.100.9', CHROME)
    expect(pendingCardViews()).toBe(3)
    await flushCardViews()
    const rows = await sourcesOf(organization.id, card.id)
    expect(rows.map((row) => row.source).sort()).toEqual(['direct', 'qr', 'share'])
    // Only the keyed hash of the visitor is kept, never the address or the user agent.
    for (const row of rows) {
      expect(row.visitorHash).toMatch(/^[0-9a-f]{32}$/)
      expect(row.visitorHash).not.toContain('198.51')
    }
  })

  test("the vCard's card link is marked as the vCard's, or as the NFC tag's when it asks", async () => {
    const { card, host } = await setup()
    const linkOf = async (path: string) => {
      const response = await vcardResponse(requestFor(host, path), contextFor(host), card.id)
      const text = (await response.text()).replace(/\r\n[ \t]/g, '')
      return text.split('\r\n').find((line) => line.startsWith('URL;TYPE=CARD:'))
    }
    // The card's short link (ADR 041), marked.
    expect(await linkOf(`/card/${card.id}/vcard`)).toMatch(/\/c\/[a-z0-9-]+\?s=v$/)
    expect(await linkOf(`/card/${card.id}/vcard?for=n`)).toMatch(/\?s=n$/)
    expect(await linkOf(`/card/${card.id}/vcard?for=nonsense`)).toMatch(/\?s=v$/)
  })
})

describe('the batch writer', () => {
  afterEach(() => {
    delete process.env.VIEW_FLUSH_MS
  })

  test('queues views and writes them together on its timer', async () => {
    const { organization, card } = await setup()
    process.env.VIEW_FLUSH_MS = '50'
    for (const [index, source] of (['qr', 'link', 'nfc'] as const).entries()) {
      queueCardView({
        organizationId: organization.id,
        cardId: card.id,
        visitorHash: `timer-${index}`,
        deviceClass: 'mobile',
        source,
      })
    }
    // Nothing is written on the request's path.
    expect(pendingCardViews()).toBe(3)
    expect(await sourcesOf(organization.id, card.id)).toEqual([])
    for (let i = 0; i < 200 && pendingCardViews() > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await flushCardViews()
    const sources = (await sourcesOf(organization.id, card.id)).map((row) => row.source).sort()
    expect(sources).toEqual(['link', 'nfc', 'qr'])
  })

  test('writes what is queued at shutdown, before the database closes', async () => {
    const { organization, card } = await setup()
    // A long timer: only the shutdown can write these.
    process.env.VIEW_FLUSH_MS = '600000'
    queueCardView({
      organizationId: organization.id,
      cardId: card.id,
      visitorHash: 'at-shutdown',
      deviceClass: 'desktop',
      source: 'vcard',
    })
    const working = getDatabaseHandle()
    let pendingAtClose = -1
    // The shutdown closes this stand-in, so the test's database stays open for the next test.
    const standIn: DatabaseHandle = {
      ...working,
      close: async () => {
        pendingAtClose = pendingCardViews()
      },
    }
    setDatabaseHandle(standIn)
    try {
      await closeDatabase(() => {})
    } finally {
      setDatabaseHandle(working)
    }
    expect(pendingAtClose).toBe(0)
    expect((await sourcesOf(organization.id, card.id)).map((row) => row.source)).toEqual(['vcard'])
  })
})

/** card_view_hours per (card, hour, source) against a plain count of card_views. */
async function expectHoursInStep(organizationId: string) {
  await withTenant(organizationId, async (tx) => {
    const hours = await tx
      .select({
        cardId: cardViewHours.cardId,
        hour: sql<string>`to_char(${cardViewHours.hour} at time zone 'UTC', 'YYYY-MM-DD HH24')`,
        source: cardViewHours.source,
        views: cardViewHours.views,
      })
      .from(cardViewHours)
      .where(and(eq(cardViewHours.organizationId, organizationId), sql`${cardViewHours.views} > 0`))
    const counted = await tx
      .select({
        cardId: cardViews.cardId,
        hour: sql<string>`to_char(${cardViews.viewedAt} at time zone 'UTC', 'YYYY-MM-DD HH24')`,
        source: cardViews.source,
        views: sql<number>`count(*)::int`,
      })
      .from(cardViews)
      .where(eq(cardViews.organizationId, organizationId))
      .groupBy(sql`1, 2, 3`)
    const key = (row: { cardId: string; hour: string; source: string }) =>
      `${row.cardId} ${row.hour} ${row.source}`
    const sorted = <T extends { cardId: string; hour: string; source: string }>(rows: T[]) =>
      [...rows].sort((a, b) => key(a).localeCompare(key(b)))
    expect(sorted(hours)).toEqual(sorted(counted))
  })
}

describe('views by source, per card and per user', () => {
  // A "now" 20 minutes into an hour: views in its hour land before and after it.
  const now = new Date(Math.floor(Date.now() / HOUR) * HOUR - 40 * 60_000)
  const today = now.toISOString().slice(0, 10)
  const firstDay = Date.parse(today) - (CHART_DAYS - 1) * DAY

  async function seed() {
    const a = await setup()
    const second = await makeCard(a.organization.id, a.owner.id, { title: 'Second' })
    const b = await setup()
    const at = (ms: number) => new Date(ms)
    const rows: { cardId: string; source: ViewSource; viewedAt: Date }[] = [
      // In the window: today, earlier days, the first day's first minute.
      { cardId: a.card.id, source: 'qr', viewedAt: at(now.getTime() - 5 * 60_000) },
      { cardId: a.card.id, source: 'qr', viewedAt: at(now.getTime() - 3 * DAY) },
      { cardId: a.card.id, source: 'link', viewedAt: at(now.getTime() - 3 * DAY) },
      { cardId: a.card.id, source: 'direct', viewedAt: at(firstDay) },
      { cardId: second.id, source: 'share', viewedAt: at(now.getTime() - DAY) },
      { cardId: second.id, source: 'nfc', viewedAt: at(now.getTime() - 2 * HOUR) },
      // Outside it: the day before the first, and after `now` in its own hour.
      { cardId: a.card.id, source: 'qr', viewedAt: at(firstDay - 1) },
      { cardId: a.card.id, source: 'vcard', viewedAt: at(now.getTime() + 5 * 60_000) },
    ]
    // One multi-row insert as the tenant's login: one trigger run for all of them.
    await withTenant(a.organization.id, (tx) =>
      tx.insert(cardViews).values(
        rows.map((row, index) => ({
          organizationId: a.organization.id,
          visitorHash: `seed-${index}`,
          ...row,
        })),
      ),
    )
    // Tenant B's views of its own card: never in A's figures.
    await withTenant(b.organization.id, (tx) =>
      tx.insert(cardViews).values(
        (['qr', 'qr', 'link'] as const).map((source, index) => ({
          organizationId: b.organization.id,
          cardId: b.card.id,
          visitorHash: `b-${index}`,
          source,
          viewedAt: at(now.getTime() - HOUR),
        })),
      ),
    )
    return { a, second, b }
  }

  test('each card and the user’s chart count the 14 days’ views by source', async () => {
    const { a, second, b } = await seed()
    const cards = await withTenant(a.organization.id, (tx) =>
      countCardViewsBySource(tx, a.organization.id, a.owner.id, now),
    )
    const byCard = Object.fromEntries(cards.map((card) => [card.cardId, card]))
    expect(byCard[a.card.id]).toEqual({
      cardId: a.card.id,
      views: 4,
      sources: { direct: 1, qr: 2, link: 1 },
    })
    expect(byCard[second.id]).toEqual({
      cardId: second.id,
      views: 2,
      sources: { nfc: 1, share: 1 },
    })
    const days = await withTenant(a.organization.id, (tx) =>
      countUserViewsBySourcePerDay(tx, a.organization.id, a.owner.id, now),
    )
    expect(days).toHaveLength(CHART_DAYS)
    expect(days[0]?.day).toBe(new Date(firstDay).toISOString().slice(0, 10))
    expect(days.at(-1)?.day).toBe(today)
    expect(days.reduce((n, d) => n + d.views, 0)).toBe(6)
    expect(days[0]?.sources).toEqual({ direct: 1 })
    for (const day of days) {
      expect(Object.values(day.sources).reduce((n, v) => n + v, 0)).toBe(day.views)
    }
    const totals: Partial<Record<ViewSource, number>> = {}
    for (const day of days) {
      for (const [source, views] of Object.entries(day.sources)) {
        totals[source as ViewSource] = (totals[source as ViewSource] ?? 0) + views
      }
    }
    expect(totals).toEqual({ direct: 1, qr: 2, link: 1, share: 1, nfc: 1 })

    // Tenant B sees its own three, none of A's; A's ids under B's organization find nothing.
    const bDays = await withTenant(b.organization.id, (tx) =>
      countUserViewsBySourcePerDay(tx, b.organization.id, b.owner.id, now),
    )
    expect(bDays.reduce((n, d) => n + d.views, 0)).toBe(3)
    expect(
      await withTenant(b.organization.id, (tx) =>
        countCardViewsBySource(tx, b.organization.id, a.owner.id, now),
      ),
    ).toEqual([])
  })

  /** A chart's 14 days added up by source. */
  function totalsOf(days: SourcedDay[]) {
    expect(days).toHaveLength(CHART_DAYS)
    const totals: Partial<Record<ViewSource, number>> = {}
    for (const day of days) {
      expect(Object.values(day.sources).reduce((n, v) => n + v, 0)).toBe(day.views)
      for (const [source, views] of Object.entries(day.sources)) {
        totals[source as ViewSource] = (totals[source as ViewSource] ?? 0) + views
      }
    }
    return totals
  }

  test('the admin dashboards’ charts: a team member’s, an agency’s, the platform’s', async () => {
    const { a, b } = await seed()
    // Tim is the team member of Sol (the seed's owner); Una, another end user of A, is not his.
    const tim = await makeUser(a.organization.id, { role: 'team_admin', firstName: 'Tim' })
    await getDb().update(users).set({ assignedToUserId: tim.id }).where(eq(users.id, a.owner.id))
    const una = await makeUser(a.organization.id, { firstName: 'Una' })
    const unaCard = await makeCard(a.organization.id, una.id)
    await withTenant(a.organization.id, (tx) =>
      tx.insert(cardViews).values({
        organizationId: a.organization.id,
        cardId: unaCard.id,
        visitorHash: 'una',
        source: 'vcard',
        viewedAt: new Date(now.getTime() - 10 * 60_000),
      }),
    )
    const chart = (organizationId: string, scope: StatsScope) =>
      withTenant(organizationId, (tx) => countViewsBySourcePerDay(tx, organizationId, scope, now))
    const sols = { direct: 1, qr: 2, link: 1, share: 1, nfc: 1 }

    // The team member's: Sol's cards, as Sol's own chart counts them; Una's view is not his.
    const assigned = await chart(a.organization.id, { kind: 'assigned', teamAdminId: tim.id })
    expect(totalsOf(assigned)).toEqual(sols)
    const solsDays = await withTenant(a.organization.id, (tx) =>
      countUserViewsBySourcePerDay(tx, a.organization.id, a.owner.id, now),
    )
    expect(assigned).toEqual(solsDays)
    // The agency's: every card of A, Una's vCard view too; the one after `now` still not.
    const agency = await chart(a.organization.id, { kind: 'organization' })
    expect(totalsOf(agency)).toEqual({ ...sols, vcard: 1 })
    // Agency B's: its own three; A's views never count there, nor B's in A's.
    expect(totalsOf(await chart(b.organization.id, { kind: 'organization' }))).toEqual({
      qr: 2,
      link: 1,
    })
    expect(
      totalsOf(await chart(b.organization.id, { kind: 'assigned', teamAdminId: tim.id })),
    ).toEqual({})

    // The platform's, on the owner connection (as withPlatformScope sees it): every tenant's
    // views, equal to a plain count by day and source of the chart's days up to `now`.
    const platform = await countPlatformViewsBySourcePerDay(getDb(), now)
    const plain = await getDb().execute(sql`
      select to_char((viewed_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
        source::text as source, count(*)::int as views
      from card_views
      where viewed_at >= ${new Date(firstDay).toISOString()}::timestamptz
        and viewed_at <= ${now.toISOString()}::timestamptz
      group by 1, 2`)
    const plainRows = (Array.isArray(plain) ? plain : (plain as { rows: unknown[] }).rows) as {
      day: string
      source: ViewSource
      views: number
    }[]
    const expected = new Map<string, Partial<Record<ViewSource, number>>>()
    for (const row of plainRows) {
      expected.set(row.day, { ...expected.get(row.day), [row.source]: Number(row.views) })
    }
    for (const day of platform) expect(day.sources).toEqual(expected.get(day.day) ?? {})
    // Both tenants' views are in it (and the earlier tests' too).
    expect(totalsOf(platform).vcard).toBeGreaterThanOrEqual(1)
    expect(expected.size).toBeGreaterThan(1)
    // Inside a tenant's transaction, row-level security narrows it to that tenant.
    expect(
      totalsOf(
        await withTenant(b.organization.id, (tx) => countPlatformViewsBySourcePerDay(tx, now)),
      ),
    ).toEqual({ qr: 2, link: 1 })
  })

  test('card_view_hours stays in step per source under inserts, updates and deletes', async () => {
    const { a, second, b } = await seed()
    await expectHoursInStep(a.organization.id)
    await expectHoursInStep(b.organization.id)
    await withTenant(a.organization.id, async (tx) => {
      await tx
        .delete(cardViews)
        .where(and(eq(cardViews.organizationId, a.organization.id), eq(cardViews.source, 'qr')))
      await tx
        .update(cardViews)
        .set({ source: 'signature' })
        .where(and(eq(cardViews.organizationId, a.organization.id), eq(cardViews.source, 'link')))
    })
    await expectHoursInStep(a.organization.id)
    const cards = await withTenant(a.organization.id, (tx) =>
      countCardViewsBySource(tx, a.organization.id, a.owner.id, now),
    )
    expect(cards.find((card) => card.cardId === a.card.id)?.sources).toEqual({
      direct: 1,
      signature: 1,
    })
    // A deleted card takes its hours with it.
    await withTenant(a.organization.id, (tx) =>
      tx.execute(sql`delete from digital_cards where id = ${second.id}`),
    )
    await expectHoursInStep(a.organization.id)
    // B's were never touched.
    await expectHoursInStep(b.organization.id)
  })
})

test('the chart draws days with sources stacked, named in a legend, its description and its table', () => {
  const days = [
    { day: '2026-11-01', views: 3, sources: { qr: 2, link: 1 } },
    { day: '2026-11-02', views: 0, sources: {} },
    { day: '2026-11-03', views: 1, sources: { nfc: 1 } },
  ]
  const html = renderToStaticMarkup(createElement(ViewsChart, { days, title: 'By source' }))
  expect(describeViews(days)).toMatch(/^4 views .* By source: QR code 2, NFC 1, Copied link 1\.$/)
  expect(html).toContain('data-testid="views-chart-legend"')
  for (const label of ['QR code', 'NFC', 'Copied link']) {
    expect(html).toContain(`<th scope="col">${label}</th>`)
  }
  expect(html).not.toContain('Share sheet')
  // One bar part per source of each day: two, then one.
  expect(html.match(/<rect [^>]*class="fill-/g)?.length).toBe(3 + 3)
})
