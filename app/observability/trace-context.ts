// The trace a request or a job run belongs to (ADR 097): its id comes from the caller's W3C
// `traceparent` when that header is valid, else is made here (or by OpenTelemetry's span when
// tracing is on, app/observability/tracing.server.ts). It travels with the work in an
// AsyncLocalStorage, so every log line written meanwhile (pino's mixin in server.ts, console
// lines, the slow-query log) can name it without anyone passing it down.
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { format } from 'node:util'

export type TraceContext = {
  /** 32 lowercase hex digits. */
  traceId: string
  /** This process's span of the work: 16 hex digits. */
  spanId: string
  sampled: boolean
}

// version-traceid-parentid-flags, lowercase hex only (Trace Context §3.2). A later version may
// append fields after a dash, which a parser of version 00 must ignore.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/
const ZERO_TRACE = '0'.repeat(32)
const ZERO_SPAN = '0'.repeat(16)

export type ParentTrace = { traceId: string; parentId: string; sampled: boolean }

/** The caller's trace, or null when the header is missing or not a valid traceparent. */
export function parseTraceparent(header: string | string[] | undefined): ParentTrace | null {
  // Two traceparent headers are ambiguous: the spec says to start a new trace.
  if (typeof header !== 'string' || header.length > 512) return null
  const match = TRACEPARENT.exec(header.trim())
  if (!match) return null
  const [, version, traceId = '', parentId = '', flags = '00', rest] = match
  if (version === 'ff') return null
  if (version === '00' && rest !== undefined) return null
  if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return null
  return { traceId, parentId, sampled: (Number.parseInt(flags, 16) & 1) === 1 }
}

export const newTraceId = () => randomBytes(16).toString('hex')
export const newSpanId = () => randomBytes(8).toString('hex')

/** This server's part of the caller's trace, or a new trace. */
export function traceFor(header: string | string[] | undefined): TraceContext {
  const parent = parseTraceparent(header)
  return {
    traceId: parent?.traceId ?? newTraceId(),
    spanId: newSpanId(),
    sampled: parent?.sampled ?? false,
  }
}

/** The answer's header naming its trace (ADR 097 says why this one and not X-Trace-Id). */
export const TRACE_RESPONSE_HEADER = 'traceresponse'

/**
 * The response header naming the trace (W3C Trace Context Level 2's `traceresponse`): the same
 * shape as traceparent, with this server's span as the parent a caller's tools link to.
 */
export function traceresponse(trace: TraceContext) {
  return `00-${trace.traceId}-${trace.spanId}-${trace.sampled ? '01' : '00'}`
}

// On globalThis: server.ts and the Remix build each bundle their own copy of this module, and
// both must read the one store the request runs in.
const holder = globalThis as { __brandcardTrace?: AsyncLocalStorage<TraceContext> }
holder.__brandcardTrace ??= new AsyncLocalStorage<TraceContext>()
const store: AsyncLocalStorage<TraceContext> = holder.__brandcardTrace

/** Runs `work` (and everything it starts) as part of `trace`. */
export function runInTrace<T>(trace: TraceContext, work: () => T): T {
  return store.run(trace, work)
}

/** The trace of the work running now, if any. */
export function currentTrace(): TraceContext | undefined {
  return store.getStore()
}

export function currentTraceId(): string | undefined {
  return store.getStore()?.traceId
}

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug'
const TAGGED = Symbol.for('brandcard.console-trace-tagged')

/**
 * Lines written with console.* while a trace is current end with ` trace_id=…`: loaders and
 * libraries log that way, outside pino. Formatted first (as console would), so a message with
 * %s placeholders is not shifted by the tag. Idempotent.
 */
export function tagConsoleWithTraceIds(target: Console = console) {
  const marked = target as Console & { [TAGGED]?: true }
  if (marked[TAGGED]) return
  marked[TAGGED] = true
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as ConsoleMethod[]) {
    const original = target[method].bind(target)
    target[method] = (...args: unknown[]) => {
      const traceId = store.getStore()?.traceId
      if (!traceId) return original(...args)
      original(`${format(...args)} trace_id=${traceId}`)
    }
  }
}
