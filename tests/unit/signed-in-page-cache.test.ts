// The signed-in page cache's store (ADR 109): what it keeps of an answer, concurrent misses of
// one key rendered once, and concurrent reads of one session shared.
import { expect, test } from 'vitest'
import { forgetSession, sharedSessionRead } from '#app/cache/session-cache.server'
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

test("concurrent reads of one session share one, never another organization's, nor one begun before it was forgotten", async () => {
  let reads = 0
  const read = (answer: string) => () => {
    reads++
    return new Promise<string>((resolve) => setTimeout(() => resolve(answer), 5))
  }
  const first = sharedSessionRead('session', 'org-a', read('a'))
  const second = sharedSessionRead('session', 'org-a', read('a again'))
  const foreign = sharedSessionRead('session', 'org-b', read('b'))
  forgetSession('session')
  const afterForgetting = sharedSessionRead('session', 'org-a', read('fresh'))
  expect(await Promise.all([first, second, foreign, afterForgetting])).toEqual([
    'a',
    'a',
    'b',
    'fresh',
  ])
  expect(reads).toBe(3)
})
