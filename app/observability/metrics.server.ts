// The Prometheus series an operator watches (issue 44 point 5, ADR 097), in one registry: what
// deploy/grafana-dashboard.json queries is checked against it (tests/unit/grafana-dashboard.test.ts).
// Recording is a counter increment or a histogram observe on a label set resolved once, so it
// stays on even when nobody scrapes; what costs a query (the job queue) or a timer (the process
// collectors) runs only when metrics are served (METRICS_PORT or METRICS_TOKEN).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { watchFullCollections } from './heap-after-full-gc.server'

/** How old a scrape-time answer may be before it is asked again: a burst of scrapes costs one. */
const SCRAPE_CACHE_MS = 5_000

export type JobQueueRow = {
  lane: string
  kind: string
  /** Queued jobs whose time has come. */
  due: number
  /** Seconds since the oldest of them came due (0 when none is waiting). */
  oldestSeconds: number
}
export type ViewBatchState = { queued: number; oldestAt: number | null }

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const
const METHODS = ['GET', 'HEAD', 'POST', 'OTHER'] as const

function create() {
  const registry = new Registry()
  const registers = [registry]
  const sources: {
    jobQueue?: () => Promise<JobQueueRow[]>
    viewBatch?: () => ViewBatchState
    poolMax?: () => number
  } = {}
  let queueCache: { at: number; rows: Promise<JobQueueRow[]> } | undefined

  const jobQueue = async () => {
    const read = sources.jobQueue
    if (!read) return []
    const now = Date.now()
    if (!queueCache || now - queueCache.at > SCRAPE_CACHE_MS) {
      queueCache = { at: now, rows: read().catch(() => []) }
    }
    return queueCache.rows
  }

  const metrics = {
    httpRequests: new Counter({
      name: 'brandcard_http_requests_total',
      help: 'HTTP requests answered, by route (Remix route id, page-cache, static, metrics or unrouted), method and status class',
      labelNames: ['route', 'method', 'status_class'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'brandcard_http_request_duration_seconds',
      help: 'Time from the request reaching the server to the last byte of its answer',
      labelNames: ['route', 'method', 'status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    pageCacheHits: new Counter({
      name: 'brandcard_page_cache_hits_total',
      help: 'Requests the page cache answered (ADR 021)',
      registers,
    }),
    pageCacheMisses: new Counter({
      name: 'brandcard_page_cache_misses_total',
      help: 'Cacheable requests the page cache had no answer for',
      registers,
    }),
    signedInPageCacheHits: new Counter({
      name: 'brandcard_signed_in_page_cache_hits_total',
      help: 'Signed-in requests answered from the page stored for their session (ADR 109)',
      registers,
    }),
    signedInPageCacheMisses: new Counter({
      name: 'brandcard_signed_in_page_cache_misses_total',
      help: 'Signed-in requests with no stored page for their key',
      registers,
    }),
    dbInFlight: new Gauge({
      name: 'brandcard_db_work_in_flight',
      help: 'Units of database work (withTenant, withDatabase, withPlatformScope) running now: each holds a pooled connection',
      registers,
    }),
    dbPoolMax: new Gauge({
      name: 'brandcard_db_pool_max',
      help: 'Connections the pool may open (1 on the embedded database)',
      registers,
      collect() {
        this.set(sources.poolMax?.() ?? 0)
      },
    }),
    dbDuration: new Histogram({
      name: 'brandcard_db_work_duration_seconds',
      help: 'Duration of units of database work, retries of a stale connection included',
      labelNames: ['unit'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    }),
    dbSlow: new Counter({
      name: 'brandcard_db_slow_work_total',
      help: 'Units of database work slower than SLOW_QUERY_MS (each logged once)',
      registers,
    }),
    jobQueueDepth: new Gauge({
      name: 'brandcard_job_queue_depth',
      help: 'Queued jobs whose time has come, by lane and kind',
      labelNames: ['lane', 'kind'] as const,
      registers,
      async collect() {
        this.reset()
        for (const row of await jobQueue()) this.set({ lane: row.lane, kind: row.kind }, row.due)
      },
    }),
    jobQueueOldest: new Gauge({
      name: 'brandcard_job_queue_oldest_age_seconds',
      help: 'How long the oldest due job of a lane and kind has waited',
      labelNames: ['lane', 'kind'] as const,
      registers,
      async collect() {
        this.reset()
        for (const row of await jobQueue()) {
          this.set({ lane: row.lane, kind: row.kind }, row.oldestSeconds)
        }
      },
    }),
    jobRuns: new Counter({
      name: 'brandcard_job_runs_total',
      help: 'Job attempts run by this process, by kind and outcome (done, retry, dead)',
      labelNames: ['kind', 'outcome'] as const,
      registers,
    }),
    viewBatchQueued: new Gauge({
      name: 'brandcard_view_batch_queued',
      help: 'Card views waiting in the batched view writer (ADR 021)',
      registers,
      collect() {
        this.set(sources.viewBatch?.().queued ?? 0)
      },
    }),
    viewBatchLag: new Gauge({
      name: 'brandcard_view_batch_lag_seconds',
      help: 'Age of the oldest card view not yet written (0 when none waits)',
      registers,
      collect() {
        const oldest = sources.viewBatch?.().oldestAt
        this.set(oldest ? Math.max(0, (Date.now() - oldest) / 1000) : 0)
      },
    }),
    deliveryFailures: new Counter({
      name: 'brandcard_delivery_failures_total',
      help: 'Failed webhook and email delivery attempts; final="true" when no retry follows',
      labelNames: ['channel', 'final'] as const,
      registers,
    }),
  }
  return {
    registry,
    sources,
    metrics,
    processMetricsStarted: false,
    /** Per route: one counter and histogram child per method and status class, resolved once. */
    requestChildren: new Map<
      string,
      { count: ReturnType<Counter['labels']>; duration: ReturnType<Histogram['labels']> }[]
    >(),
    resetQueueCache() {
      queueCache = undefined
    },
  }
}

type Metrics = ReturnType<typeof create>
// On globalThis: server.ts and the Remix build each bundle their own copy of this module; the
// series must be the same objects whichever copy records them.
const holder = globalThis as { __brandcardMetrics?: Metrics }
holder.__brandcardMetrics ??= create()
const state: Metrics = holder.__brandcardMetrics
export const metrics = state.metrics
export const metricsRegistry = state.registry

/** Whether this process serves its metrics (and so pays for the collectors that cost). */
export function metricsServed(env: Record<string, string | undefined> = process.env) {
  return Boolean(env.METRICS_PORT?.trim() || env.METRICS_TOKEN?.trim())
}

/**
 * Node's own series (resident memory, event-loop lag, GC, handles), once per process, and the heap
 * that survives full collections: the series a leak shows in (heap-after-full-gc.server.ts).
 */
export function startProcessMetrics() {
  if (state.processMetricsStarted) return
  state.processMetricsStarted = true
  collectDefaultMetrics({ register: state.registry })
  const live = new Gauge({
    name: 'nodejs_heap_live_after_full_gc_bytes',
    help: "V8's heap in use just after the last full collection (read every 10 s): what the process keeps alive",
    registers: [state.registry],
  })
  watchFullCollections(({ liveBytes }) => live.set(liveBytes))
}

const methodIndex = (method: string | undefined) =>
  method === 'GET' ? 0 : method === 'HEAD' ? 1 : method === 'POST' ? 2 : 3

/** One answered request: `seconds` from its arrival to its last byte. */
export function recordRequest(
  route: string,
  method: string | undefined,
  status: number,
  seconds: number,
) {
  let children = state.requestChildren.get(route)
  if (!children) {
    children = []
    for (const m of METHODS) {
      for (const cls of STATUS_CLASSES) {
        children.push({
          count: metrics.httpRequests.labels(route, m, cls),
          duration: metrics.httpDuration.labels(route, m, cls),
        })
      }
    }
    state.requestChildren.set(route, children)
  }
  const cls = Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1
  const child = children[methodIndex(method) * STATUS_CLASSES.length + cls]
  child?.count.inc()
  child?.duration.observe(seconds)
}

/** The job queue's depth, read at scrape time (cached for a few seconds). */
export function setJobQueueSource(read: () => Promise<JobQueueRow[]>) {
  state.sources.jobQueue = read
  state.resetQueueCache()
}

export function setViewBatchSource(read: () => ViewBatchState) {
  state.sources.viewBatch = read
}

export function setPoolSizeSource(read: () => number) {
  state.sources.poolMax = read
}

/** The registry's text, as Prometheus reads it. */
export async function metricsText() {
  return { contentType: state.registry.contentType, body: await state.registry.metrics() }
}

/** Tests start from zero; the sources stay. */
export function resetMetricsForTests() {
  state.registry.resetMetrics()
  state.requestChildren.clear()
  state.resetQueueCache()
}
