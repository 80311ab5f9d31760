// The User Accounts tab of the profile (roles doc §2.5): a super admin on the platform host reads
// every tenant (audited), the same role elsewhere and agency admins read their own organization,
// everyone else gets the restriction and no rows; search and pages on the profile URL.
import { and, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { storeMedia } from '#app/models/media.server'
import type { UserRole } from '#app/models/users.server'
import * as users from '#app/models/users.server'
import { updateProfile } from '#app/models/users.server'
import { loader } from '#app/routes/profile._index'
import {
  ACCESS_RESTRICTED_MESSAGE,
  ALL_ACCOUNTS_TEXT,
  initialsOf,
  LOAD_FAILED_MESSAGE,
  ORGANIZATION_ACCOUNTS_TEXT,
  type UserAccountsData,
} from '#app/user-accounts/user-accounts'
import { SEARCH_TOO_LONG_MESSAGE } from '#app/validation/search'
import { withTenant } from '#drizzle/db.server'
import { auditEvents } from '#drizzle/schema'
import {
  contextFor,
  getPlatformOrganization,
  makeOrganization,
  makePng,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

type Org = Awaited<ReturnType<typeof makeOrganization>>
let platform: Org
let acme: Org
let globex: Org
const acmeHost = () => `${acme.slug}.localhost`

async function signedIn(organization: Org, role: UserRole, overrides = {}) {
  const user = await makeUser(organization.id, { role, ...overrides })
  return { user, cookie: await sessionCookieFor(organization.id, user.id) }
}

type ProfileData = { accounts: UserAccountsData | null }

async function open(host: string, cookie: string, search = '?tab=accounts') {
  const ask = (path: string) =>
    settle(() =>
      loader({
        request: requestFor(host, path, { headers: { Cookie: cookie } }),
        context: contextFor(host),
        params: {},
      }),
    )
  let response = await ask(`/profile${search}`)
  // /profile leads to the person's one profile screen with the same query (ADR 078): the tab
  // is there, on the screen of the role.
  const location = response.headers.get('Location') ?? ''
  if (response.status === 302 && location.startsWith('/profile/')) {
    const led = new URL(location, `http://${host}`)
    expect(led.pathname).toMatch(/^\/profile\/[a-z-]+$/)
    expect(led.search).toBe(new URL(`http://${host}/profile${search}`).search)
    response = await ask(location)
  }
  const body = await response.text()
  return { status: response.status, body, data: JSON.parse(body) as ProfileData }
}

function listed(data: ProfileData) {
  if (data.accounts?.status !== 'ok') throw new Error(`no list: ${JSON.stringify(data.accounts)}`)
  return data.accounts
}

beforeAll(async () => {
  platform = await getPlatformOrganization()
  acme = await makeOrganization({ name: 'Acme Accounts' })
  globex = await makeOrganization({ name: 'Globex Accounts' })
  await makeUser(platform.id, {
    email: 'plato@platform.test',
    firstName: 'Plato',
    lastName: 'Form',
  })
  await makeUser(acme.id, { email: 'ann@acme.test', firstName: 'Ann', lastName: 'Acme' })
  await makeUser(acme.id, { email: 'nameless@acme.test', firstName: '', lastName: '' })
  await makeUser(globex.id, { email: 'gus@globex.test', firstName: 'Gus', lastName: 'Globex' })
})

describe('who sees which accounts', () => {
  test('a super admin on the platform host sees accounts of every organization, audited', async () => {
    const { user, cookie } = await signedIn(platform, 'super_admin')
    const { status, data } = await open('localhost', cookie, '?tab=accounts&q=.test')
    expect(status).toBe(200)
    const list = listed(data)
    expect(list.scope).toBe('platform')
    expect(list.heading).toBe(ALL_ACCOUNTS_TEXT)
    const emails = list.accounts.map((account) => account.email)
    expect(emails).toEqual(
      expect.arrayContaining(['plato@platform.test', 'ann@acme.test', 'gus@globex.test']),
    )
    const gus = list.accounts.find((account) => account.email === 'gus@globex.test')
    expect(gus).toMatchObject({
      name: 'Gus Globex',
      role: 'end_user',
      organizationName: 'Globex Accounts',
      initials: 'GG',
    })
    const audits = await withTenant(platform.id, (tx) =>
      tx
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.actorUserId, user.id), eq(auditEvents.action, 'platform.read'))),
    )
    expect(audits).toMatchObject([{ metadata: { purpose: 'user accounts tab' } }])
  })

  test('a super admin account of an agency, on its host, sees only that organization', async () => {
    const { cookie } = await signedIn(acme, 'super_admin')
    const { body, data } = await open(acmeHost(), cookie)
    const list = listed(data)
    expect(list.scope).toBe('organization')
    expect(list.heading).toBe(ORGANIZATION_ACCOUNTS_TEXT)
    expect(list.accounts.map((a) => a.email)).toContain('ann@acme.test')
    expect(body).not.toContain('gus@globex.test')
    expect(body).not.toContain('plato@platform.test')
  })

  test('an agency admin sees only their organization, with its name on each row', async () => {
    const { cookie } = await signedIn(acme, 'agency_admin')
    const { body, data } = await open(acmeHost(), cookie)
    const list = listed(data)
    expect(list.heading).toBe(ORGANIZATION_ACCOUNTS_TEXT)
    expect(new Set(list.accounts.map((a) => a.organizationName))).toEqual(
      new Set(['Acme Accounts']),
    )
    const nameless = list.accounts.find((a) => a.email === 'nameless@acme.test')
    // No name: the panel shows 'Unnamed User' and the email's first letter.
    expect(nameless).toMatchObject({ name: null, initials: 'N' })
    expect(body).not.toContain('gus@globex.test')
    expect(body).not.toContain('Globex Accounts')
  })

  test.each(['end_user', 'agency_member', 'team_admin', 'super_admin_team'] as const)(
    '%s asking for the tab gets the restriction and no rows',
    async (role) => {
      const { cookie } = await signedIn(acme, role)
      const { status, body, data } = await open(acmeHost(), cookie, '?tab=accounts&q=acme')
      expect(status).toBe(200)
      expect(data.accounts).toEqual({ status: 'restricted', message: ACCESS_RESTRICTED_MESSAGE })
      expect(body).not.toContain('ann@acme.test')
    },
  )

  test('a platform end user on the platform host gets the restriction too', async () => {
    const { cookie } = await signedIn(platform, 'end_user')
    const { body, data } = await open('localhost', cookie)
    expect(data.accounts?.status).toBe('restricted')
    expect(body).not.toContain('gus@globex.test')
  })

  test('other tabs do not read the list (nor audit a platform read)', async () => {
    const { user, cookie } = await signedIn(platform, 'super_admin')
    const { data } = await open('localhost', cookie, '?tab=personal')
    expect(data.accounts).toBeNull()
    const audits = await withTenant(platform.id, (tx) =>
      tx.select().from(auditEvents).where(eq(auditEvents.actorUserId, user.id)),
    )
    expect(audits).toEqual([])
  })
})

