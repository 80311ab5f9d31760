// A search typed into a list's URL (no JavaScript, or a shared link) is answered the same way by
// every list and export (validation/search.ts readSearch): at the limit it is searched; one
// character over, the list is empty and says why (the box's own message), and an export answers
// 400 with that message as plain text. Every row below matches the over-long query too, so a
// query cut to the limit (the old agencies, My End Users and contacts loaders) or dropped (the
// old people loaders, which showed everyone) would list it and fail here.
import { beforeAll, describe, expect, test } from 'vitest'
import { loader as contactsLoader } from '#app/routes/contacts._index'
import { loader as contactsExport } from '#app/routes/contacts.export[.]csv'
import { loader as agencyTeamLoader } from '#app/routes/dashboard.agency.team'
import { loader as agencyUsersLoader } from '#app/routes/dashboard.agency.users._index'
import { loader as agencyUsersCsv } from '#app/routes/dashboard.agency.users.export[.]csv'
import { loader as agenciesLoader } from '#app/routes/dashboard.super-admin.agencies'
import { loader as adminTeamLoader } from '#app/routes/dashboard.super-admin.team'
import { loader as endUsersLoader } from '#app/routes/dashboard.super-admin.users._index'
import { loader as endUsersCsv } from '#app/routes/dashboard.super-admin.users.export[.]csv'
import { loader as myEndUsersLoader } from '#app/routes/dashboard.team-member.users'
import { loader as myEndUsersCsv } from '#app/routes/dashboard.team-member.users[.]csv'
import { loader as profileLoader } from '#app/routes/profile._index'
import { SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE } from '#app/validation/search'
import { getDb } from '#drizzle/db.server'
import { contacts } from '#drizzle/schema'
import {
  contextFor,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

type Handler = (args: {
  request: Request
  context: ReturnType<typeof contextFor>
  params: Record<string, string>
}) => Promise<unknown>

const PLATFORM = 'localhost'
// A query exactly at the limit, and one character more: both match every row made below.
const atLimit = `m${uniqueSuffix()}`.padEnd(SEARCH_MAX_LENGTH, 'z')
const overLimit = `${atLimit}z`
const name = overLimit

let agencyHost: string
let superAdminCookie: string
let agencyAdminCookie: string
let teamAdminCookie: string
let staffId: string
let agencyStaffId: string
let endUserId: string

beforeAll(async () => {
  const platform = await getPlatformOrganization()
  const superAdmin = await makeUser(platform.id, { role: 'super_admin' })
  superAdminCookie = await sessionCookieFor(platform.id, superAdmin.id)
  staffId = (await makeUser(platform.id, { role: 'super_admin_team', lastName: name })).id

  const agency = await makeOrganization({ name: `Agency ${name}` })
  agencyHost = `${agency.slug}.localhost`
  const agencyAdmin = await makeUser(agency.id, { role: 'agency_admin' })
  agencyAdminCookie = await sessionCookieFor(agency.id, agencyAdmin.id)
  agencyStaffId = (await makeUser(agency.id, { role: 'agency_member', lastName: name })).id
  const teamAdmin = await makeUser(agency.id, { role: 'team_admin' })
  teamAdminCookie = await sessionCookieFor(agency.id, teamAdmin.id)
  endUserId = (
    await makeUser(agency.id, { role: 'end_user', lastName: name, assignedToUserId: teamAdmin.id })
  ).id
  await getDb()
    .insert(contacts)
    .values({ organizationId: agency.id, userId: agencyAdmin.id, fullName: `Ada ${name}` })
})

const get = (loader: Handler, host: string, path: string, cookie: string) =>
  settle(() =>
    loader({
      request: requestFor(host, path, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )

const withQ = (path: string, q: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ q })}`

type Screen = {
  screen: string
  loader: Handler
  path: string
  host: () => string
  cookie: () => string
  /** The loader's answer: the search box's text and error, and the ids (or names) listed. */
  read: (body: never) => { q: string; searchError: string | null; rows: string[] }
  /** What a search at the limit lists. */
  expected: () => string
}

type People = { users: { id: string }[]; filter: { search: string; searchError: string | null } }
type Staff = { members: { id: string }[]; filter: { q: string; searchError: string | null } }
const people = (body: People) => ({
  q: body.filter.search,
  searchError: body.filter.searchError,
  rows: body.users.map((row) => row.id),
})
const staff = (body: Staff) => ({
  q: body.filter.q,
  searchError: body.filter.searchError,
  rows: body.members.map((row) => row.id),
})

const screens: Screen[] = [
  {
    screen: 'super admin End Users',
    loader: endUsersLoader,
    path: '/dashboard/super-admin/users',
    host: () => PLATFORM,
    cookie: () => superAdminCookie,
    read: people,
    expected: () => endUserId,
  },
  {
    screen: 'Admin Team',
    loader: adminTeamLoader,
    path: '/dashboard/super-admin/team',
    host: () => PLATFORM,
    cookie: () => superAdminCookie,
    read: staff,
    expected: () => staffId,
  },
  {
    screen: 'agency End Users',
    loader: agencyUsersLoader,
    path: '/dashboard/agency/users',
    host: () => agencyHost,
    cookie: () => agencyAdminCookie,
    read: people,
    expected: () => endUserId,
  },
  {
    screen: 'agency Team Members',
    loader: agencyTeamLoader,
    path: '/dashboard/agency/team',
    host: () => agencyHost,
    cookie: () => agencyAdminCookie,
    read: staff,
    expected: () => agencyStaffId,
  },
  {
    screen: 'Agencies',
    loader: agenciesLoader,
    path: '/dashboard/super-admin/agencies',
    host: () => PLATFORM,
    cookie: () => superAdminCookie,
    read: (body: { q: string; searchError: string | null; agencies: { name: string }[] }) => ({
      q: body.q,
      searchError: body.searchError,
      rows: body.agencies.map((row) => row.name),
    }),
    expected: () => `Agency ${name}`,
  },
  {
    screen: 'My End Users',
    loader: myEndUsersLoader,
    path: '/dashboard/team-member/users',
    host: () => agencyHost,
    cookie: () => teamAdminCookie,
    read: (body: { q: string; searchError: string | null; users: { id: string }[] }) => ({
      q: body.q,
      searchError: body.searchError,
      rows: body.users.map((row) => row.id),
    }),
    expected: () => endUserId,
  },
  {
    screen: 'Contacts',
    loader: contactsLoader,
    path: '/contacts',
    host: () => agencyHost,
    cookie: () => agencyAdminCookie,
    read: (body: { q: string; searchError: string | null; contacts: { fullName: string }[] }) => ({
      q: body.q,
      searchError: body.searchError,
      rows: body.contacts.map((row) => row.fullName),
    }),
    expected: () => `Ada ${name}`,
  },
  {
    screen: 'User Accounts',
    loader: profileLoader,
    // The agency admin's one profile screen, which /profile leads to (ADR 078).
    path: '/profile/agency?tab=accounts',
    host: () => agencyHost,
    cookie: () => agencyAdminCookie,
    read: (body: {
      accounts: { q: string; searchError: string | null; accounts: { id: string }[] }
    }) => ({
      q: body.accounts.q,
      searchError: body.accounts.searchError,
      rows: body.accounts.accounts.map((row) => row.id),
    }),
    expected: () => agencyStaffId,
  },
]

describe.each(screens)('$screen', ({ loader, path, host, cookie, read, expected }) => {
  const load = async (q: string) => {
    const response = await get(loader, host(), withQ(path, q), cookie())
    expect(response.status).toBe(200)
    return read((await response.json()) as never)
  }

  test('a search at the limit is searched', async () => {
    const got = await load(atLimit)
    expect(got.searchError).toBeNull()
    expect(got.q).toBe(atLimit)
    expect(got.rows).toContain(expected())
  })

  test('one character over: no rows, the message, and the box keeps what was typed', async () => {
    const got = await load(overLimit)
    expect(got.searchError).toBe(SEARCH_TOO_LONG_MESSAGE)
    expect(got.rows).toEqual([])
    expect(got.q).toBe(overLimit)
  })

  test('a pasted page of text: refused the same way, the box shows its start only', async () => {
    const got = await load(overLimit.repeat(20))
    expect(got.searchError).toBe(SEARCH_TOO_LONG_MESSAGE)
    expect(got.rows).toEqual([])
    expect(got.q).toBe(overLimit.repeat(20).slice(0, 2 * SEARCH_MAX_LENGTH))
  })
})

const exports = [
  {
    screen: 'super admin End Users CSV',
    loader: endUsersCsv,
    path: '/dashboard/super-admin/users/export.csv',
    host: () => PLATFORM,
    cookie: () => superAdminCookie,
  },
  {
    screen: 'agency End Users CSV',
    loader: agencyUsersCsv,
    path: '/dashboard/agency/users/export.csv',
    host: () => agencyHost,
    cookie: () => agencyAdminCookie,
  },
  {
    screen: 'My End Users CSV',
    loader: myEndUsersCsv,
    path: '/dashboard/team-member/users.csv',
    host: () => agencyHost,
    cookie: () => teamAdminCookie,
  },
  {
    screen: 'contacts CSV',
    loader: contactsExport,
    path: '/contacts/export.csv',
    host: () => agencyHost,
    cookie: () => agencyAdminCookie,
  },
  {
    screen: 'contacts vCards',
    loader: contactsExport,
    path: '/contacts/export.vcf',
    host: () => agencyHost,
    cookie: () => agencyAdminCookie,
  },
]

describe.each(exports)('$screen', ({ loader, path, host, cookie }) => {
  test('a search at the limit exports the rows it finds', async () => {
    const response = await get(loader, host(), withQ(path, atLimit), cookie())
    expect(response.status).toBe(200)
    // vCard lines are folded at 75 octets: unfolded, the row's name is whole again.
    expect((await response.text()).replaceAll('\r\n ', '')).toContain(name)
  })

  test('one character over: 400 with the message as plain text, no file', async () => {
    const response = await get(loader, host(), withQ(path, overLimit), cookie())
    expect(response.status).toBe(400)
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(response.headers.get('Content-Disposition')).toBeNull()
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(await response.text()).toBe(SEARCH_TOO_LONG_MESSAGE)
  })
})
