// Card views of cached pages, written in batches off the request path (ADR 021): a hit costs a
// keyed hash and a push, and a flush writes each organization's views with one statement in
// its own tenant transaction. A view is not lost: a failed flush keeps its rows for the next
// one, and shutdown flushes what is left before the database closes. Failed flushes back off
// (doubling, capped at a minute) and each logs one line (issue 26 point 13: retried at once,
// they wrote 300 MB of log in 15 s); while the disk is short nothing is written (ADR 033).

import { sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import {
  type DeviceClass,
  REPEAT_WINDOW_MINUTES,
  recordCardViews,
} from '#app/models/card-views.server'
import { setViewBatchSource } from '#app/observability/metrics.server'
import { writesPausedForDiskSpace } from '#app/storage/disk-space.server'
import type { ViewSource } from '#app/utils/view-sources'
import { getDatabaseHandle, withTenant } from '#drizzle/db.server'
import { databaseErrorSummary } from '#drizzle/redact.server'

type PendingView = {
  organizationId: string
  cardId: string
  visitorHash: string
  deviceClass: DeviceClass
  source: ViewSource
  viewedAt: Date
}

const flushMs = () => Number(process.env.VIEW_FLUSH_MS ?? 1_000)
const BATCH_ROWS = 500
// Beyond this many unwritten views (a database down for long), the oldest are dropped and
// the count is logged, rather than the process growing without bound.
const MAX_PENDING = 200_000
const MAX_BACKOFF_MS = 60_000

// PGlite has no autovacuum: without fresh statistics after a burst of views its planner reads a
// busy card's views by a bitmap scan and a sort (40 ms at 100,000 views) instead of the index.
// Postgres's autovacuum analyzes on its own (and the app login may not).
const ANALYZE_AFTER_ROWS = 5_000
const ANALYZE_EVERY_MS = 10_000
let writtenSinceAnalyze = 0
let lastAnalyze = 0

let pending: PendingView[] = []
/** The batch a flush is writing now: taken out of `pending`, not yet written. */
let writing: PendingView[] = []
let timer: NodeJS.Timeout | null = null
let flushing: Promise<void> | null = null
// Failed flushes in a row, and when the next may start (0: now).
let failures = 0
let retryAt = 0
// Views dropped from a full queue since the last log line.
let dropped = 0
const warn = (message: string) => console.warn(message)
let log: (message: string) => void = warn

// A repeat within the window is not a view (as in recordCardView): most repeats stop here,
// and the insert's own check catches those another process saw.
const recentVisitors = new LRUCache<string, true>({
  max: 100_000,
  ttl: REPEAT_WINDOW_MINUTES * 60_000,
})

export function setViewBatchLog(logger: (message: string) => void) {
  log = logger
}

export function queueCardView(
  view: Omit<PendingView, 'viewedAt' | 'source'> & { source?: ViewSource },
) {
  // The hash alone is the key: it is keyed by the card already (and 32 characters, not 106,
  // which at 100,000 visitors is tens of megabytes of resident memory).
  if (recentVisitors.has(view.visitorHash)) return
  recentVisitors.set(view.visitorHash, true)
  pending.push({ ...view, source: view.source ?? 'direct', viewedAt: new Date() })
  if (pending.length > MAX_PENDING) {
    // Counted, and told in the next failure's line: one line per view would flood the log.
    dropped += pending.length - MAX_PENDING
    pending = pending.slice(pending.length - MAX_PENDING)
  }
  // Under a burst, a full batch goes at once: views queued for a whole second would outlive the
  // young generation and grow the heap by hundreds of megabytes at 20,000 views a second. Not
  // while backing off: a failing database would be asked again every 500 views.
  if (pending.length >= BATCH_ROWS && !flushing && Date.now() >= retryAt) {
    void flushCardViews().catch(() => {})
    return
  }
  scheduleFlush(Math.max(flushMs(), retryAt - Date.now()))
}

function scheduleFlush(delayMs: number) {
  timer ??= setTimeout(() => {
    timer = null
    void flushCardViews().catch(() => {})
  }, delayMs)
  timer.unref()
}

/** The wait after `failures` failed flushes in a row: 1, 2, 4… times VIEW_FLUSH_MS, at most a minute. */
export function viewFlushBackoffMs(failuresInARow: number) {
  return Math.min(flushMs() * 2 ** Math.max(0, failuresInARow - 1), MAX_BACKOFF_MS)
}

function backOff(error: unknown) {
  failures++
  const delay = viewFlushBackoffMs(failures)
  retryAt = Date.now() + delay
  const droppedNote = dropped > 0 ? `, ${dropped} dropped from the full queue` : ''
  dropped = 0
  log(
    `card views: ${pending.length} not written yet${droppedNote} (${databaseErrorSummary(error)}); attempt ${failures}, next in ${Math.round(delay / 1000)} s`,
  )
  if (timer) clearTimeout(timer)
  timer = null
  scheduleFlush(delay)
}

export function pendingCardViews() {
  return pending.length
}

/**
 * The views not yet written and when the oldest was seen: the metrics' view-batch lag (ADR 097).
 * The batch being written counts until its flush ends (a slow database shows as lag).
 */
export function unwrittenCardViews() {
  const oldest = [writing[0]?.viewedAt, pending[0]?.viewedAt].reduce<number | null>(
    (min, at) => (at && (min === null || at.getTime() < min) ? at.getTime() : min),
    null,
  )
  return { queued: pending.length + writing.length, oldestAt: oldest }
}
setViewBatchSource(unwrittenCardViews)

/**
 * Tests that queue views no flush can write leave nothing behind for the next test, nor for the
 * next test file that shares this process (tests/setup/process-state.ts).
 */
export function discardCardViewsForTests() {
  pending = []
  writing = []
  dropped = 0
  failures = 0
  retryAt = 0
  if (timer) clearTimeout(timer)
  timer = null
  log = warn
  recentVisitors.clear()
}

/** Writes every queued view; concurrent callers share one flush. */
export function flushCardViews(): Promise<void> {
  // Assigned before it can settle, and cleared only once settled: a flush that finds nothing to
  // write must not leave a settled promise behind as if a flush were still running.
  flushing ??= drain()
    .then(
      () => {
        failures = 0
        retryAt = 0
      },
      (error: unknown) => {
        backOff(error)
        throw error
      },
    )
    .finally(() => {
      flushing = null
    })
  return flushing
}

async function drain() {
  while (pending.length > 0) {
    if (await writesPausedForDiskSpace()) {
      throw Object.assign(new Error('the disk is short of space, writes are paused'), {
        code: 'DISK_SPACE_LOW',
      })
    }
    const batch = pending
    pending = []
    writing = batch
    try {
      await writeViews(batch)
    } finally {
      writing = []
    }
  }
}

/**
 * One organization's chunk per transaction: a large backlog is written in small steps, each kept
 * once committed. On a failure the chunks not yet written go back to the queue, in order.
 */
async function writeViews(views: PendingView[]) {
  const chunks: PendingView[][] = []
  const byOrganization = new Map<string, PendingView[]>()
  for (const view of views) {
    const list = byOrganization.get(view.organizationId) ?? []
    list.push(view)
    byOrganization.set(view.organizationId, list)
  }
  for (const list of byOrganization.values()) {
    for (let start = 0; start < list.length; start += BATCH_ROWS) {
      chunks.push(list.slice(start, start + BATCH_ROWS))
    }
  }
  for (const [index, chunk] of chunks.entries()) {
    const organizationId = chunk[0]?.organizationId as string
    try {
      writtenSinceAnalyze += await withTenant(organizationId, (tx) =>
        recordCardViews(tx, organizationId, chunk),
      )
    } catch (error) {
      pending = chunks.slice(index).flat().concat(pending)
      throw error
    }
  }
  await analyzeEmbeddedViews()
}

async function analyzeEmbeddedViews() {
  const handle = getDatabaseHandle()
  if (handle.driver !== 'pglite' || writtenSinceAnalyze < ANALYZE_AFTER_ROWS) return
  if (Date.now() - lastAnalyze < ANALYZE_EVERY_MS) return
  writtenSinceAnalyze = 0
  lastAnalyze = Date.now()
  await handle.db.execute(sql`analyze card_views, card_view_hours`).catch(() => {})
}
