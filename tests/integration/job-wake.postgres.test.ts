// Postgres only (a *.postgres.test.ts file): the job worker's LISTEN (issue 40 point 3) has a
// server connection of its own, which can be dropped while the app runs: a terminated backend,
// a restart, a failover. It comes back by itself, and a job committed afterwards still wakes
// the worker; a job committed while it was away runs once it is back. The lanes poll every 10
// minutes here, so nothing else can have started the jobs within the test.
import { eq, sql } from 'drizzle-orm'
import { afterEach, expect, test, vi } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { type JobHandlers, startJobWorker, stopJobWorker } from '#app/jobs/worker.server'
import { insertJob, type JobName } from '#app/models/jobs.server'
import {
  type DatabaseHandle,
  getDatabaseHandle,
  getDb,
  openPostgres,
  setDatabaseHandle,
} from '#drizzle/db.server'
import { jobs } from '#drizzle/schema'
import { startTcpProxy } from '#tests/tcp-proxy'

// Generous: these bound a hang, not a speed (ADR 059).
const PROMPTLY = { timeout: 30_000, interval: 50 }

const ran: string[] = []
const record = { run: async (job: { id: string }) => void ran.push(job.id) }
const handlers: JobHandlers = {
  'data-export.build': record,
  'media.sweep': record,
  'backup.daily': record,
}

const closers: (() => Promise<void>)[] = []

afterEach(async () => {
  await stopJobWorker()
  for (const close of closers.splice(0).reverse()) await close()
  delete process.env.JOB_POLL_MS
  resetEnvForTests()
  ran.length = 0
})

async function startWorker() {
  process.env.JOB_POLL_MS = String(10 * 60_000)
  resetEnvForTests()
  startJobWorker(handlers, () => {})
  // Its start-up look at the queue (the hourly sweep it queues) is over.
  await vi.waitFor(async () => {
    const [sweep] = await getDb().select().from(jobs).where(eq(jobs.name, 'media.sweep'))
    expect(sweep?.state).toBe('done')
  }, PROMPTLY)
  await new Promise((resolve) => setTimeout(resolve, 300))
}

/** Queued by the test's own connection, which never goes through the outage. */
async function queue(handle: DatabaseHandle, name: JobName, key: string) {
  await handle.db.transaction((tx) => insertJob(tx, { name, idempotencyKey: key }))
  const [job] = await handle.db.select().from(jobs).where(eq(jobs.idempotencyKey, key))
  if (!job) throw new Error(`job ${key} not stored`)
  return job.id
}

const databaseName = async () => {
  const rows = (await getDb().execute(sql`select current_database() as name`)) as unknown as {
    name: string
  }[]
  return rows[0]?.name as string
}

/** The backends of this test file's database that last ran a LISTEN: the listener's. */
async function listenerPids(server: DatabaseHandle, database: string) {
  const rows = (await server.db.execute(sql`
    select pid from pg_stat_activity
    where datname = ${database} and query ilike 'listen %' and pid <> pg_backend_pid()`)) as unknown as {
    pid: number
  }[]
  return rows.map((row) => row.pid)
}

test('a terminated listener comes back, and a job committed afterwards still wakes the worker', async () => {
  const database = await databaseName()
  const server = openPostgres(process.env.TEST_DATABASE_URL as string, { max: 1 })
  closers.push(() => server.close())
  await startWorker()
  const [before] = await vi.waitFor(async () => {
    const pids = await listenerPids(server, database)
    expect(pids).toHaveLength(1)
    return pids
  }, PROMPTLY)

  await server.db.execute(sql`select pg_terminate_backend(${before})`)
  await vi.waitFor(async () => {
    const pids = await listenerPids(server, database)
    expect(pids).toHaveLength(1)
    expect(pids).not.toContain(before)
  }, PROMPTLY)
  const id = await queue(getDatabaseHandle(), 'data-export.build', 'wake:after-terminate')
  await vi.waitFor(() => expect(ran).toContain(id), PROMPTLY)
})

test('after an outage of several seconds the listener is back: missed and new jobs run', async () => {
  const direct = getDatabaseHandle()
  const url = new URL(process.env.TEST_FILE_DATABASE_URL as string)
  const proxy = await startTcpProxy(url)
  closers.push(() => proxy.close())
  const proxied = openPostgres(proxy.url, { max: 2 })
  // The app (its pool and its listener) reaches the database through the proxy only.
  setDatabaseHandle(proxied)
  closers.push(async () => {
    setDatabaseHandle(direct)
    await proxied.close()
  })
  await startWorker()
  const server = openPostgres(process.env.TEST_DATABASE_URL as string, { max: 1 })
  closers.push(() => server.close())
  const database = await direct.db
    .execute(sql`select current_database() as name`)
    .then((rows) => (rows as unknown as { name: string }[])[0]?.name as string)
  const before = await vi.waitFor(async () => {
    const pids = await listenerPids(server, database)
    expect(pids).not.toEqual([])
    return pids
  }, PROMPTLY)

  await proxy.down()
  // Several failed reconnection attempts (they are at most a second apart).
  await new Promise((resolve) => setTimeout(resolve, 3_000))
  const missed = await queue(direct, 'data-export.build', 'wake:during-outage')
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  expect(ran).not.toContain(missed)
  await proxy.up()

  // Back: what was announced while away is run (the reconnection wakes every lane) …
  await vi.waitFor(() => expect(ran).toContain(missed), PROMPTLY)
  await vi.waitFor(async () => {
    const pids = await listenerPids(server, database)
    expect(pids.filter((pid) => !before.includes(pid))).toHaveLength(1)
  }, PROMPTLY)
  // … and a job committed now wakes the worker through the new connection.
  const fresh = await queue(direct, 'data-export.build', 'wake:after-outage')
  await vi.waitFor(() => expect(ran).toContain(fresh), PROMPTLY)
})