describe('search and pages', () => {
  let org: Org
  let cookie: string
  const host = () => `${org.slug}.localhost`

  beforeAll(async () => {
    org = await makeOrganization({ name: 'Paged Org' })
    ;({ cookie } = await signedIn(org, 'agency_admin', {
      email: 'boss@paged.test',
      firstName: 'Bo',
      lastName: 'Boss',
    }))
    for (let i = 1; i <= 44; i++) {
      const n = String(i).padStart(2, '0')
      await makeUser(org.id, {
        email: `member-${n}@paged.test`,
        firstName: `Member${n}`,
        lastName: 'Paged',
        passwordHash: 'not-a-usable-hash',
      })
    }
    await makeUser(org.id, { email: 'ada@paged.test', firstName: 'Ada', lastName: 'Lovelace' })
    await makeUser(org.id, { email: 'lit@paged.test', firstName: 'Under_score', lastName: 'X' })
    await makeUser(org.id, { email: 'not@paged.test', firstName: 'Underxscore', lastName: 'X' })
  })

  test('20 a page, in a stable order, no account twice; a page past the end shows the last', async () => {
    const pages = await Promise.all(
      [1, 2, 3].map(async (page) =>
        listed((await open(host(), cookie, `?tab=accounts&page=${page}`)).data),
      ),
    )
    expect(pages.map((p) => p.accounts.length)).toEqual([20, 20, 8])
    expect(pages.map((p) => p.total)).toEqual([48, 48, 48])
    expect(pages.map((p) => p.pageCount)).toEqual([3, 3, 3])
    const ids = pages.flatMap((p) => p.accounts.map((a) => a.id))
    expect(new Set(ids).size).toBe(48)
    const beyond = listed((await open(host(), cookie, '?tab=accounts&page=99')).data)
    expect(beyond.page).toBe(3)
    expect(beyond.accounts.map((a) => a.id)).toEqual(pages[2]?.accounts.map((a) => a.id))
    for (const bad of ['abc', '-2', '0', '1.5']) {
      const got = await open(host(), cookie, `?tab=accounts&page=${bad}`)
      expect(got.status).toBe(200)
      expect(listed(got.data).page).toBe(1)
    }
  })

  test('search finds by email, first, last and full name, case-insensitively, and pages the result', async () => {
    const search = async (q: string, page = 1) =>
      listed(
        (await open(host(), cookie, `?tab=accounts&q=${encodeURIComponent(q)}&page=${page}`)).data,
      )
    expect((await search('ADA@paged')).accounts.map((a) => a.email)).toEqual(['ada@paged.test'])
    expect((await search('lovelace')).accounts.map((a) => a.email)).toEqual(['ada@paged.test'])
    expect((await search('Ada Lovelace')).accounts.map((a) => a.email)).toEqual(['ada@paged.test'])
    const members = await search('member')
    expect(members.total).toBe(44)
    expect(members.q).toBe('member')
    const second = await search('member', 3)
    expect(second.accounts.map((a) => a.email)).toEqual(
      ['41', '42', '43', '44'].map((n) => `member-${n}@paged.test`),
    )
    expect((await search('nobody-here')).accounts).toEqual([])
  })

  test('% and _ in a search are plain characters, not wildcards', async () => {
    const search = async (q: string) =>
      listed((await open(host(), cookie, `?tab=accounts&q=${encodeURIComponent(q)}`)).data)
    expect((await search('Under_')).accounts.map((a) => a.email)).toEqual(['lit@paged.test'])
    expect((await search('%')).total).toBe(0)
    expect((await search('\\')).total).toBe(0)
  })

  test('an over-long search is answered next to the field, not with a 500', async () => {
    const got = await open(host(), cookie, `?tab=accounts&q=${'x'.repeat(101)}`)
    expect(got.status).toBe(200)
    const list = listed(got.data)
    expect(list.searchError).toBe(SEARCH_TOO_LONG_MESSAGE)
    expect(list.accounts).toEqual([])
  })
})

