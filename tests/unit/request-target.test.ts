// Issue 39 point 3: the guards of server.ts decide on the path the app routes, worked out once
// (app/utils/request-target.ts). What the real server does with these targets is checked over raw
// sockets in e2e/request-targets.spec.ts.
import { expect, test } from 'vitest'
import { isWalletWebService } from '#app/auth/origin'
import { requestTarget } from '#app/utils/request-target'

test.each([
  // Encoded dot segments are dot segments to the URL parser, and so to Remix's router.
  ['/wallet/apple/v1/%2e%2e/%2e%2e/%2e%2e/auth/logout', '/auth/logout', '/auth/logout'],
  ['/media/%2e%2e/dashboard', '/dashboard', '/dashboard'],
  ['/media/%2E%2e/auth/register?x=1', '/auth/register?x=1', '/auth/register'],
  ['/assets/.%2e/profile', '/profile', '/profile'],
  ['/media/..\\dashboard', '/dashboard', '/dashboard'],
  // The router decodes each segment before matching: the guards see what it matches.
  ['/%61uth/logout', '/%61uth/logout', '/auth/logout'],
  // An encoded slash stays within its segment: no traversal through it.
  ['/media/..%2fdashboard', '/media/..%2fdashboard', '/media/..%2Fdashboard'],
  ['/card/x?s=q', '/card/x?s=q', '/card/x'],
] as const)('%s is routed as %s', (raw, url, path) => {
  expect(requestTarget(raw)).toEqual({ url, path })
})

test.each([
  'http://alpha.localhost:3000/auth/login',
  'https://alpha.localhost/',
  '*',
  'alpha.localhost:443',
  '',
])('%s is not a path: refused (400)', (raw) => {
  expect(requestTarget(raw)).toBeNull()
})

test('the wallet prefix does not exempt a path that leaves it', () => {
  const raw = '/wallet/apple/v1/%2e%2e/%2e%2e/%2e%2e/auth/logout'
  // What the raw path looked like to the guard before.
  expect(isWalletWebService('POST', raw, undefined)).toBe(true)
  expect(isWalletWebService('POST', requestTarget(raw)?.path ?? '', undefined)).toBe(false)
})
