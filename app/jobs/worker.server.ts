// The job queue's worker (ADR 019): runs in every app process, in lanes (ADR 056): each lane
// takes one due job of its kinds at a time, so a job waiting on a slow third party never holds
// the email behind it. Handlers run outside any transaction (a handler that waits on a provider
// holds no connection meanwhile: on the embedded PGlite there is only one). A handler that
// throws is retried with exponential backoff, and only once its attempt has ended (its database
// work included); after its last attempt, or at once for a PermanentJobError, the job is dead
// and its handler's onDead records why. Stopping the worker cancels the outside calls in flight.
// A committed job wakes the lane of its kind through the queue's own notification (migration
// 0035: NOTIFY on `brandcard_jobs`, delivered at commit only); each lane still polls every
// JOB_POLL_MS, for jobs that come due later and for a notification lost while the listener
// was away.
import { getEnv } from '#app/env.server'
import {
  claimNextJob,
  dueJobsByKind,
  extendJobLease,
  insertJob,
  type Job,
  type JobKinds,
  type JobName,
  markJobDead,
  markJobDone,
  pruneFinishedJobs,
  releaseRunningJobs,
  rescheduleJob,
} from '#app/models/jobs.server'
import { type JobQueueRow, metrics, setJobQueueSource } from '#app/observability/metrics.server'
import { inJobRun } from '#app/observability/tracing.server'
import { writesPausedForDiskSpace } from '#app/storage/disk-space.server'
import { allowOutsideCalls, cancelOutsideCalls } from '#app/utils/outside-call.server'
import { collectingOverdueWork, getDatabaseHandle, withDatabase } from '#drizzle/db.server'
import { redactDatabaseError } from '#drizzle/redact.server'
import { isOutage } from '#drizzle/unavailable.server'

/** A failure no retry can fix (a refused API key, a row that no longer exists). */
export class PermanentJobError extends Error {}

export type JobHandler = {
  run(job: Job): Promise<void>
  /** Once, when the job will not run again. */
  onDead?(job: Job, error: string): Promise<void>
}

export type JobHandlers = Partial<Record<JobName, JobHandler>>

/**
 * The organization a tenant's job is for and the payload fields it needs, each present: a job
 * without them can never run (PermanentJobError).
 */
export function tenantJobInput<Field extends string>(
  job: Job,
  ...fields: Field[]
): { organizationId: string } & Record<Field, string> {
  const organizationId = job.organizationId
  const values = Object.fromEntries(fields.map((field) => [field, job.payload[field]]))
  if (!organizationId || fields.some((field) => !values[field])) {
    throw new PermanentJobError('malformed payload')
  }
  return { organizationId, ...(values as Record<Field, string>) }
}

/**
 * The worker's lanes (ADR 056), each running one job at a time beside the others. Email has a
 * lane to itself: a password reset never waits behind a push to a silent APNs (issue 39 point 4).
 * Kinds whose work waits on a third party share another; everything else (backups, sweeps,
 * billing state, deletions, exports) runs in the last, which takes every kind not named above,
 * so a kind nobody listed still runs.
 */
const EMAIL_KINDS: readonly JobName[] = ['email.send', 'auth.password-reset', 'announcement.send']
const OUTSIDE_KINDS: readonly JobName[] = [
  'wallet.refresh',
  'google-wallet.patch',
  'crm.forward',
  'crm.delete',
  'sending-domain.check',
  'sending-domain.remove',
  'sending-domain.expire',
  'billing.stripe-event',
  'webhook.deliver',
]
export const JOB_LANES: readonly { name: string; kinds: JobKinds }[] = [
  { name: 'email', kinds: { only: EMAIL_KINDS } },
  { name: 'outside calls', kinds: { only: OUTSIDE_KINDS } },
  { name: 'local', kinds: { except: [...EMAIL_KINDS, ...OUTSIDE_KINDS] } },
]

const laneOf = (kind: string) => JOB_LANES.find((lane) => takes(lane.kinds, kind))?.name ?? 'local'

/** A scrape never waits on a database that is away: it shows no queue rather than none at all. */
const QUEUE_READ_MS = 2_000

