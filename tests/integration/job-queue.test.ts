// The durable job queue (ADR 019) and the emails that go through it (issue 15 points 4 and 5):
// claims never hand one job to two workers, a job whose process died is taken again, failures
// are retried with backoff until the job is dead, and an email is delivered exactly once even
// when the provider fails first.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { queueEmail } from '#app/email/mailer.server'
import { resetEnvForTests } from '#app/env.server'
import { jobHandlers, runJobsNow } from '#app/job-handlers.server'
import {
  enqueueDailyJobs,
  nextDailyRun,
  retryDelayMs,
  runDueJobs,
  runNextJob,
} from '#app/jobs/worker.server'
import { claimNextJob, insertJob, markJobDone, releaseRunningJobs } from '#app/models/jobs.server'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import {
  type DatabaseHandle,
  getDatabaseHandle,
  getDb,
  setDatabaseHandle,
  withDatabase,
} from '#drizzle/db.server'
import { emailOutbox, jobs } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeUser,
  openUnreachableDatabase,
  settle,
} from '#tests/factories'

afterEach(() => {
  delete process.env.RESEND_API_KEY
  delete process.env.RESEND_BASE_URL
  resetEnvForTests()
})

const jobsOf = (organizationId: string) =>
  getDb().select().from(jobs).where(eq(jobs.organizationId, organizationId))

const outboxOf = (organizationId: string) =>
  getDb().select().from(emailOutbox).where(eq(emailOutbox.organizationId, organizationId))

/** A local Resend: answers each POST /emails with the next scripted status (then 200). */
async function fakeResend(script: number[], onRequest: () => void = () => {}) {
  const received: { idempotencyKey: string | undefined; body: Record<string, unknown> }[] = []
  const server = createServer((req: IncomingMessage, res) => {
    let raw = ''
    req.on('data', (chunk) => {
      raw += chunk
    })
    req.on('end', () => {
      received.push({
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body: JSON.parse(raw),
      })
      onRequest()
      const status = script.shift() ?? 200
      res.writeHead(status, { 'Content-Type': 'application/json' })
      res.end(
        JSON.stringify(
          status === 200
            ? { id: `email_${received.length}` }
            : { name: 'internal_server_error', message: 'try later', statusCode: status },
        ),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  process.env.RESEND_API_KEY = 're_test_key'
  process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  resetEnvForTests()
  return { received, close: () => server.close() }
}

describe('emails through the queue', () => {
  test('Resend failing twice with 500 then accepting: the email is delivered once, with one idempotency key', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Mail Co' })
    const resend = await fakeResend([500, 500])
    try {
      await queueEmail(
        organization.id,
        {
          to: 'who@example.test',
          subject: 'Hello',
          html: '<p>Hi</p>',
          text: 'Hi',
        },
        'Mail Co',
        { userId: 'job-queue-test' },
      )
      // Queued: written, not sent.
      expect((await outboxOf(organization.id)).map((email) => email.state)).toEqual(['queued'])
      await runJobsNow()
      expect(resend.received).toHaveLength(3)
      expect(new Set(resend.received.map((r) => r.idempotencyKey)).size).toBe(1)
      expect(resend.received[0]?.idempotencyKey).toMatch(/^brandcard-email\//)
      const [email] = await outboxOf(organization.id)
      expect(email).toMatchObject({ state: 'sent', providerMessageId: 'email_3', attempts: 3 })
      const [job] = await jobsOf(organization.id)
      expect(job).toMatchObject({ name: 'email.send', state: 'done', attempts: 3 })
    } finally {
      resend.close()
    }
  })

  test('a provider that never accepts: after the last attempt the email is failed and the job dead', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Bounce Co' })
    const resend = await fakeResend(Array.from({ length: 8 }, () => 500))
    try {
      await queueEmail(
        organization.id,
        {
          to: 'x@example.test',
          subject: 'S',
          html: 'H',
          text: 'T',
        },
        'Mail Co',
        { userId: 'job-queue-test' },
      )
      await runJobsNow()
      expect(resend.received).toHaveLength(8)
      const [email] = await outboxOf(organization.id)
      expect(email?.state).toBe('failed')
      expect(email?.lastError).toContain('Resend refused the email')
      const [job] = await jobsOf(organization.id)
      expect(job).toMatchObject({ state: 'dead', attempts: 8 })
    } finally {
      resend.close()
    }
  })

  test('forgot password: a known and an unknown email each queue exactly one job before the answer', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Reset Queue Co' })
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, {
      email: `known-${organization.slug}@example.test`,
    })
    const ask = (email: string) =>
      forgotAction({
        request: formRequest(host, '/auth/forgot-password', { email }),
        context: contextFor(host, `203.0.113.${Math.floor(Math.random() * 200) + 1}`),
        params: {},
      }) as Promise<Response>
    expect((await ask(user.email)).status).toBe(302)
    expect((await ask(`nobody-${organization.slug}@example.test`)).status).toBe(302)
    const queued = await jobsOf(organization.id)
    expect(queued.map((job) => [job.name, job.state])).toEqual([
      ['auth.password-reset', 'queued'],
      ['auth.password-reset', 'queued'],
    ])
    // The answer sent nothing yet: the queue did not run. A server that died here and starts
    // again finds both jobs and sends the one email there is to send.
    expect(await outboxOf(organization.id)).toEqual([])
    await runJobsNow()
    const emails = await outboxOf(organization.id)
    expect(emails.map((email) => [email.toAddress, email.state])).toEqual([[user.email, 'sent']])
    expect(emails[0]?.subject).toBe('Reset your Reset Queue Co password')
  })

  test('a reset job run again after its process died writes no second email', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Twice Co' })
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, {
      email: `twice-${organization.slug}@example.test`,
    })
    await settle(() =>
      forgotAction({
        request: formRequest(host, '/auth/forgot-password', { email: user.email }),
        context: contextFor(host, '203.0.113.250'),
        params: {},
      }),
    )
    await getDb()
      .update(jobs)
      .set({ state: 'queued' })
      .where(and(eq(jobs.organizationId, organization.id), eq(jobs.name, 'auth.password-reset')))
    await runJobsNow()
    expect(await outboxOf(organization.id)).toHaveLength(1)
  })
})

