// What an operator watches (issue 44 point 5, ADR 097), below server.ts: the request observer
// (trace id in `traceresponse` and in the log, route-labelled request metrics), the metrics'
// own listener and their series after real work, the slow-query log (threshold 0, no timing),
// and OpenTelemetry spans for a request, its database work and a job run (in-memory exporter).
// server.ts's own wiring (the token on the main port, readiness at shutdown) is
// e2e/observability.spec.ts's.
import http, { type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { tracing } from '@opentelemetry/sdk-node'
import { sql } from 'drizzle-orm'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CACHE_TAG_HEADER, lookupPage, storePage } from '#app/cache/page-cache.server'
import { queueCardView } from '#app/cards/view-batcher.server'
import { runNextJob } from '#app/jobs/worker.server'
import { insertJob } from '#app/models/jobs.server'
import { labelAnswer, requestObserver, startMetricsServer } from '#app/observability/http.server'
import { metrics, metricsText, resetMetricsForTests } from '#app/observability/metrics.server'
import { routeLabeller } from '#app/observability/route-label'
import { currentTraceId, runInTrace, traceFor } from '#app/observability/trace-context'
import {
  startRequestTrace,
  startTracing,
  stopTracing,
  tracingOn,
} from '#app/observability/tracing.server'
import { requestLogger } from '#app/utils/request-log'
import {
  type SlowWork,
  setSlowQueryLog,
  setSlowQueryMsForTests,
  withDatabase,
  withTenant,
} from '#drizzle/db.server'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'

const manifest = {
  root: { id: 'root', path: '' },
  'routes/_index': { id: 'routes/_index', parentId: 'root', index: true },
  'routes/c.$slug': { id: 'routes/c.$slug', parentId: 'root', path: 'c/:slug' },
  'routes/$': { id: 'routes/$', parentId: 'root', path: '*' },
}

/** A server shaped like server.ts's: the observer around a handler that logs through req.log. */
async function startObservedServer(lines: Record<string, unknown>[]) {
  const logger = pino(
    {
      mixin() {
        const traceId = currentTraceId()
        return traceId ? { trace_id: traceId } : {}
      },
    },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        done()
      },
    }),
  )
  const logRequests = requestLogger(logger)
  const paths = new WeakMap<IncomingMessage, string>()
  const observe = requestObserver({
    routeOf: routeLabeller(manifest),
    pathOf: (req) => paths.get(req) ?? '',
    recordMetrics: true,
  })
  const server = http.createServer((req, res) =>
    observe(req, res, () => {
      paths.set(req, (req.url ?? '').split('?')[0] ?? '')
      logRequests(req, res, () => {
        // Later, as a loader's await would be: the trace is still the request's.
        setTimeout(() => {
          ;(req as IncomingMessage & { log: pino.Logger }).log.info('inside the loader')
          if (req.url === '/cached') labelAnswer(res, 'page-cache')
          res.writeHead(req.url?.startsWith('/c/') ? 200 : 404, { 'content-type': 'text/plain' })
          res.end('ok')
        }, 0)
      })
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { server, port }
}

function get(port: number, path: string, headers: http.OutgoingHttpHeaders = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk) => {
            body += chunk
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        })
        .on('error', reject)
    },
  )
}

function withResolvers<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok
    reject = fail
  })
  return { promise, resolve, reject }
}

/** Resolves once the server has finished with every request (their 'close' has run). */
const drained = () => new Promise((resolve) => setImmediate(resolve))

