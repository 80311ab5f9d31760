// Issue 39 point 4, "a slow or hanging push provider stops every email": a local APNs that is
// silent, and one that trickles bytes forever. The worker's lanes (ADR 056) send a password
// reset while the push still hangs; the push's whole-exchange deadline ends it however many
// bytes keep arriving; stopping the worker cancels the push in flight and ends at once.
import { and, eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { appleWalletConfig } from '#app/cards/apple-config.server'
import { resetEnvForTests } from '#app/env.server'
import { jobHandlers } from '#app/job-handlers.server'
import { type JobHandlers, startJobWorker, stopJobWorker } from '#app/jobs/worker.server'
import { insertJob } from '#app/models/jobs.server'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import { callOutside, OutsideCallError } from '#app/utils/outside-call.server'
import { pushPassUpdates } from '#app/wallet/apns.server'
import { getDb, withDatabase } from '#drizzle/db.server'
import { emailOutbox, jobs } from '#drizzle/schema'
import {
  configureAppleWallet,
  makeTestCertificates,
  removeTestCertificates,
  startHangingApns,
  type TestCertificates,
  unconfigureAppleWallet,
} from '#tests/apple-wallet'
import { contextFor, formRequest, makeBrandedOrganization, makeUser } from '#tests/factories'

let certs: TestCertificates
const closers: (() => Promise<void>)[] = []
type Agency = { organization: { id: string; slug: string }; email: string }
const agencies = new Map<string, Agency>()

// Made before the tests: an embedded database's first writes in a file are slow on a busy machine.
beforeAll(async () => {
  certs = makeTestCertificates()
  for (const mode of ['silent', 'trickle', 'grace']) {
    const { organization } = await makeBrandedOrganization({ name: `Lanes ${mode} Co` })
    const user = await makeUser(organization.id, {
      email: `lanes-${organization.slug}@example.test`,
    })
    agencies.set(mode, { organization, email: user.email })
  }
})

afterEach(async () => {
  await stopJobWorker()
  for (const close of closers.splice(0)) await close()
  unconfigureAppleWallet()
  delete process.env.OUTSIDE_CALL_DEADLINE_MS
  delete process.env.JOB_POLL_MS
  resetEnvForTests()
})

afterAll(() => removeTestCertificates(certs))

async function hangingApns(mode: 'silent' | 'trickle') {
  const apns = await startHangingApns(certs, mode)
  closers.push(apns.close)
  configureAppleWallet(certs, apns.url)
  return apns
}

function walletConfig() {
  const config = appleWalletConfig()
  if (!config) throw new Error('Apple Wallet is not configured')
  return config
}

test.each(['silent', 'trickle'] as const)(
  'APNs %s: a password reset queued behind an owed push is sent while the push hangs; stopping the worker cancels the push',
  async (mode) => {
    const apns = await hangingApns(mode)
    // Far beyond the test: here only the lanes and shutdown may end the push.
    process.env.OUTSIDE_CALL_DEADLINE_MS = '600000'
    process.env.JOB_POLL_MS = '50'
    resetEnvForTests()
    const agency = agencies.get(mode)
    if (!agency) throw new Error(`no agency for ${mode}`)
    const { organization } = agency
    // The owed push, as the wallet.refresh job makes it: the real APNs client, to the fake.
    const handlers: JobHandlers = {
      ...jobHandlers,
      'wallet.refresh': {
        async run(job) {
          // The previous test's push, queued again by its shutdown, is not this test's.
          if (job.organizationId !== organization.id) return
          const outcome = await pushPassUpdates(walletConfig(), ['owed-device'])
          if (outcome.failed.length > 0) throw new Error('APNs missed the push; retried')
        },
      },
    }
    await withDatabase((tx) =>
      insertJob(tx, { name: 'wallet.refresh', organizationId: organization.id }),
    )
    const log: string[] = []
    startJobWorker(handlers, (message) => log.push(message))
    const push = await apns.pushed
    expect(push.token).toBe('owed-device')

    // The push hangs; the reset is asked for now, and queued after it.
    const host = `${organization.slug}.localhost`
    const answer = (await forgotAction({
      request: formRequest(host, '/auth/forgot-password', { email: agency.email }),
      context: contextFor(host, '203.0.113.77'),
      params: {},
    })) as Response
    expect(answer.status).toBe(302)
    await vi.waitFor(
      async () => {
        const emails = await getDb()
          .select()
          .from(emailOutbox)
          .where(eq(emailOutbox.organizationId, organization.id))
        expect(emails.map((email) => [email.toAddress, email.state])).toEqual([
          [agency.email, 'sent'],
        ])
      },
      { timeout: 20_000, interval: 50 },
    )
    // Sent while the very push it was queued behind is still open, its job still running.
    expect(push.closed).toBe(false)
    expect(apns.pushes).toHaveLength(1)
    const walletJob = () =>
      getDb()
        .select()
        .from(jobs)
        .where(and(eq(jobs.organizationId, organization.id), eq(jobs.name, 'wallet.refresh')))
        .then((rows) => rows[0])
    expect(await walletJob()).toMatchObject({ state: 'running', attempts: 1 })

    // Shutdown: the push in flight is cancelled (the fake sees its stream go), the worker stops
    // without waiting for the deadline, and the job is back in the queue for the next process.
    await stopJobWorker()
    await push.gone
    expect(push.closed).toBe(true)
    const after = await walletJob()
    expect(after?.state).toBe('queued')
    expect(after?.lastError).toContain('APNs missed the push')
  },
)

/** A promise and the function that settles it. */
function signal(): [Promise<void>, () => void] {
  let settle: () => void = () => {}
  const settled = new Promise<void>((resolve) => {
    settle = resolve
  })
  return [settled, settle]
}

test('stopping with a grace lets the job running end by itself: its call answered, the job done', async () => {
  process.env.JOB_POLL_MS = '50'
  resetEnvForTests()
  const { organization } = agencies.get('grace') as Agency
  // Both settled by the test: the job has started; the receiver answers.
  const [running, started] = signal()
  const [answered, answer] = signal()
  const handlers: JobHandlers = {
    ...jobHandlers,
    'wallet.refresh': {
      async run(job) {
        if (job.organizationId !== organization.id) return
        started()
        // A receiver that has the request and is about to answer when the stop comes.
        await callOutside('A provider', () => answered)
      },
    },
  }
  await withDatabase((tx) =>
    insertJob(tx, {
      name: 'wallet.refresh',
      organizationId: organization.id,
      idempotencyKey: 'lanes-test:grace',
    }),
  )
  startJobWorker(handlers, () => {})
  await running
  // Without the grace the stop cancels the call at once, before the answer below comes.
  const stopped = stopJobWorker({ graceMs: 60_000 })
  answer()
  await stopped
  const [job] = await getDb()
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.organizationId, organization.id), eq(jobs.idempotencyKey, 'lanes-test:grace')),
    )
  expect(job).toMatchObject({ state: 'done', attempts: 1, lastError: null })
})

