// Issue 40 point 3, "the worker wakes itself": a transaction that queued jobs wakes the job
// worker when it commits, through the queue's own notification (migration 0035, LISTEN/NOTIFY
// on both drivers), instead of a wake-up call each caller had to remember. The lanes poll every
// 10 minutes here, so only the notification can have started a job within the test; a
// transaction that rolls back queues nothing and announces nothing.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest'
import { queueEmail } from '#app/email/mailer.server'
import { resetEnvForTests } from '#app/env.server'
import {
  JOBS_CHANNEL,
  type JobHandlers,
  startJobWorker,
  stopJobWorker,
} from '#app/jobs/worker.server'
import { insertJob, type JobName, requeueJobByKey } from '#app/models/jobs.server'
import { getDatabaseHandle, getDb, withDatabase } from '#drizzle/db.server'
import { jobs } from '#drizzle/schema'
import { makeBrandedOrganization } from '#tests/factories'

// Generous: these bound a hang, not a speed (ADR 059); a quiet machine takes milliseconds.
const PROMPTLY = { timeout: 30_000, interval: 20 }

const ran: { id: string; name: string }[] = []
const record = { run: async (job: { id: string; name: string }) => void ran.push(job) }
// One kind of each lane (ADR 056): the notification names the kind, and wakes its lane.
const handlers: JobHandlers = {
  'email.send': record,
  'crm.forward': record,
  'data-export.build': record,
  // The worker's own hourly housekeeping, queued as it starts.
  'media.sweep': record,
  'backup.daily': record,
}

beforeAll(async () => {
  process.env.JOB_POLL_MS = String(10 * 60_000)
  resetEnvForTests()
  startJobWorker(handlers, () => {})
  // The start's own look at the queue (it runs the hourly sweep it queued) is over and each
  // lane waits for its next poll, minutes away, before a test queues anything.
  await vi.waitFor(() => expect(ran.map((job) => job.name)).toContain('media.sweep'), PROMPTLY)
  await new Promise((resolve) => setTimeout(resolve, 300))
})

beforeEach(() => {
  ran.length = 0
})

afterAll(async () => {
  await stopJobWorker()
  delete process.env.JOB_POLL_MS
  resetEnvForTests()
})

async function queue(name: JobName, key: string) {
  await withDatabase((tx) => insertJob(tx, { name, idempotencyKey: key }))
  const [job] = await getDb().select().from(jobs).where(eq(jobs.idempotencyKey, key))
  if (!job) throw new Error(`job ${key} not stored`)
  return job
}

test('a job queued in a committed transaction runs without anyone waking the worker, in every lane', async () => {
  const queued = [
    await queue('email.send', 'wake:email'),
    await queue('crm.forward', 'wake:outside'),
    await queue('data-export.build', 'wake:local'),
  ]
  await vi.waitFor(() => {
    expect(ran.map((job) => job.id).sort()).toEqual(queued.map((job) => job.id).sort())
  }, PROMPTLY)
})

test('an app function that queues an email (the mailer) has it sent by the worker it woke', async () => {
  const { organization } = await makeBrandedOrganization({ name: 'Wake Co' })
  await queueEmail(
    organization.id,
    { to: 'wake@example.test', subject: 'Hello', html: '<p>Hello</p>', text: 'Hello' },
    'Wake Co',
    { clientIp: '203.0.113.40' },
  )
  await vi.waitFor(() => expect(ran.map((job) => job.name)).toEqual(['email.send']), PROMPTLY)
})

test('a rolled-back transaction queues nothing and announces nothing', async () => {
  const heard: string[] = []
  const unlisten = await getDatabaseHandle().listen(
    JOBS_CHANNEL,
    (kind) => heard.push(kind),
    () => {},
  )
  try {
    await expect(
      withDatabase(async (tx) => {
        await insertJob(tx, { name: 'data-export.build', idempotencyKey: 'wake:rolled-back' })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    // Notifications arrive in commit order: once this one is heard, an announcement of the
    // rolled-back job would have been heard before it.
    const committed = await queue('email.send', 'wake:after-rollback')
    await vi.waitFor(() => expect(heard).toContain('email.send'), PROMPTLY)
    expect(heard).toEqual(['email.send'])
    await vi.waitFor(() => expect(ran.map((job) => job.id)).toEqual([committed.id]), PROMPTLY)
    const rolledBack = await getDb()
      .select()
      .from(jobs)
      .where(eq(jobs.idempotencyKey, 'wake:rolled-back'))
    expect(rolledBack).toEqual([])
  } finally {
    await unlisten()
  }
})

test('a finished job queued again (a retry asked for by hand) wakes the worker too', async () => {
  const job = await queue('crm.forward', 'wake:requeued')
  await vi.waitFor(() => expect(ran.map((r) => r.id)).toEqual([job.id]), PROMPTLY)
  await vi.waitFor(async () => {
    const [row] = await getDb().select().from(jobs).where(eq(jobs.id, job.id))
    expect(row?.state).toBe('done')
  }, PROMPTLY)
  expect(await withDatabase((tx) => requeueJobByKey(tx, 'wake:requeued'))).toBe(true)
  await vi.waitFor(() => expect(ran.map((r) => r.id)).toEqual([job.id, job.id]), PROMPTLY)
})
