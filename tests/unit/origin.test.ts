import { expect, test } from 'vitest'
import { isSameOriginMutation } from '#app/auth/origin'

test('reads are never blocked', () => {
  expect(isSameOriginMutation('GET', undefined, 'acme.localhost:3000')).toBe(true)
  expect(isSameOriginMutation('HEAD', 'https://evil.test', 'acme.localhost:3000')).toBe(true)
})

test('a mutation from the same host passes', () => {
  expect(isSameOriginMutation('POST', 'http://acme.localhost:3000', 'acme.localhost:3000')).toBe(
    true,
  )
  expect(isSameOriginMutation('POST', 'http://ACME.localhost:3000', 'Acme.localhost:3000')).toBe(
    true,
  )
})

test.each([
  ['https://evil.test', 'acme.localhost:3000'],
  ['http://globex.localhost:3000', 'acme.localhost:3000'],
  ['http://acme.localhost:4000', 'acme.localhost:3000'],
  ['null', 'acme.localhost:3000'],
  [undefined, 'acme.localhost:3000'],
  ['not a url', 'acme.localhost:3000'],
])('a mutation from %s to %s is refused', (origin, host) => {
  expect(isSameOriginMutation('POST', origin, host)).toBe(false)
})
