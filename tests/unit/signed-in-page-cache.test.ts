// The signed-in page cache's store (ADR 109): what it keeps of an answer, and concurrent misses
// of one key rendered once.
import { expect, test } from 'vitest'
import {
  joinRender,
  lookupSignedInPage,
  renderedSignedInPage,
  storeSignedInPage,
} from '#app/cache/signed-in-page-cache.server'

const html = (nonce: string) =>
  Buffer.from(`<html><body><script nonce="${nonce}">window.x=1</script></body></html>`)

const answer = (overrides: Partial<Parameters<typeof storeSignedInPage>[1]> = {}) => ({
  status: 200,
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "script-src 'strict-dynamic' 'nonce-abc'",
    'cache-control': 'private, no-store',
  },
  body: html('abc'),
  nonce: 'abc',
  ...overrides,
})

test('a 200 that sets no cookie is kept, its nonce replaced by its scripts’ hashes', () => {
  storeSignedInPage('kept', answer())
  const page = lookupSignedInPage('kept')
  expect(page?.identity.toString()).not.toContain('nonce=')
  const policy = page?.headers.find(([name]) => name === 'content-security-policy')?.[1]
  expect(policy).toMatch(/^script-src 'strict-dynamic' 'sha256-[A-Za-z0-9+/=]+'$/)
  expect(page?.headers).toContainEqual(['cache-control', 'private, no-store'])
})

test('an answer that sets a cookie, or is not a 200, is not kept', () => {
  storeSignedInPage('toast', answer({ headers: { ...answer().headers, 'set-cookie': 'toast=' } }))
  storeSignedInPage('redirect', answer({ status: 302 }))
  expect(lookupSignedInPage('toast')).toBeUndefined()
  expect(lookupSignedInPage('redirect')).toBeUndefined()
})

test('concurrent misses of one key: the first renders, the others wait for what it stored', async () => {
  const first = joinRender('busy')
  const second = joinRender('busy')
  expect('release' in first).toBe(true)
  expect('wait' in second).toBe(true)
  expect('release' in joinRender('another key')).toBe(true)
  let settled = false
  if ('wait' in second) void second.wait.then(() => (settled = true))
  await Promise.resolve()
  expect(settled).toBe(false)
  storeSignedInPage('busy', answer())
  if ('release' in first) first.release()
  await Promise.resolve()
  expect(settled).toBe(true)
  expect(renderedSignedInPage('busy')).toBeDefined()
  // Released, the key renders afresh next time (a page not offered, or gone after its TTL).
  expect('release' in joinRender('busy')).toBe(true)
})
