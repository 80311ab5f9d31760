// Postgres only (a *.postgres.test.ts file): a transaction whose connection dies (a restart, a
// failover, pg_terminate_backend) while its callback still runs. The transaction fails at once,
// but JavaScript cannot stop the callback: it goes on and sends its next statement, or its
// commit. postgres.js meanwhile gives the same connection object a new backend and the next
// transaction waiting for one, so those statements ran inside that other transaction, in its
// tenant, and the commit ended it (porsager/postgres#1216). Each test here failed without
// patches/postgres+3.4.9.patch's fix (ADR 005's last addendum).
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { afterEach, expect, test } from 'vitest'
import {
  type DatabaseHandle,
  getDatabaseHandle,
  openPostgres,
  setDatabaseHandle,
  withTenant,
} from '#drizzle/db.server'
import { startTcpProxy } from '#tests/tcp-proxy'

const fileUrl = () => process.env.TEST_FILE_DATABASE_URL as string
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** A client of its own, for the test's own steps, with the right to end other backends. */
function adminClient() {
  const admin = postgres(fileUrl(), { max: 1, onnotice: () => {} })
  closers.push(() => admin.end({ timeout: 1 }))
  return admin
}

/** A pool with one connection: the next transaction gets the connection the first one had. */
function onePoolConnection() {
  const client = postgres(fileUrl(), { max: 1, onnotice: () => {} })
  closers.push(() => client.end({ timeout: 1 }))
  return client
}

/** A promise and the function that settles it. */
function signal<T = void>(): [Promise<T>, (value: T) => void] {
  let settle: (value: T) => void = () => {}
  const settled = new Promise<T>((resolve) => {
    settle = resolve
  })
  return [settled, settle]
}

/** A hang watchdog, not a speed check: what never settles is named, instead of a test timeout. */
function settledOrHung<T>(work: Promise<T>, ms = 20_000) {
  return Promise.race([
    work,
    new Promise<'never settled'>((resolve) => setTimeout(() => resolve('never settled'), ms)),
  ])
}

/** The driver's error code, also under drizzle's wrapping of a failed query. */
const codeOf = (error: unknown) => {
  const failed = error as { code?: string; cause?: { code?: string } }
  return failed.code ?? failed.cause?.code
}

test("a dead transaction's later statement and commit are refused, and never reach the transaction that gets its connection next", async () => {
  const admin = adminClient()
  const client = onePoolConnection()
  const [secondOpen, openSecond] = signal()
  const [strayTried, tryStray] = signal<unknown>()

  const first = client
    .begin(async (tx) => {
      const [row] =
        await tx`select pg_backend_pid() as pid, set_config('test.owner', 'first', true)`
      await admin`select pg_terminate_backend(${row?.pid as number})`
      // The callback carries on after the failure, as the app's own work between two
      // statements does (a password hash, a call to another service).
      await secondOpen
      tryStray(
        await tx`select current_setting('test.owner', true) as owner`.then(
          (rows) => rows[0]?.owner,
          codeOf,
        ),
      )
      // Returning asks for the transaction's COMMIT.
    })
    .then(() => 'committed', codeOf)

  const second = client.begin(async (tx) => {
    await tx`select set_config('test.owner', 'second', true)`
    openSecond()
    await strayTried
    const [row] = await tx`select current_setting('test.owner', true) as owner`
    return row?.owner
  })

  expect(await settledOrHung(first)).toBe('CONNECTION_CLOSED')
  // Not 'second': it did not run in the other transaction.
  expect(await settledOrHung(strayTried)).toBe('CONNECTION_CLOSED')
  // Its setting is still there: the first one's COMMIT did not end it.
  expect(await settledOrHung(second)).toBe('second')
})