describe('requests', () => {
  const lines: Record<string, unknown>[] = []
  let observed: Awaited<ReturnType<typeof startObservedServer>>
  beforeAll(async () => {
    resetMetricsForTests()
    observed = await startObservedServer(lines)
  })
  afterAll(() => new Promise((resolve) => observed.server.close(resolve)))

  test('a caller’s traceparent is continued: the answer names it, and so does every log line', async () => {
    const answer = await get(observed.port, '/c/olivia-4f2a', {
      traceparent: `00-${TRACE}-${PARENT}-01`,
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.traceresponse).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`))
    await drained()
    const ours = lines.filter((line) => line.trace_id === TRACE)
    expect(ours.map((line) => line.msg)).toEqual(['inside the loader', 'request completed'])
    // Once per line, not twice (pino would write a duplicate key if both the child and the
    // mixin named it).
    expect(JSON.stringify(ours[1]).match(/"trace_id"/g)).toHaveLength(1)
  })

  test('without a valid traceparent each request gets a trace of its own', async () => {
    const first = await get(observed.port, '/c/one', { traceparent: 'garbage' })
    const second = await get(observed.port, '/c/two')
    const idOf = (header: unknown) => String(header).split('-')[1]
    expect(idOf(first.headers.traceresponse)).toMatch(/^[0-9a-f]{32}$/)
    expect(idOf(first.headers.traceresponse)).not.toBe(idOf(second.headers.traceresponse))
    await drained()
    expect(lines.some((line) => line.trace_id === idOf(second.headers.traceresponse))).toBe(true)
  })

  test('the page cache never keeps an answer’s traceresponse: a hit names its own request', () => {
    const page = storePage('observability:trace', {
      status: 200,
      headers: {
        [CACHE_TAG_HEADER]: 'all',
        'content-type': 'text/plain',
        traceresponse: `00-${TRACE}-${PARENT}-01`,
      },
      body: Buffer.from('ok'),
      nonce: '',
    })
    expect(page?.headers.map(([name]) => name)).toContain('content-type')
    expect(page?.headers.map(([name]) => name)).not.toContain('traceresponse')
  })

  test('requests are counted and timed by route, never by the path they named', async () => {
    await get(observed.port, '/no/such/page')
    await get(observed.port, '/cached')
    await drained()
    const { body, contentType } = await metricsText()
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(body).toMatch(
      /brandcard_http_requests_total\{route="routes\/c\.\$slug",method="GET",status_class="2xx"\} [3-9]/,
    )
    expect(body).toContain(
      'brandcard_http_requests_total{route="routes/$",method="GET",status_class="4xx"} 1',
    )
    expect(body).toContain(
      'brandcard_http_requests_total{route="page-cache",method="GET",status_class="4xx"} 1',
    )
    expect(body).toMatch(
      /brandcard_http_request_duration_seconds_bucket\{le="\+Inf",route="routes\/c\.\$slug",method="GET",status_class="2xx"\} \d/,
    )
    expect(body).not.toContain('olivia')
    expect(body).not.toContain('no/such')
  })
})

describe('the series of the work behind the requests', () => {
  test('database units, the job queue, the page cache, the view batch and delivery failures', async () => {
    resetMetricsForTests()
    const organization = await makeOrganization()
    const user = await makeUser(organization.id)
    const card = await makeCard(organization.id, user.id)
    await withTenant(organization.id, (tx) => tx.execute(sql`select 1`))
    await withDatabase((tx) =>
      insertJob(tx, { name: 'email.send', payload: { outboxId: 'x' }, runAt: new Date(0) }),
    )
    lookupPage('no such page')
    queueCardView({
      organizationId: organization.id,
      cardId: card.id,
      visitorHash: `metrics-${card.id}`,
      deviceClass: 'desktop',
    })
    metrics.deliveryFailures.labels('webhook', 'false').inc()
    const { body } = await metricsText()
    expect(body).toMatch(/brandcard_db_work_duration_seconds_count\{unit="tenant"\} [1-9]/)
    expect(body).toMatch(/brandcard_db_work_duration_seconds_count\{unit="database"\} [1-9]/)
    // The scrape's own read of the job queue may be one of them.
    expect(body).toMatch(/brandcard_db_work_in_flight [01]\n/)
    expect(body).toMatch(/brandcard_db_pool_max [1-9]/)
    expect(body).toContain('brandcard_job_queue_depth{lane="email",kind="email.send"} 1')
    expect(body).toMatch(
      /brandcard_job_queue_oldest_age_seconds\{lane="email",kind="email.send"\} \d{6,}/,
    )
    expect(body).toMatch(/brandcard_page_cache_misses_total [1-9]/)
    expect(body).toContain('brandcard_view_batch_queued 1')
    expect(body).toMatch(/brandcard_view_batch_lag_seconds \d/)
    expect(body).toContain('brandcard_delivery_failures_total{channel="webhook",final="false"} 1')
  })

  test('their own listener answers GET /metrics and nothing else', async () => {
    const listening = withResolvers<string>()
    const server = startMetricsServer({
      port: 0,
      host: '127.0.0.1',
      onListening: listening.resolve,
      onError: listening.reject,
    })
    try {
      const port = Number((await listening.promise).split(':').at(-1))
      const answer = await get(port, '/metrics')
      expect(answer.status).toBe(200)
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
      expect(answer.body).toContain('# TYPE brandcard_http_requests_total counter')
      expect((await get(port, '/')).status).toBe(404)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('the slow-query log', () => {
  test('a unit over SLOW_QUERY_MS logs once: its statements without their values, its time, the trace', async () => {
    const organization = await makeOrganization()
    const logged: { message: string; fields: SlowWork }[] = []
    setSlowQueryLog((message, fields) => logged.push({ message, fields }))
    setSlowQueryMsForTests(0)
    const secret = 'hunter2-never-logged'
    const trace = traceFor(`00-${TRACE}-${PARENT}-01`)
    await runInTrace(trace, () =>
      withTenant(organization.id, (tx) => tx.execute(sql`select ${secret} as value`)),
    )
    expect(logged).toHaveLength(1)
    const [{ message, fields }] = logged as [(typeof logged)[number]]
    expect(message).toBe('slow database work')
    expect(fields.unit).toBe('tenant')
    expect(fields.trace_id).toBe(TRACE)
    expect(fields.duration_ms).toBeGreaterThanOrEqual(0)
    expect(fields.statements.at(-1)).toBe('select $1 as value')
    expect(fields.statement_count).toBe(fields.statements.length)
    expect(JSON.stringify(fields)).not.toContain(secret)
    expect(JSON.stringify(fields)).not.toContain(organization.id)
  })

  test('below the threshold, or with it off, nothing is logged', async () => {
    const logged: unknown[] = []
    setSlowQueryLog((message) => logged.push(message))
    setSlowQueryMsForTests(60 * 60_000)
    await withDatabase((tx) => tx.execute(sql`select 1`))
    setSlowQueryMsForTests(null)
    await withDatabase((tx) => tx.execute(sql`select 1`))
    expect(logged).toEqual([])
  })
})

describe('tracing', () => {
  const exporter = new tracing.InMemorySpanExporter()
  const processor = new tracing.SimpleSpanProcessor(exporter)
  // An ended span is exported once the resource's asynchronous attributes (the host's id) are
  // known: flushed before the spans are read.
  const finishedSpans = async () => {
    await processor.forceFlush()
    return exporter.getFinishedSpans()
  }
  beforeAll(async () => {
    await startTracing({ spanProcessors: [processor] })
  })
  afterAll(() => stopTracing())

  test('a request continues its caller’s trace; its database work is a child span with the statements', async () => {
    expect(tracingOn()).toBe(true)
    const organization = await makeOrganization()
    const request = startRequestTrace('GET', { traceparent: `00-${TRACE}-${PARENT}-01` })
    expect(request.trace.traceId).toBe(TRACE)
    const done = withResolvers<void>()
    request.run(() => {
      expect(currentTraceId()).toBe(TRACE)
      withTenant(organization.id, (tx) => tx.execute(sql`select ${'secret-value'} as value`)).then(
        () => done.resolve(),
        done.reject,
      )
    })
    await done.promise
    request.end(200, 'routes/c.$slug')
    const spans = (await finishedSpans()).filter((span) => span.spanContext().traceId === TRACE)
    const server = spans.find((span) => span.name === 'GET routes/c.$slug')
    const database = spans.find((span) => span.name === 'db tenant')
    expect(server?.parentSpanContext?.spanId).toBe(PARENT)
    expect(server?.spanContext().spanId).toBe(request.trace.spanId)
    expect(server?.attributes['http.response.status_code']).toBe(200)
    expect(database?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId)
    expect(String(database?.attributes['db.query.text'])).toContain('select $1 as value')
    expect(JSON.stringify(database?.attributes)).not.toContain('secret-value')
  })

  test('a job run is a trace of its own, its database work inside it', async () => {
    exporter.reset()
    await withDatabase((tx) =>
      insertJob(tx, { name: 'media.sweep', idempotencyKey: `trace-${Math.random()}` }),
    )
    let runTrace: string | undefined
    // Jobs of other kinds this file queued are left for the worker's other lanes.
    const ran = await runNextJob(
      {
        'media.sweep': {
          async run() {
            runTrace = currentTraceId()
            await withDatabase((tx) => tx.execute(sql`select 1`))
          },
        },
      },
      () => {},
      { kinds: { only: ['media.sweep'] } },
    )
    expect(ran).toBe(true)
    const spans = await finishedSpans()
    const job = spans.find((span) => span.name === 'job media.sweep')
    expect(job).toBeDefined()
    expect(job?.parentSpanContext).toBeUndefined()
    expect(job?.spanContext().traceId).toBe(runTrace)
    const inside = spans.filter(
      (span) =>
        span.name === 'db database' && span.parentSpanContext?.spanId === job?.spanContext().spanId,
    )
    expect(inside).toHaveLength(1)
  })
})
