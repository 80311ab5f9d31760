// The dashboards' figures (roles-teams-admin.md §2.3, §7, §9) against rows inserted with known
// times on both sides of the 7-day and 14-day boundaries, for every role's scope: an end user's
// own rows, a team member's assigned end users, an agency's organization and the whole platform.
// Another organization's rows never count, except in the super admin's platform figures.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { RecentActivity } from '#app/components/dashboard/recent-activity'
import { changeText } from '#app/components/dashboard/stat-card'
import { StatsUnavailable } from '#app/components/dashboard/stats-failure'
import { describeViews, ViewsChart } from '#app/components/dashboard/views-chart'
import * as statistics from '#app/models/stats.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { loader as agencyLoader } from '#app/routes/dashboard.agency._index'
import { loader as endUserLoader } from '#app/routes/dashboard.end-user._index'
import { loader as superAdminLoader } from '#app/routes/dashboard.super-admin._index'
import { loader as teamMemberLoader } from '#app/routes/dashboard.team-member._index'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, cardViews, contacts, users } from '#drizzle/schema'
import { databaseUnavailableResponse } from '#drizzle/unavailable.server'
import {
  contextFor,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

const HOUR = 3_600_000
const DAY = 24 * HOUR
// Yesterday at noon (UTC): a fixed "now" far from midnight, so each row's day is certain.
const today = new Date(new Date().toISOString().slice(0, 10))
const NOW = new Date(today.getTime() - DAY + 12 * HOUR)
const ago = (ms: number) => new Date(NOW.getTime() - ms)
const dayOf = (date: Date) => date.toISOString().slice(0, 10)
const daysBefore = (n: number) => dayOf(ago(n * DAY))
// The chart's first bar is 13 days before today's: its start is 00:00 UTC of that day.
const chartStart = new Date(`${daysBefore(13)}T00:00:00.000Z`)

type Loader = (args: LoaderFunctionArgs) => Promise<unknown>
type Data = Record<string, unknown> & {
  statsError: boolean
  stats: Record<string, unknown> | null
}

async function open(loader: Loader, host: string, path: string, cookie: string) {
  const response = await settle(async () =>
    loader({
      request: requestFor(host, path, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as Data
}

async function view(organizationId: string, cardId: string, viewedAt: Date) {
  await getDb()
    .insert(cardViews)
    .values({ organizationId, cardId, visitorHash: `v-${viewedAt.getTime()}`, viewedAt })
}

async function contact(
  organizationId: string,
  userId: string,
  createdAt: Date,
  source: 'connect' | 'lead' | 'saved' | 'manual',
  fullName = `Contact ${createdAt.getTime()}`,
) {
  await getDb().insert(contacts).values({ organizationId, userId, fullName, source, createdAt })
}

const hosts = { a: '', b: '', platform: 'localhost' }
const cookies = { alice: '', tim: '', ada: '', sue: '', carolAdmin: '' }
let platformId: string

beforeAll(async () => {
  // Sessions and loaders read the clock; only Date is faked, timers stay real.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)

  const platform = await getPlatformOrganization()
  platformId = platform.id
  const a = await makeOrganization()
  const b = await makeOrganization()
  hosts.a = `${a.slug}.localhost`
  hosts.b = `${b.slug}.localhost`

  // Agency A: Alice (end user, two cards) is assigned to Tim (team member); Bob is not.
  const tim = await makeUser(a.id, { role: 'team_admin', firstName: 'Tim' })
  const ada = await makeUser(a.id, { role: 'agency_admin', firstName: 'Ada' })
  const alice = await makeUser(a.id, { firstName: 'Alice' })
  const bob = await makeUser(a.id, { firstName: 'Bob' })
  await getDb().update(users).set({ assignedToUserId: tim.id }).where(eq(users.id, alice.id))
  const aliceCard = await makeCard(a.id, alice.id, { title: "Alice's Card" })
  await makeCard(a.id, alice.id, { title: 'Second' })
  const bobCard = await makeCard(a.id, bob.id)

  // Alice's views: 3 in the last 7 days, 2 in the 7 before, 1 older.
  await view(a.id, aliceCard.id, ago(1 * HOUR))
  await view(a.id, aliceCard.id, ago(2 * DAY))
  await view(a.id, aliceCard.id, ago(7 * DAY - 2 * HOUR))
  await view(a.id, aliceCard.id, ago(7 * DAY + 2 * HOUR))
  await view(a.id, aliceCard.id, ago(14 * DAY - 1 * HOUR))
  await view(a.id, aliceCard.id, ago(14 * DAY + 1 * HOUR))
  // Bob's: one now, two in the 7 days before, on both sides of the chart's first day.
  await view(a.id, bobCard.id, ago(1 * HOUR))
  await view(a.id, bobCard.id, new Date(chartStart.getTime() + 60_000))
  await view(a.id, bobCard.id, new Date(chartStart.getTime() - 60_000))

  // Alice's contacts: 2 in the last 7 days, 3 in the 7 before, 1 older.
  await contact(a.id, alice.id, ago(0.5 * HOUR), 'connect', 'Connie Connect')
  await contact(a.id, alice.id, ago(7 * DAY - 1 * HOUR), 'lead', 'Lee Lead')
  await contact(a.id, alice.id, ago(7 * DAY + 1 * HOUR), 'saved', 'Sam Saved')
  await contact(a.id, alice.id, ago(10 * DAY), 'lead')
  await contact(a.id, alice.id, ago(14 * DAY - 1 * HOUR), 'manual')
  await contact(a.id, alice.id, ago(14 * DAY + 1 * HOUR), 'manual')
  // Bob's contact counts for the agency, not for Tim or Alice.
  await contact(a.id, bob.id, ago(1 * DAY), 'lead')

  // Alice's own account events: a card created shows; a password change does not.
  await getDb()
    .insert(auditEvents)
    .values([
      {
        organizationId: a.id,
        actorUserId: alice.id,
        action: 'card.created',
        entityType: 'card',
        createdAt: ago(3 * HOUR),
      },
      {
        organizationId: a.id,
        actorUserId: alice.id,
        action: 'password.changed',
        entityType: 'user',
        createdAt: ago(2 * HOUR),
      },
    ])

  // Agency B: plenty of recent rows, none of which may reach A's figures.
  const carol = await makeUser(b.id, { firstName: 'Carol' })
  const carolAdmin = await makeUser(b.id, { role: 'agency_admin' })
  const carolCard = await makeCard(b.id, carol.id)
  for (let i = 0; i < 5; i++) await view(b.id, carolCard.id, ago(1 * DAY + i * 60_000))
  for (let i = 0; i < 4; i++) await contact(b.id, carol.id, ago(1 * DAY + i * 60_000), 'lead')

  // The platform: Pat (end user, one card, one view) and Sue (super admin).
  const pat = await makeUser(platform.id, { firstName: 'Pat' })
  const patCard = await makeCard(platform.id, pat.id)
  await view(platform.id, patCard.id, ago(3 * HOUR))
  const sue = await makeUser(platform.id, { role: 'super_admin', firstName: 'Sue' })

  cookies.alice = await sessionCookieFor(a.id, alice.id)
  cookies.tim = await sessionCookieFor(a.id, tim.id)
  cookies.ada = await sessionCookieFor(a.id, ada.id)
  cookies.sue = await sessionCookieFor(platform.id, sue.id)
  cookies.carolAdmin = await sessionCookieFor(b.id, carolAdmin.id)
})

afterAll(() => {
  vi.useRealTimers()
})

/** The 14 days of the chart as a map of the days that have views. */
function nonZeroDays(series: { day: string; views: number }[]) {
  expect(series).toHaveLength(14)
  expect(series[0]?.day).toBe(daysBefore(13))
  expect(series[13]?.day).toBe(dayOf(NOW))
  return Object.fromEntries(series.filter((d) => d.views > 0).map((d) => [d.day, d.views]))
}

describe('end user dashboard', () => {
  test('cards, and contacts and views of the last 7 days against the 7 before', async () => {
    const data = await open(endUserLoader, hosts.a, '/dashboard/end-user', cookies.alice)
    expect(data.statsError).toBe(false)
    expect(data.stats).toMatchObject({
      cards: 2,
      contacts: { current: 2, previous: 3 },
      views: { current: 3, previous: 2 },
    })
    expect(changeText(3, 2)).toBe('+1 from last week')
    expect(changeText(2, 3)).toBe('-1 from last week')
    expect(changeText(4, 4)).toBe('No change from last week')
    // Alice never ran the wizard but has two cards: no "Create your profile" banner.
    expect(data.offerOnboarding).toBe(false)
  })

  test('recent activity: views, contacts by source and own card changes, newest first', async () => {
    const data = await open(endUserLoader, hosts.a, '/dashboard/end-user', cookies.alice)
    const activity = (data.stats as { activity: { kind: string; subject: string | null }[] })
      .activity
    expect(activity.map((item) => item.kind)).toEqual([
      'connect',
      'view',
      'card.created',
      'view',
      'view',
      'lead',
      'saved',
      'view',
    ])
    expect(activity[0]?.subject).toBe('Connie Connect')
    expect(activity[1]?.subject).toBe("Alice's Card")
    expect(data.now).toBe(NOW.toISOString())
    const html = renderToStaticMarkup(
      createElement(RecentActivity, { items: activity as never, now: data.now as string }),
    )
    expect(html).toContain('Connected with Connie Connect')
    expect(html).toContain('30 minutes ago')
    expect(html).toContain('Your card &quot;Alice&#x27;s Card&quot; was viewed')
    expect(html).toContain('about 1 hour ago')
    expect(html).toContain('New lead from Lee Lead')
    expect(html).toContain('You created a digital card')
    expect(html).not.toContain('password')
  })

  test('an end user without any rows sees zeros and an empty activity list', async () => {
    const organization = await makeOrganization()
    const newcomer = await makeUser(organization.id)
    const data = await open(
      endUserLoader,
      `${organization.slug}.localhost`,
      '/dashboard/end-user',
      await sessionCookieFor(organization.id, newcomer.id),
    )
    const { viewsBySource, ...figures } = data.stats as Record<string, unknown> & {
      viewsBySource: { views: number; sources: object }[]
    }
    expect(figures).toEqual({
      cards: 0,
      contacts: { current: 0, previous: 0 },
      views: { current: 0, previous: 0 },
      activity: [],
      teamMembers: 0,
      inTeam: false,
      // In no team: the dashboard leaves the team members tile out.
      tiles: {
        cards: 0,
        contacts: { current: 0, previous: 0 },
        views: { current: 0, previous: 0 },
      },
    })
    // The chart's 14 days are there, each empty.
    expect(viewsBySource).toHaveLength(14)
    expect(viewsBySource.every((day) => day.views === 0)).toBe(true)
    const html = renderToStaticMarkup(createElement(RecentActivity, { items: [], now: '' }))
    expect(html).toContain('No activity yet')
    // Neither the wizard nor a card: the banner offers the wizard.
    expect(data.offerOnboarding).toBe(true)
  })
})

describe('team member dashboard', () => {
  test("the assigned end users' cards, views and contacts, and their views per day", async () => {
    const data = await open(teamMemberLoader, hosts.a, '/dashboard/team-member', cookies.tim)
    const stats = data.stats as Record<string, unknown> & {
      viewsBySource: { day: string; views: number; sources: object }[]
    }
    expect(stats).toMatchObject({
      endUsers: 1,
      cards: 2,
      views: { current: 3, previous: 2 },
      contacts: { current: 2, previous: 3 },
    })
    // Alice's views inside the chart: today, 2 days ago, and two 7 days ago (either side of
    // the comparison boundary); the one 14 days ago is before the chart's first day.
    expect(nonZeroDays(stats.viewsBySource)).toEqual({
      [daysBefore(0)]: 1,
      [daysBefore(2)]: 1,
      [daysBefore(7)]: 2,
    })
  })
})

describe('agency dashboard', () => {
  test("the organization's people, cards and views; B's rows never count", async () => {
    const data = await open(agencyLoader, hosts.a, '/dashboard/agency', cookies.ada)
    const stats = data.stats as Record<string, unknown> & {
      viewsBySource: { day: string; views: number; sources: object }[]
    }
    expect(stats).toMatchObject({
      people: { endUsers: 2, teamMembers: 2 },
      cards: 3,
      views: { current: 4, previous: 4 },
    })
    // Bob's view a minute into the chart's first day counts there; the one a minute before not.
    expect(nonZeroDays(stats.viewsBySource)).toEqual({
      [daysBefore(13)]: 1,
      [daysBefore(7)]: 2,
      [daysBefore(2)]: 1,
      [daysBefore(0)]: 2,
    })
    // Views without a marker are direct ones, the chart's only source here.
    for (const day of stats.viewsBySource) {
      expect(day.sources).toEqual(day.views ? { direct: day.views } : {})
    }
  })

  test("agency B's dashboard counts only B's rows", async () => {
    const data = await open(agencyLoader, hosts.b, '/dashboard/agency', cookies.carolAdmin)
    expect(data.stats).toMatchObject({
      people: { endUsers: 1, teamMembers: 1 },
      cards: 1,
      views: { current: 5, previous: 0 },
    })
  })
})

describe('super admin dashboard', () => {
  test('on the platform host: every tenant counts, and the read is audited', async () => {
    const data = await open(superAdminLoader, hosts.platform, '/dashboard/super-admin', cookies.sue)
    const stats = data.stats as Record<string, unknown> & {
      viewsBySource: { day: string; views: number; sources: object }[]
    }
    expect(stats).toMatchObject({
      scope: 'platform',
      // A, B and the newcomer's agency of the end-user test above (tests run in order).
      agencies: 3,
      endUsers: 5,
      cards: 5,
      views: { current: 10, previous: 4 },
    })
    expect(nonZeroDays(stats.viewsBySource)).toEqual({
      [daysBefore(13)]: 1,
      [daysBefore(7)]: 2,
      [daysBefore(2)]: 1,
      [daysBefore(1)]: 5,
      [daysBefore(0)]: 3,
    })
    const audited = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, platformId))
    expect(audited.map((event) => event.action)).toContain('platform.read')
  })

  test('the chart is plain SVG with a title, a description and the figures as a table', () => {
    const days = Array.from({ length: 14 }, (_, i) => ({ day: daysBefore(13 - i), views: i % 3 }))
    const html = renderToStaticMarkup(createElement(ViewsChart, { days, title: 'Card views' }))
    expect(html).toMatch(/<svg role="img" aria-labelledby="[^"]+-title [^"]+-desc"/)
    expect(html).toContain('<title id=')
    expect(html).toContain(`<desc id=`)
    expect(html).toContain(describeViews(days))
    expect(describeViews(days)).toMatch(/^13 views from \w{3} \d+ to \w{3} \d+; the busiest day/)
    // The table sits in an sr-only box (a table itself ignores its 1 px size, issue 30); the
    // axes are HTML text at body size, none of it drawn inside the scaled SVG.
    expect(html).toContain('<div class="sr-only"><table data-testid="views-chart-table">')
    expect(html).not.toContain('<text')
    expect(html).toMatch(
      /class="[^"]*text-sm[^"]*"><div aria-hidden="true"[^>]*data-testid="views-chart-y-axis"/,
    )
    expect(html).toContain('data-testid="views-chart-x-axis"')
    expect((html.match(/<rect /g) ?? []).length).toBe(14)
    const empty = renderToStaticMarkup(
      createElement(ViewsChart, { days: days.map((d) => ({ ...d, views: 0 })), title: 'x' }),
    )
    expect(empty).not.toContain('<svg')
    expect(empty).toContain('No card views in the last 14 days yet')
  })
})

describe('when the statistics cannot be loaded', () => {
  test('every dashboard still renders, with statsError instead of figures', async () => {
    // Each dashboard's first statistics query fails as a lost database does; the model's
    // functions are called through their module (vitest's transform), so the loaders reach these.
    const unavailable = () => Promise.reject(databaseUnavailableResponse())
    const spies = [
      vi.spyOn(statistics, 'countCards').mockImplementation(unavailable),
      vi.spyOn(statistics, 'endUserFigures').mockImplementation(unavailable),
      vi.spyOn(statistics, 'countPlatformPeople').mockImplementation(unavailable),
    ]
    try {
      const cases: [Loader, string, string, string][] = [
        [endUserLoader, hosts.a, '/dashboard/end-user', cookies.alice],
        [teamMemberLoader, hosts.a, '/dashboard/team-member', cookies.tim],
        [agencyLoader, hosts.a, '/dashboard/agency', cookies.ada],
        [superAdminLoader, hosts.platform, '/dashboard/super-admin', cookies.sue],
      ]
      for (const [loader, host, path, cookie] of cases) {
        const data = await open(loader, host, path, cookie)
        expect(data, path).toMatchObject({ statsError: true, stats: null })
        expect(data.firstName, path).toBeTruthy()
      }
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
    // What the dashboards show in place of the figures (spec §8's text; its toast is the same).
    expect(renderToStaticMarkup(createElement(StatsUnavailable))).toContain(
      'Could not load dashboard statistics. Please try again in a moment.',
    )
  })
})

// Last: its organization and people would change the platform-wide figures checked above.
describe('end-user dashboard, team members', () => {
  test('team members: the people of all the user’s teams, each once, the user included', async () => {
    const organization = await makeOrganization()
    const [me, ann, bob, cy, stranger] = await Promise.all(
      ['Me', 'Ann', 'Bob', 'Cy', 'Stranger'].map((firstName) =>
        makeUser(organization.id, { firstName, plan: 'team_basic' }),
      ),
    )
    if (!me || !ann || !bob || !cy || !stranger) throw new Error('users missing')
    await withTenant(organization.id, async (tx) => {
      const first = await createTeamWithAdmin(tx, organization.id, me.id, {
        name: 'One',
        description: '',
      })
      await addTeamMember(tx, organization.id, first.id, ann.id, 'member')
      await addTeamMember(tx, organization.id, first.id, bob.id, 'viewer')
      // Ann again in a second team (counted once), Cy only there; the stranger's team is not mine.
      const second = await createTeamWithAdmin(tx, organization.id, cy.id, {
        name: 'Two',
        description: '',
      })
      await addTeamMember(tx, organization.id, second.id, me.id, 'member')
      await addTeamMember(tx, organization.id, second.id, ann.id, 'member')
      await createTeamWithAdmin(tx, organization.id, stranger.id, {
        name: 'Three',
        description: '',
      })
    })
    const data = await open(
      endUserLoader,
      `${organization.slug}.localhost`,
      '/dashboard/end-user',
      await sessionCookieFor(organization.id, me.id),
    )
    // Me, Ann, Bob and Cy: the Team page's members tables list the user too (ADR 085).
    expect(data.stats).toMatchObject({
      teamMembers: 4,
      inTeam: true,
      tiles: { 'team-members': 4 },
    })
  })
})
