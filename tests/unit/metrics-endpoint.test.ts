// /metrics on the main port (ADR 097): only with METRICS_TOKEN set, only for its bearer.
import { expect, test } from 'vitest'
import { metricsAuthorized } from '#app/observability/http.server'
import { metricsServed } from '#app/observability/metrics.server'

const TOKEN = `${'a'.repeat(20)}metrics-token`

test('the bearer of the token may read the metrics; nobody else', () => {
  expect(metricsAuthorized(`Bearer ${TOKEN}`, TOKEN)).toBe(true)
  expect(metricsAuthorized(`  Bearer ${TOKEN} `, TOKEN)).toBe(true)
  expect(metricsAuthorized(undefined, TOKEN)).toBe(false)
  expect(metricsAuthorized('', TOKEN)).toBe(false)
  expect(metricsAuthorized(TOKEN, TOKEN)).toBe(false)
  expect(metricsAuthorized(`Bearer ${TOKEN}x`, TOKEN)).toBe(false)
  expect(metricsAuthorized(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false)
  expect(metricsAuthorized(`Basic ${TOKEN}`, TOKEN)).toBe(false)
})

test('without a token nobody may, not even one who sends an empty bearer', () => {
  expect(metricsAuthorized('Bearer ', undefined)).toBe(false)
  expect(metricsAuthorized('Bearer ', '')).toBe(false)
  expect(metricsAuthorized('Bearer', '  ')).toBe(false)
})

test('metrics are served when a port or a token is set', () => {
  expect(metricsServed({})).toBe(false)
  expect(metricsServed({ METRICS_PORT: ' ' })).toBe(false)
  expect(metricsServed({ METRICS_PORT: '9464' })).toBe(true)
  expect(metricsServed({ METRICS_TOKEN: TOKEN })).toBe(true)
})