/** The queue's depth and age per lane and kind, read when the metrics are scraped. */
export async function readJobQueue(now = new Date()): Promise<JobQueueRow[]> {
  let timer: NodeJS.Timeout | undefined
  const rows = await Promise.race([
    withDatabase((tx) => dueJobsByKind(tx, now)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('the job queue did not answer in time')),
        QUEUE_READ_MS,
      )
      timer.unref()
    }),
  ]).finally(() => clearTimeout(timer))
  return rows.map((row) => ({
    lane: laneOf(row.kind),
    kind: row.kind,
    due: row.due,
    oldestSeconds: row.oldestRunAt
      ? Math.max(0, (now.getTime() - row.oldestRunAt.getTime()) / 1000)
      : 0,
  }))
}
setJobQueueSource(() => readJobQueue())

const MAX_DELAY_MS = 60 * 60_000
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60_000

/** 1, 2, 4, 8… times the base after each failed attempt, capped at an hour, with 20% jitter. */
export function retryDelayMs(attempts: number, baseMs: number, random = Math.random) {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS)
  return Math.round(delay * (1 + random() * 0.2))
}

// Logged and kept as the job's last error: never with a failed query's parameters.
const errorText = (error: unknown) =>
  (error instanceof Error
    ? redactDatabaseError(error).message
    : // The data layer's answer when the database cannot be reached (a thrown 503).
      error instanceof Response
      ? // or the disk would not take its write (statusText "Saving is paused").
        `${error.statusText || 'the database did not answer'} (${error.status})`
      : String(error)
  ).slice(0, 500)

type Log = (message: string) => void

/** How a run ended, as the job's row must come to say. */
type Outcome =
  | { kind: 'done' }
  | { kind: 'retry'; runAt: Date; error: string }
  | { kind: 'dead'; error: string }

/**
 * Outcomes this process could not write because the database was away when its run ended. They
 * are written before anything else once it answers: a job whose run failed with the outage is due
 * again at once, instead of waiting out a lease nobody is renewing (issue 26 point 15); one that
 * finished is marked done and not run again. Written only while the claim is still ours
 * (`heldBy` in the model), so a job another process took meanwhile is left alone.
 */
const unwritten = new Map<string, { job: Job; outcome: Outcome }>()

async function writeOutcome(job: Job, outcome: Outcome, handler: JobHandler | undefined, log: Log) {
  try {
    await withDatabase((tx) => {
      switch (outcome.kind) {
        case 'done':
          return markJobDone(tx, job.id, job.attempts)
        case 'retry':
          return rescheduleJob(tx, job.id, job.attempts, outcome.runAt, outcome.error)
        case 'dead':
          return markJobDead(tx, job.id, job.attempts, outcome.error)
      }
    })
  } catch (error) {
    if (isOutage(error)) unwritten.set(job.id, { job, outcome })
    throw error
  }
  unwritten.delete(job.id)
  if (outcome.kind !== 'dead') return
  log(`job ${job.name} ${job.id} is dead: ${outcome.error}`)
  await handler?.onDead?.(job, outcome.error).catch((error: unknown) => {
    log(`job ${job.name} ${job.id}: recording its failure failed: ${errorText(error)}`)
  })
}

/** A test file's database is gone with it: what it missed is not the next file's to write. */
export function forgetUnwrittenJobOutcomesForTests() {
  unwritten.clear()
}

/** Writes what the database missed; throws (nothing else should run) while it is still away. */
async function writeUnwrittenOutcomes(handlers: JobHandlers, log: Log) {
  for (const { job, outcome } of [...unwritten.values()]) {
    await writeOutcome(job, outcome, handlers[job.name as JobName], log)
  }
}

type RunOptions = {
  /** Only jobs of these kinds (a lane); any kind when absent. */
  kinds?: JobKinds
  /** Aborted when the worker stops: a run waiting on its overdue database work gives up. */
  stopping?: AbortSignal
}

/** Resolves true once `work` has settled, false if `stopping` aborts or `ms` passes first. */
function endedWithin(work: Promise<unknown>, ms: number, stopping?: AbortSignal) {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => finish(false), ms)
    timer.unref()
    const onStop = () => finish(false)
    function finish(ended: boolean) {
      clearTimeout(timer)
      stopping?.removeEventListener('abort', onStop)
      resolve(ended)
    }
    if (stopping?.aborted) return finish(false)
    stopping?.addEventListener('abort', onStop, { once: true })
    void work.then(() => finish(true))
  })
}

