// The signed-in page cache (ADR 109) on both drivers: every table a page that offers its answer
// reads is one whose writes retire the stored page (a data-version trigger, the change feed, or
// rows that never change), found by running the pages' loaders and reading their statements; and
// the writes that show on a person's pages bump that person's version, and only theirs.
import { readdirSync, readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sessionIdFromToken, validateSessionToken } from '#app/auth/session.server'
import { recalledSession } from '#app/cache/session-cache.server'
import {
  retireSignedInPages,
  type SignedInKeyParts,
  signedInPageKey,
} from '#app/cache/signed-in-page-cache.server'
import { recordAudit } from '#app/models/audit.server'
import { setCardArchivedState } from '#app/models/cards.server'
import { addContact } from '#app/models/contacts.server'
import { deleteSession } from '#app/models/sessions.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { loader as rootLoader } from '#app/root'
import { startChangeFeed, stopChangeFeed } from '#app/tenancy/change-feed.server'
import { getDb, observeStatementsForTests, withTenant } from '#drizzle/db.server'
import { cardViews } from '#drizzle/schema'
import {
  contextFor,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
} from '#tests/factories'
import { loadRoute } from '#tests/route-modules'

/** Each route module that offers its answer, the page it serves and whose page it is. */
const OFFERING: Record<string, { path: string; role: 'end_user' }> = {
  'dashboard.end-user._index.tsx': { path: '/dashboard/end-user', role: 'end_user' },
  'dashboard.end-user.digital-cards._index.tsx': {
    path: '/dashboard/end-user/digital-cards',
    role: 'end_user',
  },
  'contacts._index.tsx': { path: '/contacts', role: 'end_user' },
  'profile._index.tsx': { path: '/profile/end-user', role: 'end_user' },
}

/** Tables whose rows, as the pages read them, never change once written: nothing to announce. */
const UNCHANGING: Record<string, string> = {
  media:
    'content-addressed files: a row read by its hash is never rewritten, and a referenced one is never swept',
  consent_texts: 'the wording a lead agreed to, kept as it was: a new wording is a new row',
  user_data_versions: 'the version itself, read with the session: the key holds it',
}

const tokenOf = (cookie: string) => cookie.split('=')[1] as string

async function publicTables() {
  const rows = await getDb().execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public'`,
  )
  return new Set(rowsOf<{ table_name: string }>(rows).map((row) => row.table_name))
}

async function tablesWithTrigger(functionName: string) {
  const rows = await getDb().execute<{ table_name: string }>(sql`
    select distinct c.relname as table_name
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where p.proname = ${functionName} and not t.tgisinternal`)
  return new Set(rowsOf<{ table_name: string }>(rows).map((row) => row.table_name))
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

describe('what the cached pages read', () => {
  test('the route modules that offer their answer are the ones listed here', () => {
    const offering = readdirSync('app/routes')
      .filter((file) => readFileSync(`app/routes/${file}`, 'utf8').includes('offerSignedInCache('))
      .sort()
    expect(offering).toEqual(Object.keys(OFFERING).sort())
  })

  test('every table their loaders read retires the stored page when it changes', async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const person = await makeUser(organization.id, { role: 'end_user' })
    const teammate = await makeUser(organization.id, { role: 'end_user' })
    const card = await makeCard(organization.id, person.id)
    await withTenant(organization.id, async (tx) => {
      const team = await createTeamWithAdmin(tx, organization.id, teammate.id, {
        name: 'Readers',
        description: '',
      })
      await addTeamMember(tx, organization.id, team.id, person.id, 'member')
      await addContact(tx, organization.id, person.id, {
        fullName: 'Lea Lead',
        email: 'lea@example.test',
      })
      await tx.insert(cardViews).values({
        organizationId: organization.id,
        cardId: card.id,
        visitorHash: 'reader',
        deviceClass: 'mobile',
      })
    })
    const cookie = await sessionCookieFor(organization.id, person.id)
    const tables = await publicTables()
    const announced = new Set([
      ...(await tablesWithTrigger('brandcard_bump_data_versions')),
      ...(await tablesWithTrigger('brandcard_notify_change')),
    ])
    for (const [file, page] of Object.entries(OFFERING)) {
      const statements: string[] = []
      const context = contextFor(host)
      const request = requestFor(host, page.path, { headers: { Cookie: cookie } })
      const route = await loadRoute(file)
      observeStatementsForTests((statement) => statements.push(statement))
      try {
        await rootLoader({ request, context, params: {} })
        const answer = (await route.loader?.({ request, context, params: {} })) as Response
        expect(answer.status, file).toBe(200)
      } finally {
        observeStatementsForTests()
      }
      expect(context.signedInCacheOffer, file).toBe(true)
      const read = new Set<string>()
      for (const statement of statements) {
        for (const match of statement.matchAll(/\b(?:from|join)\s+"?([a-z_]+)"?/gi)) {
          if (tables.has(match[1] as string)) read.add(match[1] as string)
        }
      }
      expect(read.size, file).toBeGreaterThan(3)
      const unannounced = [...read].filter((table) => !announced.has(table) && !UNCHANGING[table])
      expect(unannounced, `${file} reads tables whose changes nothing announces`).toEqual([])
    }
  })
})

