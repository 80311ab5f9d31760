// Every state-changing request must come from this very host (server.ts checks Origin).
import http from 'node:http'
import { expect, test } from '@playwright/test'
import { e2ePort } from './fixtures'

function post(host: string, origin: string | undefined, path = '/auth/login', method = 'POST') {
  return new Promise<number>((resolve, reject) => {
    const body = 'email=someone%40example.test&password=whatever1'
    const headers: Record<string, string> = {
      host,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    }
    if (origin) headers.origin = origin
    const req = http.request(
      { host: '127.0.0.1', port: e2ePort(), path, method, headers },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const alphaHost = () => `alpha.localhost:${e2ePort()}`

test('a POST from another site, a sibling tenant or with no Origin is refused', async () => {
  const host = alphaHost()
  expect(await post(host, 'https://evil.test')).toBe(403)
  expect(await post(host, `http://beta.localhost:${e2ePort()}`)).toBe(403)
  expect(await post(host, undefined)).toBe(403)
  expect(await post(host, 'null')).toBe(403)
})

test('a POST from the same host reaches the action', async () => {
  const host = alphaHost()
  expect(await post(host, `http://${host}`)).toBe(401)
})

test("Apple Wallet devices post without an Origin below the pass web service's path only", async () => {
  const host = alphaHost()
  // Past the Origin check: the service itself answers (Apple Wallet is configured with throwaway
  // certificates by e2e/start-server.ts): a form is no log, and a device without the pass's
  // token is unauthorized (tests/integration/apple-wallet.test.ts runs the protocol).
  expect(await post(host, undefined, '/wallet/apple/v1/log')).toBe(400)
  expect(
    await post(host, undefined, '/wallet/apple/v1/devices/d/registrations/p/s', 'DELETE'),
  ).toBe(401)
  // A browser's request names its origin, and is checked as everywhere else.
  expect(await post(host, 'https://evil.test', '/wallet/apple/v1/log')).toBe(403)
  expect(await post(host, undefined, '/wallet/apple/v1')).toBe(403)
  expect(await post(host, undefined, '/wallet/apple/v1/log', 'PUT')).toBe(403)
})
