// What server.ts does for every request on behalf of the operator (ADR 097): the trace it
// belongs to (its `traceresponse` header, the id its log lines carry) and, when metrics are
// served, its count and latency under the route that answered it. Also the two ways to read the
// metrics: a listener of their own (METRICS_PORT) or /metrics behind a bearer token.
import { hash, timingSafeEqual } from 'node:crypto'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { metricsText, recordRequest } from '#app/observability/metrics.server'
import { TRACE_RESPONSE_HEADER, traceresponse } from '#app/observability/trace-context'
import { startRequestTrace } from '#app/observability/tracing.server'

const ROUTE = Symbol('brandcard.route-label')
type Labelled = ServerResponse & { [ROUTE]?: string }

/**
 * Names the answer's route for the metrics when no Remix route answered it: the page cache, a
 * static file, the metrics themselves.
 */
export function labelAnswer(res: ServerResponse, route: string) {
  ;(res as Labelled)[ROUTE] = route
}

export type RequestObserverOptions = {
  /** The route id answering a routed path (app/observability/route-label.ts). */
  routeOf(path: string): string
  /** The path the app routes the request by (set by server.ts before anything reads it). */
  pathOf(req: IncomingMessage): string
  /** Count and time requests (metrics are served). */
  recordMetrics: boolean
}

/** Wraps the handling of each request: `handle` runs inside the request's trace. */
export function requestObserver(options: RequestObserverOptions) {
  return (req: IncomingMessage, res: ServerResponse, handle: () => void) => {
    const started = performance.now()
    const request = startRequestTrace(req.method ?? 'GET', req.headers)
    res.setHeader(TRACE_RESPONSE_HEADER, traceresponse(request.trace))
    // 'close' comes once, whether the answer was sent whole or the client went away.
    res.once('close', () => {
      const route = (res as Labelled)[ROUTE] ?? options.routeOf(options.pathOf(req))
      // An answer never begun (the client left first) is counted as the 499 nginx would log.
      const status = res.headersSent ? res.statusCode : 499
      if (options.recordMetrics) {
        recordRequest(route, req.method, status, (performance.now() - started) / 1000)
      }
      request.end(status, route)
    })
    request.run(handle)
  }
}

const digest = (text: string) => hash('sha256', text, 'buffer')

/**
 * Whether the request may read /metrics on the main port: only with METRICS_TOKEN set and sent
 * as `Authorization: Bearer <token>`, compared in constant time (both sides hashed first, so
 * neither the token's length nor its prefix shows in the timing).
 */
export function metricsAuthorized(authorization: string | undefined, token: string | undefined) {
  const expected = token?.trim()
  if (!expected || !authorization) return false
  return timingSafeEqual(digest(authorization.trim()), digest(`Bearer ${expected}`))
}

/** Writes the registry's text. */
export async function answerMetrics(res: ServerResponse) {
  try {
    const { contentType, body } = await metricsText()
    res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' })
    res.end(body)
  } catch (error) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
    res.end(`metrics failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The metrics' own listener (METRICS_PORT): GET /metrics, nothing else. */
export function startMetricsServer(options: {
  port: number
  host: string
  onListening?: (address: string) => void
  onError?: (error: Error) => void
}) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if ((req.method === 'GET' || req.method === 'HEAD') && path === '/metrics') {
      void answerMetrics(res)
      return
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
    res.end('Not found: the metrics are at /metrics')
  })
  server.on('error', (error) => options.onError?.(error))
  server.listen(options.port, options.host, () => {
    const address = server.address()
    const where = typeof address === 'object' && address ? `${address.address}:${address.port}` : ''
    options.onListening?.(where)
  })
  // A scrape in progress never holds the process at shutdown.
  server.unref()
  return server
}
