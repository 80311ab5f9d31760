// Issue 39 point 3: what answers a signed-in request is not stored, resource routes included
// (server.ts applies this rule to each answer; e2e/request-targets.spec.ts checks it there).
import { expect, test } from 'vitest'
import { PRIVATE_NO_STORE, signedInCacheControl } from '#app/utils/private-answers'

test.each([
  [undefined, PRIVATE_NO_STORE],
  ['', PRIVATE_NO_STORE],
  ['private, no-cache', PRIVATE_NO_STORE],
  ['no-cache', PRIVATE_NO_STORE],
  ['max-age=600', PRIVATE_NO_STORE],
  ['private, max-age=60', PRIVATE_NO_STORE],
  ['no-store', 'no-store'],
  ['private, no-store', 'private, no-store'],
  // The same bytes for everyone (media, icons, static files): the route's own.
  ['public, max-age=300, must-revalidate', 'public, max-age=300, must-revalidate'],
  ['Public, max-age=3600', 'Public, max-age=3600'],
] as const)('a signed-in answer with %j goes out with %j', (current, expected) => {
  expect(signedInCacheControl(current)).toBe(expected)
})