test('any q and page from the URL: never a 5xx, only the own organization', async () => {
  const { cookie } = await signedIn(acme, 'agency_admin')
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: 'grapheme', maxLength: 150 }),
      fc.string(),
      async (q, page) => {
        const params = new URLSearchParams({ tab: 'accounts', q, page })
        const got = await open(acmeHost(), cookie, `?${params}`)
        expect(got.status).toBe(200)
        expect(got.data.accounts?.status).toBe('ok')
        expect(got.body).not.toContain('gus@globex.test')
      },
    ),
    { numRuns: 40 },
  )
})

describe('rows', () => {
  test("a profile picture of the viewer's own organization is shown; initials otherwise", async () => {
    const org = await makeOrganization()
    const { cookie } = await signedIn(org, 'agency_admin')
    const pictured = await makeUser(org.id, { email: 'pic@pictured.test' })
    const picture = await withTenant(org.id, async (tx) => {
      const stored = await storeMedia(tx, org.id, {
        bytes: await makePng('#336699'),
        contentType: 'image/png',
        width: 40,
        height: 20,
        purpose: 'profile-picture',
      })
      await updateProfile(tx, org.id, pictured.id, { profilePictureMediaId: stored.id })
      return stored
    })
    const list = listed((await open(`${org.slug}.localhost`, cookie, '?tab=accounts&q=pic@')).data)
    expect(list.accounts).toMatchObject([
      { email: 'pic@pictured.test', pictureUrl: `/media/${picture.hash}.png` },
    ])
  })

  test('initials: first and last name, else the email, else U', () => {
    expect(initialsOf('ada', 'lovelace', 'a@x.test')).toBe('AL')
    expect(initialsOf('Ada', '', 'a@x.test')).toBe('A')
    expect(initialsOf('', '', 'zed@x.test')).toBe('Z')
    expect(initialsOf(' ', '', '')).toBe('U')
  })
})

describe('failure', () => {
  test('a failed read shows the error state; the rest of the profile still loads', async () => {
    const { cookie } = await signedIn(globex, 'agency_admin')
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    // The organization's count fails; the loader calls it through its module (vitest's
    // transform), so it reaches the spy.
    const count = vi.spyOn(users, 'countUserAccountsForOrganization').mockImplementation(() => {
      throw new Error('simulated database failure')
    })
    try {
      const got = await open(`${globex.slug}.localhost`, cookie)
      expect(got.status).toBe(200)
      expect(got.data.accounts).toEqual({ status: 'error', message: LOAD_FAILED_MESSAGE })
      expect(errors).toHaveBeenCalled()
    } finally {
      count.mockRestore()
    }
  })
})
