import { expect, test } from 'vitest'
import { safeRedirectPath } from '#app/auth/redirect'

test.each([
  ['/dashboard/end-user', '/dashboard/end-user'],
  ['/card/abc?connect=1', '/card/abc?connect=1'],
  ['/a/../b', '/b'],
  ['/%0a', '/%0a'],
])('keeps same-origin path %s', (input, expected) => {
  expect(safeRedirectPath(input)).toBe(expected)
})

test.each([
  ['//evil.test'],
  ['https://evil.test'],
  ['/\\evil.test'],
  ['\\\\evil.test'],
  ['javascript:alert(1)'],
  [' //evil.test'],
  ['/\t/evil.test'],
  [''],
  [undefined],
  [42],
  ['evil.test'],
  // Paths that only become protocol-relative once normalised (outside probe).
  ['/..//evil.com'],
  ['/.//evil.com'],
  ['/%2e%2e//evil.com'],
  ['/%2E%2E//evil.com'],
  ['/./..//evil.com'],
  ['/a/../..//evil.com'],
  ['/.%2e//evil.com'],
])('refuses %j', (input) => {
  expect(safeRedirectPath(input)).toBeNull()
})
