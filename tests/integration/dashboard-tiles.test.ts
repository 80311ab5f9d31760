// Counts on tiles match their lists (issue 41 point 15, ADR 085): on the demo, every role's
// dashboard is opened as its demo account, and each tile of DASHBOARD_TILES that opens a list is
// compared with that list as its loader answers it, opened by the tile's own link. The tiles come
// from app/dashboard/dashboard-tiles.ts, so a new tile is checked here without being listed; a
// tile whose list has no loader below fails until one is added. Its own file: the seed needs an
// empty database.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  DASHBOARD_TILES,
  type TileDefinition,
  type TileValue,
} from '#app/dashboard/dashboard-tiles'
import { seedDemo } from '#app/demo/seed.server'
import { loader as agencyDashboard } from '#app/routes/dashboard.agency._index'
import { loader as agencyTeam } from '#app/routes/dashboard.agency.team'
import { loader as agencyUsers } from '#app/routes/dashboard.agency.users._index'
import { loader as endUserDashboard } from '#app/routes/dashboard.end-user._index'
import { loader as digitalCards } from '#app/routes/dashboard.end-user.digital-cards._index'
import { loader as teamPage } from '#app/routes/dashboard.end-user.team'
import { loader as superAdminDashboard } from '#app/routes/dashboard.super-admin._index'
import { loader as agencies } from '#app/routes/dashboard.super-admin.agencies'
import { loader as platformUsers } from '#app/routes/dashboard.super-admin.users._index'
import { loader as teamMemberDashboard } from '#app/routes/dashboard.team-member._index'
import { loader as myEndUsers } from '#app/routes/dashboard.team-member.users'
import type { RoleArea } from '#app/validation/roles'
import { getDb } from '#drizzle/db.server'
import { organizations, users } from '#drizzle/schema'
import { contextFor, requestFor, sessionCookieFor, settle } from '#tests/factories'

type Loader = (args: LoaderFunctionArgs) => unknown

const DASHBOARDS: Record<RoleArea, Loader> = {
  'super-admin': superAdminDashboard,
  agency: agencyDashboard,
  'team-member': teamMemberDashboard,
  'end-user': endUserDashboard,
}

/** The loader of each list a tile opens, by path. */
const LISTS: Record<string, Loader> = {
  '/dashboard/super-admin/agencies': agencies,
  '/dashboard/super-admin/users': platformUsers,
  '/dashboard/agency/users': agencyUsers,
  '/dashboard/agency/team': agencyTeam,
  '/dashboard/team-member/users': myEndUsers,
  '/dashboard/end-user/digital-cards': digitalCards,
  '/dashboard/end-user/team': teamPage,
}

/** The demo's accounts of every area (README "Demo accounts"), each on its own host. */
const PEOPLE: { area: RoleArea; slug: string; email: string }[] = [
  { area: 'super-admin', slug: 'platform', email: 'super@brandcard.test' },
  { area: 'agency', slug: 'acme', email: 'admin@acme.test' },
  { area: 'agency', slug: 'acme', email: 'member@acme.test' },
  { area: 'agency', slug: 'globex', email: 'admin@globex.test' },
  { area: 'team-member', slug: 'acme', email: 'team@acme.test' },
  { area: 'end-user', slug: 'acme', email: 'alice@acme.test' },
  { area: 'end-user', slug: 'acme', email: 'carl@acme.test' },
  { area: 'end-user', slug: 'globex', email: 'bob@globex.test' },
  { area: 'end-user', slug: 'platform', email: 'pat@example.test' },
  // The super admin team's role lands in the end-user area (AREA_ROLES).
  { area: 'end-user', slug: 'platform', email: 'ops@brandcard.test' },
]

const hostOf = (slug: string) => (slug === 'platform' ? 'localhost' : `${slug}.localhost`)

async function cookieOf(slug: string, email: string) {
  const [row] = await getDb()
    .select({ organizationId: organizations.id, userId: users.id })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(organizations.slug, slug), eq(users.email, email)))
  if (!row) throw new Error(`no demo user ${email}`)
  return sessionCookieFor(row.organizationId, row.userId)
}

async function open(loader: Loader, host: string, path: string, cookie: string) {
  const response = await settle(
    async () =>
      loader({
        request: requestFor(host, path, { headers: { Cookie: cookie } }),
        context: contextFor(host),
        params: {},
      }) as Promise<unknown>,
  )
  expect(response.status, path).toBe(200)
  return (await response.json()) as Record<string, unknown>
}

