// The job queue's worker (ADR 019): runs in every app process, takes one due job at a time and
// runs its handler outside any transaction (a handler that waits on a provider holds no
// connection meanwhile: on the embedded PGlite there is only one). A handler that throws is
// retried with exponential backoff; after its last attempt, or at once for a PermanentJobError,
// the job is dead and its handler's onDead records why.
import { getEnv } from '#app/env.server'
import {
  claimNextJob,
  extendJobLease,
  insertJob,
  type Job,
  type JobName,
  markJobDead,
  markJobDone,
  pruneFinishedJobs,
  releaseRunningJobs,
  rescheduleJob,
} from '#app/models/jobs.server'
import { writesPausedForDiskSpace } from '#app/storage/disk-space.server'
import { getDatabaseHandle, withDatabase } from '#drizzle/db.server'
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

/** Runs the next due job, if any; false when there was none. */
export async function runNextJob(handlers: JobHandlers, log: Log = () => {}): Promise<boolean> {
  await writeUnwrittenOutcomes(handlers, log)
  // The lease is renewed every third of it while the handler runs, so a lease that runs out
  // means the process died (on Postgres another process then takes the job within JOB_LEASE_MS),
  // however long the work itself takes (a backup of a large database).
  const leaseMs = getEnv().JOB_LEASE_MS
  const job = await withDatabase((tx) => claimNextJob(tx, leaseMs))
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
  let outcome: Outcome
  try {
    await handler.run(job)
    outcome = { kind: 'done' }
  } catch (error) {
    const message = errorText(error)
    if (error instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
      outcome = { kind: 'dead', error: message }
    } else {
      // Failed because the database went away: due again as soon as it answers (the attempt
      // still counts, so work that always times out still ends dead). Otherwise, back off.
      const delay = isOutage(error) ? 0 : retryDelayMs(job.attempts, getEnv().JOB_RETRY_BASE_MS)
      outcome = { kind: 'retry', runAt: new Date(Date.now() + delay), error: message }
    }
  } finally {
    clearInterval(heartbeat)
  }
  await writeOutcome(job, outcome, handler, log)
  return true
}

/** Runs due jobs until none is left (retries that come due meanwhile too); tests and scripts. */
export async function runDueJobs(handlers: JobHandlers, log?: Log, limit = 1000) {
  let ran = 0
  while (ran < limit && (await runNextJob(handlers, log))) ran++
  return ran
}

type Worker = {
  handlers: JobHandlers
  log: Log
  timer?: NodeJS.Timeout
  housekeeping?: NodeJS.Timeout
  draining?: Promise<void>
  stopped: boolean
  pausedForDiskSpace?: boolean
}

let worker: Worker | undefined

function schedule(current: Worker, delayMs: number) {
  clearTimeout(current.timer)
  current.timer = setTimeout(() => void drain(current), delayMs)
  current.timer.unref()
}

async function drain(current: Worker) {
  if (current.draining || current.stopped) return
  current.draining = (async () => {
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
      while (!current.stopped && (await runNextJob(current.handlers, current.log))) {}
    } catch (error) {
      // The database is away (a restart, a failover): the next poll tries again.
      current.log(`job worker: ${errorText(error)}`)
    }
  })()
  await current.draining
  current.draining = undefined
  if (!current.stopped) schedule(current, getEnv().JOB_POLL_MS)
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
    await pruneFinishedJobs(tx, new Date(now.getTime() - KEEP_FINISHED_MS))
  })
}

export function startJobWorker(handlers: JobHandlers, log: Log) {
  if (worker || getEnv().JOB_POLL_MS === 0) return
  const current: Worker = { handlers, log, stopped: false }
  worker = current
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
    .finally(() => schedule(current, 0))
}

/** A job was just committed: look now rather than at the next poll. */
export function wakeJobWorker() {
  if (worker && !worker.stopped && !worker.draining) schedule(worker, 0)
}

/** Shutdown: no new job is taken; the one running finishes. */
export async function stopJobWorker() {
  const current = worker
  worker = undefined
  if (!current) return
  current.stopped = true
  clearTimeout(current.timer)
  clearInterval(current.housekeeping)
  await current.draining
  // One last try for what the database missed; if it is still away, the leases run out.
  await writeUnwrittenOutcomes(current.handlers, current.log).catch(() => {})
}
