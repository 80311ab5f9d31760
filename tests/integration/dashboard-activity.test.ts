// The activity lists of the super admin, agency and team member dashboards (roles-teams-admin.md
// §2.3, issue 30 point 1), from real rows through the dashboards' loaders: each role sees its
// own scope (the platform, its organization, the end users assigned to it), never another
// tenant's rows, and never more of a person than their name: no email, phone, card title or
// contact's name reaches a list.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, test } from 'vitest'
import { type ActivityItem, RecentActivity } from '#app/components/dashboard/recent-activity'
import { loader as agencyLoader } from '#app/routes/dashboard.agency._index'
import { loader as superAdminLoader } from '#app/routes/dashboard.super-admin._index'
import { loader as teamMemberLoader } from '#app/routes/dashboard.team-member._index'
import { getDb } from '#drizzle/db.server'
import { cardViews, contacts, users } from '#drizzle/schema'
import {
  contextFor,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

type Loader = (args: LoaderFunctionArgs) => Promise<unknown>
type Data = { statsError: boolean; stats: { activity: ActivityItem[] } | null; now: string }

async function open(loader: Loader, host: string, path: string, cookie: string) {
  const response = await settle(async () =>
    loader({
      request: requestFor(host, path, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  const body = await response.text()
  const data = JSON.parse(body) as Data
  expect(data.statsError).toBe(false)
  return { body, activity: data.stats?.activity ?? [], now: data.now }
}

const suffix = uniqueSuffix()
/** What no list may carry: the people's emails and phones, a card's title, a contact's name. */
const SECRETS = {
  email: `alice-${suffix}@example.test`,
  phone: '+1 555 0177',
  cardTitle: `Alice Title ${suffix}`,
  contactName: `Connie Secret ${suffix}`,
  otherEmail: `carol-${suffix}@example.test`,
}
const names = { alice: `Alice Able${suffix}`, bob: `Bob Baker${suffix}`, carol: `Carol C${suffix}` }
const hosts = { a: '', b: '', platform: 'localhost' }
const cookies = { ada: '', tim: '', tom: '', carolAdmin: '', sue: '' }
const orgs = { a: '', b: '', aName: '', bName: '' }

const who = (items: ActivityItem[]) => [...new Set(items.map((item) => item.subject))].sort()
const kinds = (items: ActivityItem[]) => items.map((item) => item.kind).sort()

beforeAll(async () => {
  const platform = await getPlatformOrganization()
  const a = await makeOrganization()
  hosts.a = `${a.slug}.localhost`

  // Agency A: Ada (admin), Tim (team member) managing Alice; Tom manages nobody; Bob is nobody's.
  const ada = await makeUser(a.id, { role: 'agency_admin', firstName: 'Ada', lastName: 'Admin' })
  const tim = await makeUser(a.id, { role: 'team_admin', firstName: 'Tim', lastName: 'Team' })
  const tom = await makeUser(a.id, { role: 'team_admin', firstName: 'Tom', lastName: 'Idle' })
  const alice = await makeUser(a.id, {
    firstName: 'Alice',
    lastName: `Able${suffix}`,
    email: SECRETS.email,
    phoneNumber: SECRETS.phone,
  })
  const bob = await makeUser(a.id, { firstName: 'Bob', lastName: `Baker${suffix}` })
  await getDb().update(users).set({ assignedToUserId: tim.id }).where(eq(users.id, alice.id))
  const aliceCard = await makeCard(a.id, alice.id, {
    title: SECRETS.cardTitle,
    email: SECRETS.email,
    phoneNumber: SECRETS.phone,
  })
  const bobCard = await makeCard(a.id, bob.id)
  await getDb()
    .insert(cardViews)
    .values([
      { organizationId: a.id, cardId: aliceCard.id, visitorHash: `v-alice-${suffix}` },
      { organizationId: a.id, cardId: bobCard.id, visitorHash: `v-bob-${suffix}` },
    ])
  await getDb()
    .insert(contacts)
    .values([
      { organizationId: a.id, userId: alice.id, fullName: SECRETS.contactName, source: 'lead' },
      { organizationId: a.id, userId: bob.id, fullName: 'Bob Contact', source: 'lead' },
    ])

  // Agency B, made after A's rows: Carol, assigned to a team member of B, with a card, a view and a contact.
  const b = await makeOrganization()
  Object.assign(orgs, { a: a.id, b: b.id, aName: a.name, bName: b.name })
  hosts.b = `${b.slug}.localhost`
  const carolAdmin = await makeUser(b.id, { role: 'agency_admin', firstName: 'Cara' })
  const carolTeam = await makeUser(b.id, { role: 'team_admin' })
  const carol = await makeUser(b.id, {
    firstName: 'Carol',
    lastName: `C${suffix}`,
    email: SECRETS.otherEmail,
  })
  await getDb().update(users).set({ assignedToUserId: carolTeam.id }).where(eq(users.id, carol.id))
  const carolCard = await makeCard(b.id, carol.id)
  await getDb()
    .insert(cardViews)
    .values({ organizationId: b.id, cardId: carolCard.id, visitorHash: `v-carol-${suffix}` })

  const sue = await makeUser(platform.id, { role: 'super_admin', firstName: 'Sue' })
  cookies.ada = await sessionCookieFor(a.id, ada.id)
  cookies.tim = await sessionCookieFor(a.id, tim.id)
  cookies.tom = await sessionCookieFor(a.id, tom.id)
  cookies.carolAdmin = await sessionCookieFor(b.id, carolAdmin.id)
  cookies.sue = await sessionCookieFor(platform.id, sue.id)
})

function expectNoSecrets(body: string, except: string[] = []) {
  for (const [name, secret] of Object.entries(SECRETS)) {
    if (except.includes(name)) continue
    expect(body, name).not.toContain(secret)
  }
}

describe('team member dashboard', () => {
  test('the end users they manage: joining, cards, views and contacts; nobody else', async () => {
    const { body, activity } = await open(
      teamMemberLoader,
      hosts.a,
      '/dashboard/team-member',
      cookies.tim,
    )
    expect(kinds(activity)).toEqual([
      'card.made',
      'member.card_viewed',
      'member.contact_gained',
      'user.joined',
    ])
    expect(who(activity)).toEqual([names.alice])
    expectNoSecrets(body)
  })

  test('a team member who manages nobody has an empty list', async () => {
    const { activity } = await open(
      teamMemberLoader,
      hosts.a,
      '/dashboard/team-member',
      cookies.tom,
    )
    expect(activity).toEqual([])
  })
})

describe('agency dashboard', () => {
  test("its own organization's accounts and cards, with roles; none of B's", async () => {
    const { body, activity } = await open(agencyLoader, hosts.a, '/dashboard/agency', cookies.ada)
    const joined = activity.filter((item) => item.kind === 'user.joined')
    expect(joined.map((item) => [item.subject, item.role]).sort()).toEqual(
      [
        ['Ada Admin', 'agency_admin'],
        ['Tim Team', 'team_admin'],
        ['Tom Idle', 'team_admin'],
        [names.alice, 'end_user'],
        [names.bob, 'end_user'],
      ].sort(),
    )
    expect(
      activity
        .filter((item) => item.kind === 'card.made')
        .map((item) => item.subject)
        .sort(),
    ).toEqual([names.alice, names.bob].sort())
    expect(activity.every((item) => item.organization === null)).toBe(true)
    expect(body).not.toContain(names.carol)
    expectNoSecrets(body)
  })

  test("agency B's list has only B's rows", async () => {
    const { body, activity } = await open(
      agencyLoader,
      hosts.b,
      '/dashboard/agency',
      cookies.carolAdmin,
    )
    expect(who(activity)).toContain(names.carol)
    expect(body).not.toContain(names.alice)
    expect(body).not.toContain(names.bob)
    expectNoSecrets(body)
  })
})

describe('super admin dashboard', () => {
  test('on the platform host: agencies created, accounts and cards of every tenant', async () => {
    const { body, activity } = await open(
      superAdminLoader,
      hosts.platform,
      '/dashboard/super-admin',
      cookies.sue,
    )
    // The newest eight rows of the platform: B's were made last, and its agency among them.
    expect(activity).toHaveLength(8)
    expect(activity).toContainEqual(
      expect.objectContaining({ kind: 'agency.created', subject: orgs.bName }),
    )
    expect(activity).toContainEqual(
      expect.objectContaining({
        kind: 'card.made',
        subject: names.carol,
        organization: orgs.bName,
      }),
    )
    expect(activity).toContainEqual(
      expect.objectContaining({
        kind: 'user.joined',
        organization: 'Platform',
        role: 'super_admin',
      }),
    )
    // Newest first.
    const times = activity.map((item) => item.at)
    expect(times).toEqual([...times].sort().reverse())
    expectNoSecrets(body)
  })
})

describe('the list on the page', () => {
  const now = '2026-11-27T12:00:00.000Z'
  const item = (kind: string, extra: Partial<ActivityItem> = {}): ActivityItem => ({
    id: kind,
    kind,
    at: '2026-11-27T11:00:00.000Z',
    subject: 'Dana Dash',
    ...extra,
  })
  const render = (items: ActivityItem[], emptyText?: string) =>
    renderToStaticMarkup(createElement(RecentActivity, { items, now, emptyText }))

  test('each kind in words, with the organization on the platform list', () => {
    const html = render([
      item('agency.created', { subject: 'Acme' }),
      item('user.joined', { role: 'end_user', organization: 'Acme' }),
      item('user.joined', { id: 'b', role: 'agency_admin' }),
      item('card.made', { organization: 'Acme' }),
      item('member.card_viewed'),
      item('member.contact_gained'),
      item('user.joined', { id: 'c', subject: null }),
    ])
    for (const text of [
      'Agency Acme was created',
      'Dana Dash joined Acme as end user',
      'Dana Dash joined as agency admin',
      'Dana Dash created a digital card at Acme',
      'Dana Dash&#x27;s card was viewed',
      'Dana Dash gained a new contact',
      'Someone joined',
      'about 1 hour ago',
    ]) {
      expect(html).toContain(text)
    }
  })

  test('an empty list says what would show', () => {
    expect(render([], 'No activity yet. New agencies will show here.')).toContain(
      'No activity yet. New agencies will show here.',
    )
    expect(render([])).toContain('Share your card to see views and new contacts here.')
  })
})
