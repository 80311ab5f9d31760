// Trace ids (ADR 097): a caller's valid traceparent is continued, anything else starts a new
// trace; the answer names it in `traceresponse`; console lines written meanwhile carry it.
import { expect, test, vi } from 'vitest'
import {
  currentTraceId,
  parseTraceparent,
  runInTrace,
  tagConsoleWithTraceIds,
  traceFor,
  traceresponse,
} from '#app/observability/trace-context'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'

test('a valid traceparent is read, sampled flag included', () => {
  expect(parseTraceparent(`00-${TRACE}-${PARENT}-01`)).toEqual({
    traceId: TRACE,
    parentId: PARENT,
    sampled: true,
  })
  expect(parseTraceparent(`00-${TRACE}-${PARENT}-00`)?.sampled).toBe(false)
  // A later version may add fields; its known ones are still read.
  expect(parseTraceparent(`01-${TRACE}-${PARENT}-01-future`)?.traceId).toBe(TRACE)
})

test.each([
  ['missing', undefined],
  ['two headers', [`00-${TRACE}-${PARENT}-01`, `00-${TRACE}-${PARENT}-01`]],
  ['upper case', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
  ['all-zero trace', `00-${'0'.repeat(32)}-${PARENT}-01`],
  ['all-zero parent', `00-${TRACE}-${'0'.repeat(16)}-01`],
  ['version ff', `ff-${TRACE}-${PARENT}-01`],
  ['version 00 with more', `00-${TRACE}-${PARENT}-01-extra`],
  ['short trace', `00-${TRACE.slice(1)}-${PARENT}-01`],
  ['log injection', `00-${TRACE}-${PARENT}-01\n{"level":60}`],
  ['garbage', 'hello'],
])('%s: not a traceparent', (_name, header) => {
  expect(parseTraceparent(header as string | string[] | undefined)).toBeNull()
})

test('a request continues its caller’s trace with a span of its own, or starts one', () => {
  const continued = traceFor(`00-${TRACE}-${PARENT}-01`)
  expect(continued.traceId).toBe(TRACE)
  expect(continued.spanId).toMatch(/^[0-9a-f]{16}$/)
  expect(continued.spanId).not.toBe(PARENT)
  expect(traceresponse(continued)).toBe(`00-${TRACE}-${continued.spanId}-01`)
  const fresh = traceFor('not one')
  expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/)
  expect(fresh.traceId).not.toBe(TRACE)
  expect(traceresponse(fresh)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/)
})

test('the trace follows the work across awaits, and only it', async () => {
  const trace = traceFor(undefined)
  expect(currentTraceId()).toBeUndefined()
  await runInTrace(trace, async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(currentTraceId()).toBe(trace.traceId)
  })
  expect(currentTraceId()).toBeUndefined()
})

test('console lines written in a trace end with its id; others are left alone', () => {
  const lines: unknown[][] = []
  const fake = {
    log: vi.fn((...args: unknown[]) => lines.push(args)),
    info: vi.fn((...args: unknown[]) => lines.push(args)),
    warn: vi.fn((...args: unknown[]) => lines.push(args)),
    error: vi.fn((...args: unknown[]) => lines.push(args)),
    debug: vi.fn((...args: unknown[]) => lines.push(args)),
  } as unknown as Console
  tagConsoleWithTraceIds(fake)
  tagConsoleWithTraceIds(fake)
  fake.warn('outside %s', 'any trace')
  const trace = traceFor(`00-${TRACE}-${PARENT}-01`)
  runInTrace(trace, () => fake.warn('health check: %s', 'database unavailable'))
  expect(lines).toEqual([
    ['outside %s', 'any trace'],
    [`health check: database unavailable trace_id=${TRACE}`],
  ])
})