/** Runs the next due job, if any; false when there was none. */
export async function runNextJob(
  handlers: JobHandlers,
  log: Log = () => {},
  options: RunOptions = {},
): Promise<boolean> {
  await writeUnwrittenOutcomes(handlers, log)
  // The lease is renewed every third of it while the handler runs, so a lease that runs out
  // means the process died (on Postgres another process then takes the job within JOB_LEASE_MS),
  // however long the work itself takes (a backup of a large database).
  const leaseMs = getEnv().JOB_LEASE_MS
  const job = await withDatabase((tx) => claimNextJob(tx, leaseMs, options.kinds))
  if (!job) return false
  const handler = handlers[job.name as JobName]
  if (!handler) {
    await writeOutcome(job, { kind: 'dead', error: `no handler for ${job.name}` }, handler, log)
    return true
  }
  // Taken again after its lease ran out more often than it may be tried: it keeps killing us.
  if (job.attempts > job.maxAttempts) {
    const error = job.lastError ?? 'ran out of attempts'
    await writeOutcome(job, { kind: 'dead', error }, handler, log)
    return true
  }
  const heartbeat = setInterval(() => {
    withDatabase((tx) => extendJobLease(tx, job.id, job.attempts, leaseMs)).catch(
      (error: unknown) => {
        log(`job ${job.name} ${job.id}: lease not renewed: ${errorText(error)}`)
      },
    )
  }, leaseMs / 3)
  heartbeat.unref()
  // Database work of this attempt answered 503 at the time bound but still running: a
  // transaction waiting on a row lock, its connection and locks held (issue 39 point 4).
  const overdue: Promise<void>[] = []
  let outcome: Outcome
  try {
    // A trace of its own (ADR 097): the run's log lines and slow queries name it.
    await collectingOverdueWork(overdue, () =>
      inJobRun(job.name, { 'job.id': job.id, 'job.attempt': job.attempts }, () => handler.run(job)),
    )
    outcome = { kind: 'done' }
  } catch (error) {
    const message = errorText(error)
    if (error instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
      outcome = { kind: 'dead', error: message }
    } else {
      // Failed because the database went away: due again as soon as it answers (the attempt
      // still counts, so work that always times out still ends dead). Work that outlived the
      // time bound is no outage but slow or blocked work: it backs off like any failure.
      const delay =
        isOutage(error) && overdue.length === 0
          ? 0
          : retryDelayMs(job.attempts, getEnv().JOB_RETRY_BASE_MS)
      outcome = { kind: 'retry', runAt: new Date(Date.now() + delay), error: message }
    }
  }
  try {
    // The attempt has ended only when its database work has: until then the job stays ours
    // (the heartbeat goes on), and no worker here or elsewhere runs it beside itself. Work that
    // has not ended within a lease (a driver that lost its connection) or a stopping worker
    // leave the job running: it is taken again once the lease runs out.
    if (overdue.length > 0) {
      log(`job ${job.name} ${job.id}: its database work outlived the time bound; waiting for it`)
      if (!(await endedWithin(Promise.all(overdue), leaseMs, options.stopping))) {
        log(`job ${job.name} ${job.id}: left to its lease, its database work still running`)
        return true
      }
      if (outcome.kind === 'retry') {
        const delay = retryDelayMs(job.attempts, getEnv().JOB_RETRY_BASE_MS)
        outcome = { ...outcome, runAt: new Date(Date.now() + delay) }
      }
    }
  } finally {
    clearInterval(heartbeat)
  }
  metrics.jobRuns.labels(job.name, outcome.kind).inc()
  await writeOutcome(job, outcome, handler, log)
  return true
}

/** Runs due jobs until none is left (retries that come due meanwhile too); tests and scripts. */
export async function runDueJobs(handlers: JobHandlers, log?: Log, limit = 1000) {
  let ran = 0
  while (ran < limit && (await runNextJob(handlers, log))) ran++
  return ran
}

type Lane = {
  kinds: JobKinds
  timer?: NodeJS.Timeout
  draining?: Promise<void>
  /** Woken while draining: the job may have committed after the drain last looked. */
  wokenWhileDraining?: boolean
}

