import { expect, test } from 'vitest'
import {
  isApiRequest,
  isOneClickUnsubscribe,
  isSameOriginMutation,
  isScimRequest,
  isStripeWebhook,
  isWalletWebService,
} from '#app/auth/origin'

test('reads are never blocked', () => {
  expect(isSameOriginMutation('GET', undefined, 'acme.localhost:3000', 'http')).toBe(true)
  expect(isSameOriginMutation('HEAD', 'https://evil.test', 'acme.localhost:3000', 'http')).toBe(
    true,
  )
})

test.each([
  ['http://acme.localhost:3000', 'acme.localhost:3000', 'http'],
  ['http://ACME.localhost:3000', 'Acme.localhost:3000', 'http'],
  ['https://cards.acme.test', 'cards.acme.test', 'https'],
  ['https://cards.acme.test', 'cards.acme.test:443', 'https'],
  ['http://acme.localhost', 'acme.localhost:80', 'http'],
] as const)('a mutation from %s to %s over %s passes', (origin, host, scheme) => {
  expect(isSameOriginMutation('POST', origin, host, scheme)).toBe(true)
})

test.each([
  ['https://evil.test', 'acme.localhost:3000', 'http'],
  ['http://globex.localhost:3000', 'acme.localhost:3000', 'http'],
  ['http://acme.localhost:4000', 'acme.localhost:3000', 'http'],
  ['null', 'acme.localhost:3000', 'http'],
  [undefined, 'acme.localhost:3000', 'http'],
  ['not a url', 'acme.localhost:3000', 'http'],
  // The scheme counts (outside probe): https on an http site, and the reverse.
  ['https://acme.localhost:3000', 'acme.localhost:3000', 'http'],
  ['http://cards.acme.test', 'cards.acme.test', 'https'],
  // Not a serialized origin: userinfo (the URL parser drops it), a path, a query, a fragment.
  ['http://user@acme.localhost:3000', 'acme.localhost:3000', 'http'],
  ['http://user:pw@acme.localhost:3000', 'acme.localhost:3000', 'http'],
  ['http://evil.test@acme.localhost:3000', 'acme.localhost:3000', 'http'],
  ['http://acme.localhost:3000/', 'acme.localhost:3000', 'http'],
  ['http://acme.localhost:3000/x', 'acme.localhost:3000', 'http'],
  ['http://acme.localhost:3000?x', 'acme.localhost:3000', 'http'],
  ['http://acme.localhost:3000#x', 'acme.localhost:3000', 'http'],
  [' http://acme.localhost:3000', 'acme.localhost:3000', 'http'],
] as const)('a mutation from %s to %s over %s is refused', (origin, host, scheme) => {
  expect(isSameOriginMutation('POST', origin, host, scheme)).toBe(false)
})

test('only a POST to the one-click unsubscribe path without an Origin skips the check', () => {
  expect(isOneClickUnsubscribe('POST', '/email/unsubscribe', undefined)).toBe(true)
  expect(isOneClickUnsubscribe('post', '/email/unsubscribe', undefined)).toBe(true)
  // A browser's request names its origin: it must pass the same-origin check like any other.
  expect(isOneClickUnsubscribe('POST', '/email/unsubscribe', 'https://evil.test')).toBe(false)
  expect(isOneClickUnsubscribe('POST', '/email/unsubscribe', 'null')).toBe(false)
  for (const path of ['/email/unsubscribe/', '/email/unsubscribe/x', '/email', '/profile', '/']) {
    expect(isOneClickUnsubscribe('POST', path, undefined), path).toBe(false)
  }
  for (const method of ['PUT', 'DELETE', 'PATCH']) {
    expect(isOneClickUnsubscribe(method, '/email/unsubscribe', undefined), method).toBe(false)
  }
})

test("Apple's pass web service: devices' POST and DELETE without an Origin, below its path only", () => {
  const registration = '/wallet/apple/v1/devices/d/registrations/pass.x/serial'
  expect(isWalletWebService('POST', registration, undefined)).toBe(true)
  expect(isWalletWebService('delete', registration, undefined)).toBe(true)
  expect(isWalletWebService('POST', '/wallet/apple/v1/log', undefined)).toBe(true)
  // A browser's request names its origin: it goes through the same-origin check.
  expect(isWalletWebService('POST', registration, 'https://evil.test')).toBe(false)
  expect(isWalletWebService('POST', registration, 'null')).toBe(false)
  for (const path of ['/wallet/apple/v1', '/wallet/apple/', '/wallet', '/card/x', '/profile']) {
    expect(isWalletWebService('POST', path, undefined), path).toBe(false)
  }
  for (const method of ['PUT', 'PATCH']) {
    expect(isWalletWebService(method, registration, undefined), method).toBe(false)
  }
})

test("Stripe's webhook is exempt only on its path, only for POST without an Origin", () => {
  expect(isStripeWebhook('POST', '/api/stripe/webhook', undefined)).toBe(true)
  expect(isStripeWebhook('POST', '/api/stripe/webhook', 'https://evil.test')).toBe(false)
  expect(isStripeWebhook('DELETE', '/api/stripe/webhook', undefined)).toBe(false)
  expect(isStripeWebhook('POST', '/api/stripe/webhook/x', undefined)).toBe(false)
})

test("SCIM (ADR 089): writes below /scim/v2/ without an Origin pass, a browser's do not", () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    expect(isScimRequest(method, '/scim/v2/Users', undefined)).toBe(true)
  }
  expect(isScimRequest('PATCH', '/scim/v2/Users/1', 'https://evil.test')).toBe(false)
  expect(isScimRequest('POST', '/scim/v2', undefined)).toBe(false)
  expect(isScimRequest('POST', '/scim/v1/Users', undefined)).toBe(false)
  expect(isScimRequest('POST', '/dashboard/agency/scim', undefined)).toBe(false)
})

test("the REST API (ADR 092): writes below /api/v1/ without an Origin pass, a browser's do not", () => {
  for (const method of ['POST', 'PATCH', 'DELETE']) {
    expect(isApiRequest(method, '/api/v1/contacts', undefined)).toBe(true)
  }
  expect(isApiRequest('POST', '/api/v1/contacts', 'https://evil.test')).toBe(false)
  expect(isApiRequest('POST', '/api/v1', undefined)).toBe(false)
  expect(isApiRequest('POST', '/api/stripe/webhook', undefined)).toBe(false)
  expect(isApiRequest('POST', '/dashboard/agency/api', undefined)).toBe(false)
})