test('APNs trickling bytes forever: the push ends at its whole-exchange deadline, failed for now', async () => {
  const apns = await hangingApns('trickle')
  // Scaled down from 10 s, with room for a TLS handshake on a busy machine.
  process.env.OUTSIDE_CALL_DEADLINE_MS = '2000'
  resetEnvForTests()
  const outcome = await pushPassUpdates(walletConfig(), ['trickled-device'])
  expect(outcome).toEqual({ delivered: [], gone: [], failed: ['trickled-device'] })
  const [push] = apns.pushes
  // Bytes were arriving (an idle timeout would never have fired); the app let go of the stream.
  expect(push?.bytesSent).toBeGreaterThan(1)
  await push?.gone
  expect(push?.closed).toBe(true)
})

test('APNs silent: the push ends at its deadline, failed for now', async () => {
  const apns = await hangingApns('silent')
  // Scaled down from 10 s, with room for a TLS handshake on a busy machine.
  process.env.OUTSIDE_CALL_DEADLINE_MS = '2000'
  resetEnvForTests()
  const outcome = await pushPassUpdates(walletConfig(), ['silent-device'])
  expect(outcome).toEqual({ delivered: [], gone: [], failed: ['silent-device'] })
  expect(apns.pushes).toHaveLength(1)
  await apns.pushes[0]?.gone
  expect(apns.pushes[0]?.closed).toBe(true)
})

test('a call whose client ignores the signal is still answered at the deadline', async () => {
  const outcome = await callOutside('A provider', () => new Promise<never>(() => {}), {
    deadlineMs: 100,
  }).catch((error: unknown) => error)
  expect(outcome).toBeInstanceOf(OutsideCallError)
  expect((outcome as OutsideCallError).reason).toBe('deadline')
})