type Worker = {
  handlers: JobHandlers
  log: Log
  lanes: Lane[]
  housekeeping?: NodeJS.Timeout
  stopping: AbortController
  stopped: boolean
  /** Interrupted jobs are back in the queue (PGlite): the lanes may take jobs. */
  ready: boolean
  /** Ends the worker's LISTEN, once it listens. */
  unlisten?: () => Promise<void>
  pausedForDiskSpace?: boolean
}

let worker: Worker | undefined

function schedule(current: Worker, lane: Lane, delayMs: number) {
  clearTimeout(lane.timer)
  lane.timer = setTimeout(() => void drain(current, lane), delayMs)
  lane.timer.unref()
}

async function drain(current: Worker, lane: Lane) {
  if (lane.draining || current.stopped) return
  lane.draining = (async () => {
    try {
      // Jobs write (their state, the outbox, backups): none starts while the disk is short.
      const paused = await writesPausedForDiskSpace()
      if (paused !== Boolean(current.pausedForDiskSpace)) {
        current.pausedForDiskSpace = paused
        current.log(
          paused ? 'job worker: paused, the disk is short of space' : 'job worker: resumed',
        )
      }
      if (paused) return
      const options = { kinds: lane.kinds, stopping: current.stopping.signal }
      while (!current.stopped && (await runNextJob(current.handlers, current.log, options))) {}
    } catch (error) {
      // The database is away (a restart, a failover): the next poll tries again.
      current.log(`job worker: ${errorText(error)}`)
    }
  })()
  await lane.draining
  lane.draining = undefined
  const again = lane.wokenWhileDraining
  lane.wokenWhileDraining = false
  if (!current.stopped) schedule(current, lane, again ? 0 : getEnv().JOB_POLL_MS)
}

/** The channel a committed job announces its kind on (migration 0035). */
export const JOBS_CHANNEL = 'brandcard_jobs'

const takes = (kinds: JobKinds, name: string) =>
  'only' in kinds ? kinds.only.includes(name as JobName) : !kinds.except.includes(name as JobName)

/** Looks now rather than at the next poll: in the lane that takes `kind`, or in every lane. */
function wake(current: Worker, kind?: string) {
  if (current.stopped || !current.ready) return
  for (const lane of current.lanes) {
    if (kind !== undefined && !takes(lane.kinds, kind)) continue
    if (lane.draining) lane.wokenWhileDraining = true
    else schedule(current, lane, 0)
  }
}

/** Resolves after `ms`, or at once when the worker stops; never holds the process. */
function pause(current: Worker, ms: number) {
  return endedWithin(new Promise<never>(() => {}), ms, current.stopping.signal)
}

/**
 * LISTENs for committed jobs. Each (re)connection of the listener wakes every lane: a job
 * committed while it was away was announced to nobody. A database that is away at start-up
 * is tried again, the lanes polling meanwhile.
 */
async function listenForJobs(current: Worker) {
  for (let failures = 0; !current.stopped; failures++) {
    try {
      const unlisten = await getDatabaseHandle().listen(
        JOBS_CHANNEL,
        (kind) => wake(current, kind),
        () => wake(current),
      )
      if (current.stopped) await unlisten().catch(() => {})
      else current.unlisten = unlisten
      return
    } catch (error) {
      current.log(`job worker: not listening for new jobs, polling meanwhile: ${errorText(error)}`)
      await pause(current, Math.min(1000 * 2 ** failures, 30_000))
    }
  }
}

/** Daily work is enqueued under a key per day, so any number of processes add it once. */
/** The next BACKUP_HOUR_UTC o'clock after `now`: when the daily backup runs. */
export function nextDailyRun(now: Date, hourUtc: number) {
  const run = new Date(now)
  run.setUTCHours(hourUtc, 0, 0, 0)
  if (run <= now) run.setUTCDate(run.getUTCDate() + 1)
  return run
}

/**
 * Daily work is enqueued for its next run under a key per day, so any number of processes add
 * it once; a process that starts never dumps the database on the spot.
 */
