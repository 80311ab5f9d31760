// The per-request HMAC without an Hmac object (app/utils/keyed-hash.server.ts): the same bytes
// as node:crypto's createHmac for keys shorter than, as long as and longer than SHA-256's block.
import { createHmac } from 'node:crypto'
import { expect, test } from 'vitest'
import { hmacSha256Hex } from '#app/utils/keyed-hash.server'

const reference = (secret: string, message: string) =>
  createHmac('sha256', secret).update(message).digest('hex')

test.each([
  ['a short key', 'k'],
  ['a key of one block', 'k'.repeat(64)],
  ['a key longer than a block', 'test-app-secret-'.repeat(9)],
  ['a key of multibyte characters', 'clé secrète ✓'],
])('%s gives what createHmac gives', (_, secret) => {
  for (const message of ['', '203.0.113.7\nMozilla/5.0\ncard-id', 'é'.repeat(300)]) {
    expect(hmacSha256Hex(secret, message)).toBe(reference(secret, message))
  }
})

test('another key, another value', () => {
  expect(hmacSha256Hex('one key', 'same message')).not.toBe(
    hmacSha256Hex('another key', 'same message'),
  )
})
