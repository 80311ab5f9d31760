// Postgres only (a *.postgres.test.ts file): PGlite runs one query at a time, so a job's
// transaction can never wait on a row lock another one holds there.
//
// Issue 39 point 4, "a lock wait over 10 s re-runs the job while its first transaction is still
// open": the time bound answers the job's database work 503, but the transaction goes on
// waiting for the lock. Retried at once, each attempt added another blocked transaction (1 → 4
// in 35 s). The job is retried only once its first attempt's transaction has ended, with backoff.
import { eq, sql } from 'drizzle-orm'
import { afterEach, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { type JobHandlers, runNextJob } from '#app/jobs/worker.server'
import { claimNextJob, insertJob } from '#app/models/jobs.server'
import { getDb, setDatabaseWorkTimeBoundForTests, withDatabase } from '#drizzle/db.server'
import { jobs } from '#drizzle/schema'
import { makeOrganization } from '#tests/factories'

const RETRY_BASE_MS = 600_000

/** Transactions of this test file's database waiting on a lock (postgres.js answers rows). */
async function blockedOnLocks() {
  const rows = (await getDb().execute(
    sql`select count(*)::int as count from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
  )) as unknown as { count: number }[]
  return rows[0]?.count
}

afterEach(() => {
  setDatabaseWorkTimeBoundForTests()
  delete process.env.JOB_RETRY_BASE_MS
  resetEnvForTests()
})

test('a job blocked on a row lock past the time bound is not run again while its transaction is open; its retry backs off from its end', async () => {
  process.env.JOB_RETRY_BASE_MS = String(RETRY_BASE_MS)
  resetEnvForTests()
  const organization = await makeOrganization()
  await withDatabase((tx) =>
    insertJob(tx, { name: 'media.sweep', organizationId: organization.id, maxAttempts: 5 }),
  )
  const lockRow = sql`select id from organizations where id = ${organization.id} for update`
  let runs = 0
  const handlers: JobHandlers = {
    'media.sweep': {
      async run(job) {
        if (job.organizationId !== organization.id) return
        runs += 1
        await withDatabase((tx) => tx.execute(lockRow))
      },
    },
  }

  // The test holds the organization's row, as a long transaction elsewhere would.
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let locked: () => void = () => {}
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve
  })
  const holder = getDb().transaction(async (tx) => {
    await tx.execute(lockRow)
    locked()
    await released
  })
  await isLocked

  setDatabaseWorkTimeBoundForTests(300)
  let waiting: () => void = () => {}
  const workerWaits = new Promise<'waiting'>((resolve) => {
    waiting = () => resolve('waiting')
  })
  const first = runNextJob(handlers, (message) => {
    if (message.includes('outlived the time bound')) waiting()
  })
  let releasedAt = Number.POSITIVE_INFINITY
  try {
    // The bound has answered the handler 503: the worker waits for the transaction instead of
    // writing a retry due at once (on the commit before, the run ended here, due again at once).
    expect(await Promise.race([first.then(() => 'attempt over' as const), workerWaits])).toBe(
      'waiting',
    )
    // Its transaction is still open, blocked on the lock; the job is still this attempt's, and
    // nobody (here or in another process) can take it meanwhile.
    expect(await blockedOnLocks()).toBe(1)
    const [running] = await getDb().select().from(jobs).where(eq(jobs.name, 'media.sweep'))
    expect(running).toMatchObject({ state: 'running', attempts: 1 })
    expect(await withDatabase((tx) => claimNextJob(tx, 60_000))).toBeUndefined()
    expect(runs).toBe(1)
  } finally {
    // The lock goes (also after a failed check: nothing stays blocked for the next file).
    releasedAt = Date.now()
    release()
    await holder
  }
  await first
  // Only now, with the first attempt's transaction over, is the retry written: a backoff after
  // that end, not at once.
  const [retried] = await getDb().select().from(jobs).where(eq(jobs.name, 'media.sweep'))
  expect(retried).toMatchObject({ state: 'queued', attempts: 1 })
  expect(retried?.runAt.getTime()).toBeGreaterThanOrEqual(releasedAt + RETRY_BASE_MS)
  expect(runs).toBe(1)
  expect(await blockedOnLocks()).toBe(0)
})
