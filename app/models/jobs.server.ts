// The durable job queue's rows (ADR 019). Claiming uses FOR UPDATE SKIP LOCKED, so several app
// processes on one Postgres server never run the same job at once; on the embedded PGlite there
// is one connection and the same statement simply finds the next job.
import { and, eq, inArray, lt, lte, notInArray, or, type SQL, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { jobs } from '#drizzle/schema'

export type Job = typeof jobs.$inferSelect
export type JobName =
  | 'email.send'
  | 'crm.forward'
  | 'crm.delete'
  | 'auth.password-reset'
  | 'backup.daily'
  | 'media.sweep'
  | 'sending-domain.check'
  | 'sending-domain.remove'
  | 'sending-domain.expire'
  | 'wallet.refresh'
  | 'google-wallet.patch'
  | 'announcement.send'
  | 'billing.stripe-event'
  | 'billing.grace-end'
  | 'account.delete'
  | 'data-export.build'
  | 'billing.grace-reminder'
  | 'webhook.deliver'
  | 'webhook.card-views'
  | 'card-follow.digest'
  | 'personal-card.moved'
  | 'personal-card.manage-link'

export type NewJob = {
  name: JobName
  payload?: Record<string, string>
  organizationId?: string | null
  /** At most one job with this key is ever stored. */
  idempotencyKey?: string
  runAt?: Date
  maxAttempts?: number
}

/** Adds a job in the caller's transaction: it exists exactly when the caller's work committed. */
export async function insertJob(db: Queryable, job: NewJob) {
  await db
    .insert(jobs)
    .values({
      name: job.name,
      payload: job.payload ?? {},
      organizationId: job.organizationId ?? null,
      idempotencyKey: job.idempotencyKey ?? null,
      runAt: job.runAt ?? new Date(),
      maxAttempts: job.maxAttempts ?? 5,
    })
    .onConflictDoNothing({ target: jobs.idempotencyKey })
}

/** Which kinds of job a worker's lane takes: these only, or all but these. */
export type JobKinds = { only: readonly JobName[] } | { except: readonly JobName[] }

function ofKinds(kinds: JobKinds | undefined): SQL | undefined {
  if (!kinds) return undefined
  return 'only' in kinds
    ? inArray(jobs.name, [...kinds.only])
    : kinds.except.length > 0
      ? notInArray(jobs.name, [...kinds.except])
      : undefined
}

/**
 * Takes the next due job (of these kinds, when given): a queued one whose time has come, or a
 * running one whose lease ran out (its process died mid-work). The attempt is counted when it
 * is taken.
 */
export async function claimNextJob(
  db: Queryable,
  leaseMs: number,
  kinds?: JobKinds,
): Promise<Job | undefined> {
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        or(
          and(eq(jobs.state, 'queued'), lte(jobs.runAt, sql`now()`)),
          and(eq(jobs.state, 'running'), lt(jobs.lockedUntil, sql`now()`)),
        ),
        ofKinds(kinds),
      ),
    )
    .orderBy(jobs.runAt)
    .limit(1)
    .for('update', { skipLocked: true })
  const [job] = await db
    .update(jobs)
    .set({
      state: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      updatedAt: sql`now()`,
    })
    .where(inArray(jobs.id, due))
    .returning()
  return job
}

/**
 * Jobs marked running when no process is running them: back in the queue now, their attempt
 * counted (a job that keeps killing its process still runs out of attempts). Only for a database
 * that one process owns, the embedded PGlite directory: at start-up, whatever is still running
 * was cut short by the previous process (a crash, SIGKILL). On a shared Postgres another process
 * may be running them; there the lease says when one was abandoned.
 */
export async function releaseRunningJobs(db: Queryable) {
  const rows = await db
    .update(jobs)
    .set({
      state: 'queued',
      lockedUntil: null,
      lastError: 'interrupted: the process running it stopped',
      updatedAt: new Date(),
    })
    .where(eq(jobs.state, 'running'))
    .returning({ id: jobs.id })
  return rows.length
}

/**
 * Each outcome below is written only for the run that claimed the job: `attempt` is the count
 * its claim set. A worker whose lease ran out (another process took the job, counting another
 * attempt) can no longer touch the job, however late its write arrives.
 */
const heldBy = (id: string, attempt: number) =>
  and(eq(jobs.id, id), eq(jobs.state, 'running'), eq(jobs.attempts, attempt))

/** The running job's worker is alive: its lease runs `leaseMs` from now. */
export async function extendJobLease(db: Queryable, id: string, attempt: number, leaseMs: number) {
  await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(heldBy(id, attempt))
}

export async function markJobDone(db: Queryable, id: string, attempt: number) {
  await db
    .update(jobs)
    .set({ state: 'done', lockedUntil: null, lastError: null, finishedAt: new Date() })
    .where(heldBy(id, attempt))
}

/** Back in the queue for another attempt at `runAt`. */
export async function rescheduleJob(
  db: Queryable,
  id: string,
  attempt: number,
  runAt: Date,
  error: string,
) {
  await db
    .update(jobs)
    .set({ state: 'queued', runAt, lockedUntil: null, lastError: error, updatedAt: new Date() })
    .where(heldBy(id, attempt))
}

/** No more attempts: kept, with its last error, for people to read and retry. */
export async function markJobDead(db: Queryable, id: string, attempt: number, error: string) {
  await db
    .update(jobs)
    .set({ state: 'dead', lockedUntil: null, lastError: error, finishedAt: new Date() })
    .where(heldBy(id, attempt))
}

/** A dead or finished job with this key runs again from its first attempt. */
export async function requeueJobByKey(db: Queryable, idempotencyKey: string) {
  const rows = await db
    .update(jobs)
    .set({
      state: 'queued',
      attempts: 0,
      runAt: new Date(),
      lockedUntil: null,
      finishedAt: null,
      updatedAt: new Date(),
    })
    .where(and(eq(jobs.idempotencyKey, idempotencyKey), sql`${jobs.state} in ('dead', 'done')`))
    .returning({ id: jobs.id })
  return rows.length > 0
}

export async function findJobByKey(db: Queryable, idempotencyKey: string) {
  const [job] = await db.select().from(jobs).where(eq(jobs.idempotencyKey, idempotencyKey))
  return job
}

/** Finished jobs are kept a while for reading, then removed; dead ones stay until retried. */
export async function pruneFinishedJobs(db: Queryable, before: Date) {
  await db.delete(jobs).where(and(eq(jobs.state, 'done'), lt(jobs.finishedAt, before)))
}

/**
 * Queued jobs whose time has come, per kind, with when the oldest came due: the metrics' queue
 * depth and age (ADR 097). Read on the queue's partial index of waiting jobs.
 */
export async function dueJobsByKind(db: Queryable, now: Date) {
  return db
    .select({
      kind: jobs.name,
      due: sql<number>`count(*)::int`.mapWith(Number),
      oldestRunAt: sql<Date>`min(${jobs.runAt})`.mapWith(jobs.runAt),
    })
    .from(jobs)
    .where(and(eq(jobs.state, 'queued'), lte(jobs.runAt, now)))
    .groupBy(jobs.name)
}