describe("a person's data version", () => {
  let organizationId = ''
  let person = { id: '', cookie: '' }
  let other = { id: '', cookie: '' }
  let cardId = ''

  const versionOf = async (who: { cookie: string }) =>
    (await validateSessionToken(organizationId, tokenOf(who.cookie)))?.frame.dataVersion ?? -1

  async function bumps(
    work: () => Promise<unknown>,
    expected: { person: boolean; other: boolean },
  ) {
    const before = { person: await versionOf(person), other: await versionOf(other) }
    await work()
    expect((await versionOf(person)) > before.person).toBe(expected.person)
    expect((await versionOf(other)) > before.other).toBe(expected.other)
  }

  beforeAll(async () => {
    const organization = await makeOrganization()
    organizationId = organization.id
    const a = await makeUser(organizationId)
    const b = await makeUser(organizationId)
    person = { id: a.id, cookie: await sessionCookieFor(organizationId, a.id) }
    other = { id: b.id, cookie: await sessionCookieFor(organizationId, b.id) }
    cardId = (await makeCard(organizationId, a.id)).id
  })

  test("rises with a write to the person's own rows, and no one else's", async () => {
    await bumps(
      () =>
        withTenant(organizationId, (tx) =>
          setCardArchivedState(tx, organizationId, person.id, cardId, true),
        ),
      { person: true, other: false },
    )
    await bumps(
      () =>
        withTenant(organizationId, (tx) =>
          addContact(tx, organizationId, person.id, {
            fullName: 'Vic Version',
            email: 'vic@example.test',
          }),
        ),
      { person: true, other: false },
    )
    await bumps(
      () =>
        withTenant(organizationId, (tx) =>
          recordAudit(tx, organizationId, {
            actorUserId: other.id,
            action: 'profile.update',
            entityType: 'user',
          }),
        ),
      { person: false, other: true },
    )
  })

  test("rises for the card's owner when a visitor views it, one upsert for a batch", async () => {
    await bumps(
      () =>
        withTenant(organizationId, (tx) =>
          tx.insert(cardViews).values(
            ['v1', 'v2', 'v3'].map((visitorHash) => ({
              organizationId,
              cardId,
              visitorHash,
              deviceClass: 'desktop' as const,
            })),
          ),
        ),
      { person: true, other: false },
    )
  })

  test('rises for everyone in a team when someone joins it (the dashboard counts teammates)', async () => {
    const team = await withTenant(organizationId, (tx) =>
      createTeamWithAdmin(tx, organizationId, person.id, { name: 'Versioned', description: '' }),
    )
    await bumps(
      () =>
        withTenant(organizationId, (tx) =>
          addTeamMember(tx, organizationId, team.id, other.id, 'member'),
        ),
      { person: true, other: true },
    )
  })
})

test("a change announced for the person's organization, or for every one, changes the key", () => {
  const parts: SignedInKeyParts = {
    organizationId: 'org-a',
    sessionId: 'session',
    sessionState: 'true/false',
    dataVersion: 3,
    origin: 'acme.localhost',
    target: '/contacts',
    otherCookies: '',
    acceptLanguage: 'en',
    bot: false,
  }
  const first = signedInPageKey(parts)
  expect(signedInPageKey(parts)).toBe(first)
  retireSignedInPages('org-b')
  expect(signedInPageKey(parts)).toBe(first)
  retireSignedInPages('org-a')
  const second = signedInPageKey(parts)
  expect(second).not.toBe(first)
  retireSignedInPages('*')
  expect(signedInPageKey(parts)).not.toBe(second)
  expect(signedInPageKey({ ...parts, dataVersion: 4 })).not.toBe(signedInPageKey(parts))
  expect(signedInPageKey({ ...parts, otherCookies: 'toast=1' })).not.toBe(signedInPageKey(parts))
})

describe('sessions remembered while the change feed listens', () => {
  beforeAll(() => startChangeFeed(() => {}))
  afterAll(() => stopChangeFeed())

  test("are read afresh once their person's version rises, and refused once deleted elsewhere", async () => {
    const organization = await makeOrganization()
    const person = await makeUser(organization.id)
    const card = await makeCard(organization.id, person.id)
    const token = tokenOf(await sessionCookieFor(organization.id, person.id))
    const sessionId = sessionIdFromToken(token)
    const first = await validateSessionToken(organization.id, token)
    expect(recalledSession(sessionId)).toBeDefined()
    // Another tenant's host never gets it, remembered or not.
    expect(await validateSessionToken((await makeOrganization()).id, token)).toBeNull()

    // A write as another process would make it: the database announces the person, and the
    // remembered session (with its version) is forgotten.
    await withTenant(organization.id, (tx) =>
      setCardArchivedState(tx, organization.id, person.id, card.id, true),
    )
    await expect.poll(() => recalledSession(sessionId)).toBeUndefined()
    const after = await validateSessionToken(organization.id, token)
    expect(after?.frame.dataVersion).toBeGreaterThan(first?.frame.dataVersion ?? 0)

    // Signed out elsewhere (the row deleted by another process): refused here too.
    await withTenant(organization.id, (tx) => deleteSession(tx, organization.id, sessionId))
    await expect.poll(() => validateSessionToken(organization.id, token)).toBeNull()
  })
})
