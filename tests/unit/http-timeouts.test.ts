import { expect, test } from 'vitest'
import { httpTimeouts } from '#app/utils/http-timeouts'

test('bounds a slow client tightly, and outlives a proxy’s idle keep-alive behind one', () => {
  const direct = httpTimeouts(0)
  expect(direct.headersTimeout).toBe(10_000)
  expect(direct.connectionsCheckingInterval).toBeLessThanOrEqual(1_000)
  expect(direct.requestTimeout).toBeGreaterThan(direct.headersTimeout)
  expect(direct.keepAliveTimeout).toBeLessThanOrEqual(5_000)
  // Caddy keeps idle upstream connections 2 minutes: we must not close one first.
  const behindProxy = httpTimeouts(1)
  expect(behindProxy.keepAliveTimeout).toBeGreaterThan(120_000)
  expect(behindProxy.headersTimeout).toBe(10_000)
})