/** The rows at a dotted path of a list's data ('selected.members'). */
function rowsAt(data: Record<string, unknown>, path: string) {
  const rows = path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | null)?.[key], data)
  if (!Array.isArray(rows)) throw new Error(`no rows at ${path}`)
  return rows as Record<string, unknown>[]
}

/** What the list shows for a tile: its rows, or the sum of a number of each row. */
function listCount(tile: TileDefinition, data: Record<string, unknown>) {
  if (!tile.list) throw new Error(`${tile.id} opens no list`)
  const rows = rowsAt(data, tile.list.rows)
  const { sum } = tile.list
  return sum ? rows.reduce((total, row) => total + Number(row[sum]), 0) : rows.length
}

const figure = (value: TileValue) => (typeof value === 'number' ? value : value.current)

type Opened = { tiles: Record<string, TileValue>; activity: unknown[] }
const dashboards = new Map<string, Opened>()
const cookies = new Map<string, string>()

beforeAll(async () => {
  await seedDemo(getDb())
  for (const person of PEOPLE) {
    const cookie = await cookieOf(person.slug, person.email)
    cookies.set(person.email, cookie)
    const data = await open(
      DASHBOARDS[person.area],
      hostOf(person.slug),
      `/dashboard/${person.area}`,
      cookie,
    )
    expect(data.statsError, person.email).toBe(false)
    dashboards.set(person.email, data.stats as Opened)
  }
})

describe('dashboard tiles', () => {
  test('every area has a demo account here, and every list a tile opens has a loader', () => {
    expect(new Set(PEOPLE.map((person) => person.area))).toEqual(
      new Set(Object.keys(DASHBOARD_TILES)),
    )
    const paths = Object.values(DASHBOARD_TILES)
      .flat()
      .flatMap((tile: TileDefinition) =>
        tile.list ? [new URL(tile.list.path, 'http://x').pathname] : [],
      )
    expect(paths.filter((path) => !(path in LISTS))).toEqual([])
  })

  test.each(PEOPLE)('$email: each tile counts the rows of the list it opens', async (person) => {
    const tiles = dashboards.get(person.email)?.tiles ?? {}
    const cookie = cookies.get(person.email) ?? ''
    const definitions: readonly TileDefinition[] = DASHBOARD_TILES[person.area]
    // Every figure the loader gives is a tile of the area: none is drawn without a definition.
    expect(Object.keys(tiles).filter((id) => !definitions.some((tile) => tile.id === id))).toEqual(
      [],
    )
    for (const tile of definitions) {
      const value = tiles[tile.id]
      if (value === undefined || !tile.list) continue
      const url = new URL(tile.list.path, 'http://x')
      const list = LISTS[url.pathname]
      if (!list) throw new Error(`no list loader for ${url.pathname}`)
      const data = await open(list, hostOf(person.slug), `${url.pathname}${url.search}`, cookie)
      expect(figure(value), `${person.email}: ${tile.label} against ${tile.list.path}`).toBe(
        listCount(tile, data),
      )
      // A list's own total, where it shows one, says the same.
      if (typeof data.total === 'number') expect(data.total).toBe(figure(value))
    }
  })

  test('every tile that opens a list is compared at least once on the demo', () => {
    const unchecked = Object.entries(DASHBOARD_TILES).flatMap(([area, tiles]) =>
      (tiles as readonly TileDefinition[])
        .filter((tile) => tile.list)
        .filter(
          (tile) =>
            !PEOPLE.some(
              (person) =>
                person.area === area && dashboards.get(person.email)?.tiles[tile.id] !== undefined,
            ),
        )
        .map((tile) => `${area}: ${tile.id}`),
    )
    expect(unchecked).toEqual([])
  })

  test('the team admin and the super admin team open on their work', () => {
    // Tia looks after Alice and Carl: two end users, Alice's two cards, their views and contacts.
    const tia = dashboards.get('team@acme.test')
    expect(tia?.tiles).toMatchObject({ 'end-users': 2, cards: 2 })
    expect(figure(tia?.tiles.views ?? 0)).toBeGreaterThan(0)
    expect(figure(tia?.tiles.contacts ?? 0)).toBeGreaterThan(0)
    expect(tia?.activity.length).toBeGreaterThan(0)
    // Olive hands out Brandcard's cards to agencies: two cards, their views, her contacts.
    const olive = dashboards.get('ops@brandcard.test')
    expect(olive?.tiles).toMatchObject({ cards: 2 })
    expect(figure(olive?.tiles.views ?? 0)).toBeGreaterThan(0)
    expect(figure(olive?.tiles.contacts ?? 0)).toBeGreaterThan(0)
    expect(olive?.activity.length).toBeGreaterThan(0)
  })
})
