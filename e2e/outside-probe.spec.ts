// Findings of an outside probe, checked against the real server (server.ts and entry.server run
// here, which the integration tests of loaders and actions do not reach).
import http from 'node:http'
import { expect, test } from '@playwright/test'
import { CARD_OWNER, HOSTS, urlFor } from './fixtures'
import { signInWithSession } from './page-helpers'

/** The port of the server this project runs against. */
const appPort = () => Number(new URL(urlFor(HOSTS.alpha)).port)

function post(host: string, path: string, origin: string, form: Record<string, string>) {
  const body = new URLSearchParams(form).toString()
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: appPort(),
        path,
        method: 'POST',
        headers: {
          host,
          origin,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

test('a POST whose Host is not lower case is answered, not a 500', async () => {
  const port = appPort()
  const form = { email: 'nobody@example.test', password: 'wrong-password' }
  for (const [host, origin] of [
    [`ALPHA.localhost:${port}`, `http://alpha.localhost:${port}`],
    [`Alpha.LocalHost:${port}`, `http://Alpha.LocalHost:${port}`],
  ] as const) {
    expect(await post(host, '/auth/login', origin, form), host).toBe(401)
  }
})

test('the Origin check compares the scheme: https:// does not pass on the http:// site', async () => {
  const port = appPort()
  const host = `${HOSTS.alpha}:${port}`
  const form = { email: 'nobody@example.test', password: 'wrong-password' }
  expect(await post(host, '/auth/login', `https://${host}`, form)).toBe(403)
  expect(await post(host, '/auth/login', `http://${host}`, form)).toBe(401)
})

test('signed-in pages and their data answers (.data) are private, no-store', async ({ page }) => {
  // Fetched by the page itself: Chromium resolves *.localhost, and sends the session cookie.
  const headOf = (path: string) =>
    page.evaluate(async (url) => {
      const response = await fetch(url, { cache: 'no-store' })
      return { status: response.status, cacheControl: response.headers.get('cache-control') }
    }, path)

  const signedOut = await page.goto(urlFor(HOSTS.alpha, '/'))
  expect(signedOut?.headers()['cache-control'] ?? '').not.toContain('private')

  await signInWithSession(page, CARD_OWNER, '/dashboard/end-user')

  // /profile leads to the end user's profile (ADR 078): fetch follows it; its data is asked of
  // the screen itself.
  for (const path of [
    '/',
    '/profile',
    '/dashboard/end-user',
    '/profile/end-user.data',
    '/_root.data',
  ]) {
    expect(await headOf(path), path).toEqual({ status: 200, cacheControl: 'private, no-store' })
  }
  // The document the browser itself loaded, too.
  const document = await page.reload()
  expect(document?.headers()['cache-control']).toBe('private, no-store')
})
