// Tracing is off unless configured, and off costs nothing: no module of the SDK or of its API
// is loaded until startTracing is called (ADR 097).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { tracingConfigured } from '#app/observability/tracing.server'

test('on with an OTLP endpoint or a named exporter; off otherwise, or when turned off', () => {
  expect(tracingConfigured({})).toBe(false)
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false)
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true)
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(
    true,
  )
  expect(tracingConfigured({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true)
  expect(
    tracingConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'x' }),
  ).toBe(false)
  expect(tracingConfigured({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false)
})

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sources(file)
    return /\.tsx?$/.test(name) ? [file] : []
  })
}

test('no module of the app or the server imports OpenTelemetry but by a dynamic import', () => {
  const staticImports = [...sources('app'), ...sources('drizzle'), 'server.ts'].filter((file) =>
    /^import\s+(?!type\b)[^;]*from\s+'@opentelemetry\//m.test(readFileSync(file, 'utf8')),
  )
  expect(staticImports).toEqual([])
  expect(readFileSync('app/observability/tracing.server.ts', 'utf8')).toContain(
    "import('@opentelemetry/sdk-node')",
  )
})
