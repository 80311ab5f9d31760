// OpenTelemetry tracing (issue 44 point 5, ADR 097): off unless configured. Off, nothing of the
// SDK or of its API is loaded (both are imported dynamically by startTracing), and every helper
// below is one check of a null; on, a request, each unit of database work and each job run gets
// a span, exported where the standard OTEL_* variables say (OTLP over HTTP by default).
import type * as Api from '@opentelemetry/api'
import {
  currentTrace,
  runInTrace,
  type TraceContext,
  traceFor,
} from '#app/observability/trace-context'

type Tracing = {
  api: typeof Api
  tracer: Api.Tracer
  shutdown(): Promise<void>
}

// On globalThis: server.ts starts tracing, the Remix build's modules (a copy of this one) record.
const holder = globalThis as { __brandcardTracing?: { current: Tracing | null } }
holder.__brandcardTracing ??= { current: null }
const state: { current: Tracing | null } = holder.__brandcardTracing

/** Configured when an exporter is named or an OTLP endpoint given, and not turned off. */
export function tracingConfigured(env: Record<string, string | undefined> = process.env) {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim()
  if (exporter === 'none' || env.OTEL_SDK_DISABLED?.trim() === 'true') return false
  return Boolean(
    exporter ||
      env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ||
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim(),
  )
}

export const tracingOn = () => state.current !== null

/**
 * Starts the SDK with traces only: metrics are Prometheus's (app/observability/metrics.server.ts)
 * and logs pino's, so their exporters, which the SDK would otherwise start by default, stay off.
 * Tests pass their own span processors (an in-memory exporter).
 */
export async function startTracing(options: { spanProcessors?: unknown[] } = {}) {
  if (state.current) return
  const [api, sdkNode] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
  ])
  const sdk = new sdkNode.NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() || 'brandcard',
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors as never } : {}),
  })
  sdk.start()
  state.current = {
    api,
    tracer: api.trace.getTracer('brandcard'),
    async shutdown() {
      await sdk.shutdown()
      api.trace.disable()
      api.context.disable()
      api.propagation.disable()
    },
  }
}

/** Exports what is left and stops: the last step of a shutdown, and of a test. */
export async function stopTracing() {
  const current = state.current
  state.current = null
  await current?.shutdown()
}

const traceOf = (span: Api.Span, sampledFallback = false): TraceContext => {
  const context = span.spanContext()
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    sampled: (context.traceFlags & 1) === 1 || sampledFallback,
  }
}

type Attributes = Record<string, string | number | boolean | string[] | undefined>

/**
 * Runs `work` as the span's body: a failure recorded on the span (and thrown on), the span ended
 * however it ends, after `annotate`'s attributes.
 */
async function spanBody<T>(
  api: typeof Api,
  span: Api.Span,
  work: () => Promise<T>,
  annotate?: () => Attributes,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error))
    span.setStatus({ code: api.SpanStatusCode.ERROR })
    throw error
  } finally {
    if (annotate) span.setAttributes(annotate())
    span.end()
  }
}

/**
 * Runs `work` in a child span of whatever is current (a request, a job run). With tracing off it
 * is `work()` itself. `annotate` is called once the work ends, for attributes only known then.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
  annotate?: () => Attributes,
): Promise<T> {
  const current = state.current
  if (!current) return work()
  return current.tracer.startActiveSpan(name, { attributes }, (span) =>
    spanBody(current.api, span, work, annotate),
  )
}

/**
 * A job run: a trace of its own (a root span when tracing is on, else a fresh trace id), so its
 * log lines and slow queries can be found together.
 */
export async function inJobRun<T>(
  kind: string,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  const current = state.current
  if (!current) return runInTrace(traceFor(undefined), work)
  return current.tracer.startActiveSpan(
    `job ${kind}`,
    {
      root: true,
      kind: current.api.SpanKind.CONSUMER,
      attributes: { 'job.kind': kind, ...attributes },
    },
    (span) => runInTrace(traceOf(span), () => spanBody(current.api, span, work)),
  )
}

export type RequestTrace = {
  trace: TraceContext
  /** Runs the request's handling inside its trace (and its span when tracing is on). */
  run(work: () => void): void
  /** Once the answer is sent. */
  end(status: number, route: string): void
}

/** A request's trace: continued from its `traceparent` when valid, else new. */
export function startRequestTrace(
  method: string,
  headers: Record<string, string | string[] | undefined>,
): RequestTrace {
  const current = state.current
  if (!current) {
    const trace = traceFor(headers.traceparent)
    return { trace, run: (work) => runInTrace(trace, work), end: () => {} }
  }
  const { api, tracer } = current
  const parent = api.propagation.extract(api.ROOT_CONTEXT, headers)
  const span = tracer.startSpan(
    method,
    {
      kind: api.SpanKind.SERVER,
      // No path: it may carry a token (ADR 097); the route is named once known.
      attributes: { 'http.request.method': method },
    },
    parent,
  )
  const trace = traceOf(span)
  const context = api.trace.setSpan(parent, span)
  return {
    trace,
    run: (work) => api.context.with(context, () => runInTrace(trace, work)),
    end(status, route) {
      span.updateName(`${method} ${route}`)
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status })
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR })
      span.end()
    },
  }
}

/** The trace id log lines name now (the request's or the job run's). */
export const traceIdNow = () => currentTrace()?.traceId