test("statements waiting in a transaction's own queue settle when its connection dies (porsager/postgres#1186)", async () => {
  const admin = adminClient()
  const client = onePoolConnection()
  const [statements, settleStatements] = signal<string[]>()
  const outcome = client
    .begin(async (tx) => {
      const [row] = await tx`select pg_backend_pid() as pid`
      // A statement with parameters, new to the connection, is described before it runs: the
      // connection counts as full meanwhile, and the next statement waits in the transaction.
      const running = tx`select pg_sleep(${30})`
      const waiting = tx`select 2 as two`
      await admin`select pg_terminate_backend(${row?.pid as number})`
      const settled = await Promise.allSettled([running, waiting])
      settleStatements(settled.map((result) => (result.status === 'rejected' ? 'failed' : 'ran')))
    })
    .then(() => 'committed', codeOf)
  expect(await settledOrHung(outcome)).toBe('CONNECTION_CLOSED')
  expect(await settledOrHung(statements)).toEqual(['failed', 'failed'])
})

test("the query that waited for the pool's connection runs on the new backend, not failed by the old one's goodbye", async () => {
  const admin = adminClient()
  const client = onePoolConnection()
  const [row] = await client`select pg_backend_pid() as pid`
  // In flight (described first, so the connection is full) when its backend is ended …
  const running = client`select pg_sleep(${30})`.then(() => 'ran', codeOf)
  // … while this one waits for the pool's only connection.
  const waiting = client`select 1 as one`.then((rows) => rows[0]?.one, codeOf)
  await admin`select pg_terminate_backend(${row?.pid as number})`
  expect(await settledOrHung(running)).toBe('CONNECTION_CLOSED')
  // It was never sent to the ended backend: it had run into that backend's 57P01.
  expect(await settledOrHung(waiting)).toBe(1)
})

test('a connection reset with a statement in flight: the ROLLBACK sent before the close does not block the next backend', async () => {
  const proxy = await startTcpProxy(new URL(fileUrl()))
  closers.push(() => proxy.close())
  const client = postgres(proxy.url, { max: 1, onnotice: () => {} })
  closers.push(() => client.end({ timeout: 1 }))
  const first = client
    .begin(async (tx) => {
      await tx`select 1`
      const running = tx`select pg_sleep(30)`
      // Written and running on the server before the reset.
      await new Promise((resolve) => setTimeout(resolve, 200))
      proxy.reset()
      // Its failure makes the transaction send ROLLBACK, between the socket's error and its close.
      await running
    })
    .then(() => 'committed', codeOf)
  // Waits for the pool's only connection, which gets a new backend after the reset.
  const next = client.begin(async (tx) => (await tx`select 2 as two`)[0]?.two)
  // The transaction fails with the socket's error or, first, with the close that follows it.
  expect(await settledOrHung(first)).toMatch(/^(ECONNRESET|CONNECTION_CLOSED)$/)
  expect(await settledOrHung(next)).toBe(2)
})

test("withTenant: a unit whose connection dies answers 503, and its late statement never runs in the next unit's tenant", async () => {
  const direct = getDatabaseHandle()
  const single: DatabaseHandle = openPostgres(fileUrl(), { max: 1 })
  setDatabaseHandle(single)
  closers.push(async () => {
    setDatabaseHandle(direct)
    await single.close()
  })
  const admin = adminClient()
  const [first, second] = [randomUUID(), randomUUID()]
  const tenantOf = async (tx: Parameters<Parameters<typeof withTenant>[1]>[0]) => {
    const rows = (await tx.execute(
      sql`select current_setting('app.organization_id', true) as organization, pg_backend_pid() as pid`,
    )) as unknown as { organization: string; pid: number }[]
    return rows[0] as { organization: string; pid: number }
  }
  const [secondOpen, openSecond] = signal()
  const [strayTried, tryStray] = signal<unknown>()

  const firstUnit = withTenant(first, async (tx) => {
    const { pid } = await tenantOf(tx)
    await admin`select pg_terminate_backend(${pid})`
    await secondOpen
    tryStray(await tenantOf(tx).then((row) => row.organization, codeOf))
  }).then(
    () => 'committed',
    (error: unknown) => (error instanceof Response ? `answered ${error.status}` : codeOf(error)),
  )
  const secondUnit = withTenant(second, async (tx) => {
    const before = (await tenantOf(tx)).organization
    openSecond()
    await strayTried
    return [before, (await tenantOf(tx)).organization]
  })

  expect(await settledOrHung(firstUnit)).toBe('answered 503')
  expect(await settledOrHung(strayTried)).toBe('CONNECTION_CLOSED')
  expect(await settledOrHung(secondUnit)).toEqual([second, second])
})