describe('the queue', () => {
  test('an idempotency key stores one job however often it is enqueued', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Once Co' })
    for (let i = 0; i < 3; i++) {
      await withDatabase((tx) =>
        insertJob(tx, {
          name: 'crm.forward',
          organizationId: organization.id,
          idempotencyKey: `once-${organization.id}`,
        }),
      )
    }
    expect(await jobsOf(organization.id)).toHaveLength(1)
    await getDb().delete(jobs).where(eq(jobs.organizationId, organization.id))
  })

  test('concurrent claims never take the same job twice', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Claim Co' })
    for (let i = 0; i < 6; i++) {
      await withDatabase((tx) =>
        insertJob(tx, { name: 'backup.daily', organizationId: organization.id }),
      )
    }
    const claimed = await Promise.all(
      Array.from({ length: 10 }, () => withDatabase((tx) => claimNextJob(tx, 60_000))),
    )
    const ids = claimed
      .filter((job) => job?.organizationId === organization.id)
      .map((job) => job?.id)
    expect(ids).toHaveLength(6)
    expect(new Set(ids).size).toBe(6)
    // Leased: not taken again while the lease lasts.
    expect(await withDatabase((tx) => claimNextJob(tx, 60_000))).toBeUndefined()
  })

  test('a running job whose lease ran out (its process died) is taken again', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Lease Co' })
    await withDatabase((tx) =>
      insertJob(tx, { name: 'email.send', organizationId: organization.id }),
    )
    const first = await withDatabase((tx) => claimNextJob(tx, 60_000))
    expect(first?.organizationId).toBe(organization.id)
    await getDb()
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, first?.id ?? ''))
    const again = await withDatabase((tx) => claimNextJob(tx, 60_000))
    expect(again).toMatchObject({ id: first?.id, attempts: 2 })
  })

  test('a failing job is retried with backoff, then dead with its last error; a job nobody handles is dead at once', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Retry Co' })
    const runs: number[] = []
    const dead: string[] = []
    await withDatabase((tx) =>
      insertJob(tx, { name: 'crm.forward', organizationId: organization.id, maxAttempts: 3 }),
    )
    await withDatabase((tx) =>
      insertJob(tx, { name: 'backup.daily', organizationId: organization.id }),
    )
    await runDueJobs({
      'crm.forward': {
        run: async (job) => {
          if (job.organizationId !== organization.id) return
          runs.push(job.attempts)
          throw new Error(`attempt ${job.attempts} failed`)
        },
        onDead: async (_job, error) => {
          dead.push(error)
        },
      },
    })
    expect(runs).toEqual([1, 2, 3])
    expect(dead).toEqual(['attempt 3 failed'])
    const byName = Object.fromEntries((await jobsOf(organization.id)).map((job) => [job.name, job]))
    expect(byName['crm.forward']).toMatchObject({ state: 'dead', lastError: 'attempt 3 failed' })
    expect(byName['backup.daily']).toMatchObject({
      state: 'dead',
      lastError: 'no handler for backup.daily',
    })
  })

  test('retries wait 1, 2, 4… times the base, capped at an hour, with at most 20% jitter', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 1000, () => 0))).toEqual([
      1000, 2000, 4000, 8000,
    ])
    expect(retryDelayMs(3, 1000, () => 0.999)).toBeLessThanOrEqual(4800)
    expect(retryDelayMs(30, 1000, () => 0)).toBe(60 * 60_000)
  })

  test('the daily backup is added once per day for its next run, however many processes add it', async () => {
    const now = new Date('2026-11-25T08:00:00Z')
    await enqueueDailyJobs(now)
    await enqueueDailyJobs(new Date('2026-11-25T09:00:00Z'))
    const rows = await getDb()
      .select()
      .from(jobs)
      .where(eq(jobs.idempotencyKey, 'backup.daily:2026-11-26'))
    expect(rows.map((row) => row.runAt.toISOString())).toEqual(['2026-11-26T03:00:00.000Z'])
    expect(nextDailyRun(new Date('2026-11-25T02:59:00Z'), 3).toISOString()).toBe(
      '2026-11-25T03:00:00.000Z',
    )
  })
})