export async function enqueueDailyJobs(now = new Date()) {
  const env = getEnv()
  const runAt = nextDailyRun(now, env.BACKUP_HOUR_UTC)
  await withDatabase(async (tx) => {
    if (env.BACKUP_RETENTION > 0) {
      await insertJob(tx, {
        name: 'backup.daily',
        idempotencyKey: `backup.daily:${runAt.toISOString().slice(0, 10)}`,
        runAt,
      })
    }
    // Hourly, as this housekeeping runs: images nothing references are deleted after a grace.
    await insertJob(tx, {
      name: 'media.sweep',
      idempotencyKey: `media.sweep:${now.toISOString().slice(0, 13)}`,
    })
    // The card.viewed webhook digests up to the previous hour (ADR 093), once per hour whoever
    // adds it; hours no process was up to queue are caught up by the next run.
    const hour = new Date(now)
    hour.setUTCMinutes(0, 0, 0)
    hour.setTime(hour.getTime() - 60 * 60_000)
    await insertJob(tx, {
      name: 'webhook.card-views',
      payload: { hour: hour.toISOString() },
      idempotencyKey: `webhook.card-views:${hour.toISOString()}`,
    })
    await pruneFinishedJobs(tx, new Date(now.getTime() - KEEP_FINISHED_MS))
  })
}

export function startJobWorker(handlers: JobHandlers, log: Log) {
  if (worker || getEnv().JOB_POLL_MS === 0) return
  allowOutsideCalls()
  const current: Worker = {
    handlers,
    log,
    lanes: JOB_LANES.map((lane) => ({ kinds: lane.kinds })),
    stopping: new AbortController(),
    stopped: false,
    ready: false,
  }
  worker = current
  void listenForJobs(current)
  const housekeeping = () =>
    enqueueDailyJobs().catch((error: unknown) => log(`daily jobs: ${errorText(error)}`))
  void housekeeping()
  current.housekeeping = setInterval(housekeeping, 60 * 60_000)
  current.housekeeping.unref()
  // The embedded database belongs to this process alone (ADR 002), so a job still marked running
  // was cut short by the process before it; without this it would wait out its lease (minutes)
  // before being taken again: a reset email killed mid-send arrived five minutes late.
  const release =
    getDatabaseHandle().driver === 'pglite'
      ? withDatabase(releaseRunningJobs).then((count) => {
          if (count > 0) log(`job worker: ${count} interrupted job(s) queued again`)
        })
      : Promise.resolve()
  void release
    .catch((error: unknown) => log(`job worker: ${errorText(error)}`))
    .finally(() => {
      current.ready = true
      wake(current)
    })
}

/** How long a stopping server lets its running jobs end by themselves (ADR 096). */
export const RUNNING_JOBS_GRACE_MS = 5_000

/**
 * Shutdown: no new job is taken; the jobs running get `graceMs` to end by themselves, then the
 * outside calls still in flight are cancelled (a provider that hangs never holds SIGTERM), so
 * each lane's running job ends, its outcome written (a cancelled call fails it like any other:
 * retried later, by the next process). Without the grace a webhook the receiver had already
 * taken, cut off before its answer came back, was sent again by the next process: a restart
 * must not turn "exactly once" into "twice". Tests stop at once (no grace).
 */
export async function stopJobWorker(options: { graceMs?: number } = {}) {
  const current = worker
  worker = undefined
  if (!current) return
  current.stopped = true
  for (const lane of current.lanes) clearTimeout(lane.timer)
  clearInterval(current.housekeeping)
  const graceMs = options.graceMs ?? 0
  if (graceMs > 0) {
    await endedWithin(Promise.all(current.lanes.map((lane) => lane.draining)), graceMs)
  }
  current.stopping.abort()
  cancelOutsideCalls()
  // Bounded: an UNLISTEN sent to a database that is away must not hold a shutdown (closing the
  // database handle ends the listening connection in any case).
  const unlisten = current.unlisten
  current.unlisten = undefined
  if (unlisten) {
    const unlistened = unlisten().catch(() => {})
    await endedWithin(unlistened, 1_000)
  }
  try {
    await Promise.all(current.lanes.map((lane) => lane.draining))
  } finally {
    // Outside calls made after this (a test's next step, a restarted dev server) go ahead.
    allowOutsideCalls()
  }
  // One last try for what the database missed; if it is still away, the leases run out.
  await writeUnwrittenOutcomes(current.handlers, current.log).catch(() => {})
}
