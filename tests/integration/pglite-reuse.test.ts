// The test setup's reuse of one PGlite per process (tests/setup/pglite-reuse.ts, ADR 123): a
// client goes to the next file only as clean as a new database from the run's snapshot. Rows
// are emptied and the session discarded; anything else a file changed keeps the client out.
import type { PGlite } from '@electric-sql/pglite'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { type DatabaseHandle, getDatabaseHandle, setDatabaseHandle } from '#drizzle/db.server'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'
import {
  adoptNewPglite,
  fingerprintAsNew,
  releasePglite,
  takeReusedPglite,
} from '#tests/setup/pglite-reuse'
import { openPgliteSnapshot } from '#tests/setup/pglite-snapshot'

const onPostgres = process.env.TEST_DB_DRIVER === 'postgres'

const clientOf = (handle: DatabaseHandle) => (handle as unknown as { client: PGlite }).client

/** A database from the snapshot, noted for reuse, and what the app queries for `work`. */
async function withNewDatabase(work: (handle: DatabaseHandle) => Promise<void>) {
  const fileHandle = getDatabaseHandle()
  const handle = openPgliteSnapshot()
  await adoptNewPglite(handle)
  setDatabaseHandle(handle)
  try {
    await work(handle)
  } finally {
    setDatabaseHandle(fileHandle)
  }
  await releasePglite(handle)
  return handle
}

/** Every table of the app's with its row count, where a new database has none. */
async function rowsIn(client: PGlite) {
  const { rows: tables } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
  )
  expect(tables.length).toBeGreaterThan(50)
  let total = 0
  for (const { name } of tables) {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${name}`)
    total += rows[0]?.n ?? 0
  }
  return total
}

afterEach(async () => {
  // Whatever a test left idle is not the next file's business: the file's own client goes back.
  const left = takeReusedPglite()
  if (left) await clientOf(left).close()
})

describe.runIf(!onPostgres)('a PGlite client reused by the next test file', () => {
  test('comes back with no row, no session state, and the app querying it as new', async () => {
    const used = await withNewDatabase(async (handle) => {
      const organization = await makeOrganization()
      const user = await makeUser(organization.id)
      await makeCard(organization.id, user.id)
      const client = clientOf(handle)
      await client.exec(`set statement_timeout = '7s'; create temporary table scratch (id int);
        prepare mine as select 1; select pg_advisory_lock(42)`)
      expect(await rowsIn(client)).toBeGreaterThan(2)
    })
    const reused = takeReusedPglite()
    expect(reused, 'a clean client is kept for the next file').toBeDefined()
    const client = clientOf(reused as DatabaseHandle)
    expect(client).toBe(clientOf(used))
    expect(await rowsIn(client)).toBe(0)
    const session = await client.query<Record<string, unknown>>(`select
      current_setting('statement_timeout') as timeout,
      to_regclass('pg_temp.scratch') as scratch,
      (select count(*)::int from pg_prepared_statements) as prepared,
      (select count(*)::int from pg_locks where locktype = 'advisory') as locks`)
    expect(session.rows[0]).toEqual({ timeout: '0', scratch: null, prepared: 0, locks: 0 })
    // A new drizzle view: its statements are prepared again under names the session now lacks.
    setDatabaseHandle(reused)
    try {
      const organization = await makeOrganization()
      expect(organization.id).toBeTruthy()
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from organizations',
      )
      expect(rows[0]?.n).toBe(1)
    } finally {
      setDatabaseHandle(undefined)
    }
    await releasePglite(reused as DatabaseHandle)
  })

  test.each([
    ['a table added', (client: PGlite) => client.exec('create table extra (id int)')],
    ['a channel listened to', (client: PGlite) => client.listen('somewhere', () => {})],
    ['a transaction left open', (client: PGlite) => client.exec('begin')],
    [
      'a method of the client replaced',
      async (client: PGlite) => {
        vi.spyOn(client, 'query')
      },
    ],
    ['the client closed', (client: PGlite) => client.close()],
  ])('is not reused after %s', async (_change, change) => {
    const used = await withNewDatabase(async (handle) => {
      await change(clientOf(handle))
    })
    expect(takeReusedPglite()).toBeUndefined()
    const client = clientOf(used)
    expect(client.closed, 'a client kept out is closed').toBe(true)
    vi.restoreAllMocks()
  })

  // What the fingerprint catches, each change made in a transaction on one database and rolled
  // back: a new database for each, released and closed as 'a table added' is above, cost about
  // a second of CPU apiece.
  describe('the fingerprint, last of the checks, tells a new database from one with', () => {
    let handle: DatabaseHandle
    beforeAll(async () => {
      handle = openPgliteSnapshot()
      await adoptNewPglite(handle)
    })
    afterAll(async () => {
      await handle.close()
    })

    test.each([
      ['a table added', (client: PGlite) => client.exec('create table extra (id int)')],
      [
        'a column added',
        (client: PGlite) => client.exec('alter table users add column extra text'),
      ],
      [
        'a policy dropped',
        async (client: PGlite) => {
          const { rows } = await client.query<{ policyname: string; tablename: string }>(
            `select policyname, tablename from pg_policies where schemaname = 'public' limit 1`,
          )
          const [policy] = rows
          expect(policy).toBeDefined()
          await client.exec(`drop policy "${policy?.policyname}" on "${policy?.tablename}"`)
        },
      ],
      ['a grant widened', (client: PGlite) => client.exec('grant all on users to public')],
      ['a role added', (client: PGlite) => client.exec('create role someone_else')],
      [
        'a trigger disabled',
        (client: PGlite) => client.exec('alter table users disable trigger all'),
      ],
      [
        'a function added',
        (client: PGlite) =>
          client.exec('create function public.extra() returns int as $$ select 1 $$ language sql'),
      ],
      [
        'a role setting',
        (client: PGlite) => client.exec(`alter role brandcard_app set statement_timeout = '1s'`),
      ],
    ])('%s', async (_change, change) => {
      const client = clientOf(handle)
      expect(await fingerprintAsNew(client), 'as new before the change').toBe(true)
      await client.exec('begin')
      try {
        await change(client)
        expect(await fingerprintAsNew(client)).toBe(false)
      } finally {
        await client.exec('rollback')
      }
      expect(await fingerprintAsNew(client), 'as new once rolled back').toBe(true)
    })
  })
})