describe('interrupted work', () => {
  test('a long job keeps its lease while it runs; nobody else takes it', async () => {
    process.env.JOB_LEASE_MS = '300'
    resetEnvForTests()
    const { organization } = await makeBrandedOrganization({ name: 'Long Co' })
    await withDatabase((tx) =>
      insertJob(tx, { name: 'backup.daily', organizationId: organization.id }),
    )
    let stolen: unknown = 'not tried'
    try {
      await runDueJobs({
        'backup.daily': {
          run: async (job) => {
            if (job.organizationId !== organization.id) return
            // Three leases long: without renewals another worker would take it meanwhile.
            await new Promise((resolve) => setTimeout(resolve, 900))
            stolen = await withDatabase((tx) => claimNextJob(tx, 300))
          },
        },
      })
    } finally {
      delete process.env.JOB_LEASE_MS
      resetEnvForTests()
    }
    expect(stolen).toBeUndefined()
    const [job] = await jobsOf(organization.id)
    expect(job).toMatchObject({ state: 'done', attempts: 1 })
  })

  test("on start-up the embedded database's worker queues again the jobs a killed process left running", async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Orphan Co' })
    await withDatabase((tx) =>
      insertJob(tx, { name: 'crm.forward', organizationId: organization.id }),
    )
    const taken = await withDatabase((tx) => claimNextJob(tx, 60_000))
    expect(taken?.state).toBe('running')
    expect(await withDatabase(releaseRunningJobs)).toBeGreaterThanOrEqual(1)
    const [job] = await jobsOf(organization.id)
    expect(job).toMatchObject({ state: 'queued', attempts: 1, lockedUntil: null })
  })
})

