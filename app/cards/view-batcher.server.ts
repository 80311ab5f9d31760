// Card views of cached pages, written in batches off the request path (ADR 021): a hit costs a
// keyed hash and a push, and a flush writes each organization's views with one statement in
// its own tenant transaction. A view is not lost: a failed flush keeps its rows for the next
// one, and shutdown flushes what is left before the database closes.

import { sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import {
  type DeviceClass,
  REPEAT_WINDOW_MINUTES,
  recordCardViews,
} from '#app/models/card-views.server'
import { getDatabaseHandle, withTenant } from '#drizzle/db.server'

type PendingView = {
  organizationId: string
  cardId: string
  visitorHash: string
  deviceClass: DeviceClass
  viewedAt: Date
}

const flushMs = () => Number(process.env.VIEW_FLUSH_MS ?? 1_000)
const BATCH_ROWS = 500
// Beyond this many unwritten views (a database down for long), the oldest are dropped and
// the count is logged, rather than the process growing without bound.
const MAX_PENDING = 200_000

// PGlite has no autovacuum: without fresh statistics after a burst of views its planner reads a
// busy card's views by a bitmap scan and a sort (40 ms at 100,000 views) instead of the index.
// Postgres's autovacuum analyzes on its own (and the app login may not).
const ANALYZE_AFTER_ROWS = 5_000
const ANALYZE_EVERY_MS = 10_000
let writtenSinceAnalyze = 0
let lastAnalyze = 0

let pending: PendingView[] = []
let timer: NodeJS.Timeout | null = null
let flushing: Promise<void> | null = null
let log: (message: string) => void = (message) => console.warn(message)

// A repeat within the window is not a view (as in recordCardView): most repeats stop here,
// and the insert's own check catches those another process saw.
const recentVisitors = new LRUCache<string, true>({
  max: 100_000,
  ttl: REPEAT_WINDOW_MINUTES * 60_000,
})

export function setViewBatchLog(logger: (message: string) => void) {
  log = logger
}

export function queueCardView(view: Omit<PendingView, 'viewedAt'>) {
  // The hash alone is the key: it is keyed by the card already (and 32 characters, not 106,
  // which at 100,000 visitors is tens of megabytes of resident memory).
  if (recentVisitors.has(view.visitorHash)) return
  recentVisitors.set(view.visitorHash, true)
  pending.push({ ...view, viewedAt: new Date() })
  if (pending.length > MAX_PENDING) {
    const dropped = pending.length - MAX_PENDING
    pending = pending.slice(dropped)
    log(`card views: ${dropped} dropped, the database has not accepted writes for a while`)
  }
  // Under a burst, a full batch goes at once: views queued for a whole second would outlive the
  // young generation and grow the heap by hundreds of megabytes at 20,000 views a second.
  if (pending.length >= BATCH_ROWS && !flushing) {
    void flushCardViews().catch(() => {})
    return
  }
  timer ??= setTimeout(() => {
    timer = null
    void flushCardViews().catch(() => {})
  }, flushMs())
  timer.unref()
}

export function pendingCardViews() {
  return pending.length
}

/** Writes every queued view; concurrent callers share one flush. */
export function flushCardViews(): Promise<void> {
  // Assigned before it can settle, and cleared only once settled: a flush that finds nothing to
  // write must not leave a settled promise behind as if a flush were still running.
  flushing ??= drain().finally(() => {
    flushing = null
  })
  return flushing
}

async function drain() {
  while (pending.length > 0) {
    const batch = pending
    pending = []
    await writeViews(batch)
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
      const unwritten = chunks.slice(index).flat()
      pending = unwritten.concat(pending)
      log(`card views: ${unwritten.length} not written yet (${await reasonOf(error)})`)
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

/** withTenant answers an unreachable database with a 503 Response: say what it was. */
async function reasonOf(error: unknown) {
  if (error instanceof Response) return `${error.status} ${await error.text().catch(() => '')}`
  return error instanceof Error ? error.message : String(error)
}