describe('the database dropping while a job runs', () => {
  // Each case claims its own job first: earlier cases' jobs (a daily backup come due) are gone.
  beforeEach(async () => {
    await getDb().delete(jobs)
  })

  /** Takes the database away until `answerAgain` (connections refused, as a stopped server). */
  function outage() {
    let working: DatabaseHandle | undefined
    let unreachable: DatabaseHandle | undefined
    return {
      begin() {
        working = getDatabaseHandle()
        unreachable = openUnreachableDatabase()
        setDatabaseHandle(unreachable)
      },
      async answerAgain() {
        if (working) setDatabaseHandle(working)
        await unreachable?.close()
      },
    }
  }

  test('an email whose sending was cut short is sent again as soon as the database answers, not after its lease, under one idempotency key', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Dropped Co' })
    const drop = outage()
    // The provider accepts the email, and the database goes away before that is recorded.
    let dropped = false
    const resend = await fakeResend([], () => {
      if (dropped) return
      dropped = true
      drop.begin()
    })
    try {
      await queueEmail(
        organization.id,
        { to: 'who@example.test', subject: 'Hi', html: 'H', text: 'T' },
        'Mail Co',
        { clientIp: '203.0.113.9' },
      )
      // The default lease (a minute): the retry below must not depend on it running out.
      const outcome = await runNextJob(jobHandlers).catch((error: unknown) => error)
      expect(outcome).toBeInstanceOf(Response)
      await drop.answerAgain()
      const started = Date.now()
      await runJobsNow()
      expect(Date.now() - started).toBeLessThan(5_000)
      const [email] = await outboxOf(organization.id)
      expect(email?.state).toBe('sent')
      const [job] = await jobsOf(organization.id)
      expect(job).toMatchObject({ state: 'done', attempts: 2 })
      // Sent twice to the provider with one key: Resend delivers it once.
      expect(resend.received).toHaveLength(2)
      expect(new Set(resend.received.map((r) => r.idempotencyKey)).size).toBe(1)
    } finally {
      await drop.answerAgain()
      resend.close()
    }
  })

  test('a job that finished while its end could not be written is marked done when the database answers, not run again', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Finished Co' })
    await withDatabase((tx) =>
      insertJob(tx, { name: 'crm.forward', organizationId: organization.id }),
    )
    const drop = outage()
    const runs: number[] = []
    const handlers = {
      'crm.forward': {
        run: async (job: { organizationId: string | null; attempts: number }) => {
          if (job.organizationId !== organization.id) return
          runs.push(job.attempts)
          // Done with its work; the database goes away before the queue records it.
          drop.begin()
        },
      },
    }
    try {
      expect(await runNextJob(handlers).catch((error: unknown) => error)).toBeInstanceOf(Response)
      // Still away: nothing is claimed, nothing runs twice.
      expect(await runNextJob(handlers).catch((error: unknown) => error)).toBeInstanceOf(Response)
      await drop.answerAgain()
      await runDueJobs(handlers)
      expect(runs).toEqual([1])
      const [job] = await jobsOf(organization.id)
      expect(job).toMatchObject({ state: 'done', attempts: 1, lockedUntil: null })
    } finally {
      await drop.answerAgain()
    }
  })

  test('a late outcome never touches a job that another worker has taken since', async () => {
    const { organization } = await makeBrandedOrganization({ name: 'Late Co' })
    await withDatabase((tx) =>
      insertJob(tx, { name: 'crm.forward', organizationId: organization.id }),
    )
    const first = await withDatabase((tx) => claimNextJob(tx, 60_000))
    await getDb()
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, first?.id ?? ''))
    const second = await withDatabase((tx) => claimNextJob(tx, 60_000))
    expect(second?.attempts).toBe(2)
    // The first run's "done" arrives after the job changed hands: the second run still holds it.
    await withDatabase((tx) => markJobDone(tx, first?.id ?? '', first?.attempts ?? 0))
    const [job] = await jobsOf(organization.id)
    expect(job).toMatchObject({ state: 'running', attempts: 2 })
  })
})
