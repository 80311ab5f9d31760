// A burst of sign-ins hashes at most as many passwords at once as the machine has cores (four at
// most): each argon2 hash holds 19 MiB while it runs, and more at once finish no sooner.
import { availableParallelism } from 'node:os'
import { expect, test } from 'vitest'
import {
  HASHES_AT_ONCE,
  hashPassword,
  passwordHashes,
  verifyPassword,
} from '#app/auth/password.server'

test('at most one hash per core runs at once, the rest wait their turn and all complete', async () => {
  expect(HASHES_AT_ONCE).toBe(Math.max(1, Math.min(4, availableParallelism())))
  const stored = await hashPassword('correct horse battery staple')
  const attempts = Array.from({ length: HASHES_AT_ONCE * 3 }, (_, index) =>
    verifyPassword(stored, index % 2 === 0 ? 'correct horse battery staple' : 'wrong'),
  )
  // p-limit starts the first ones in a microtask; no hash can finish before a check phase, and
  // each one's end starts the next only a turn of the event loop later: someone is waiting.
  await new Promise((resolve) => setImmediate(resolve))
  const seen = [passwordHashes()]
  let settled = false
  const all = Promise.all(attempts).finally(() => {
    settled = true
  })
  while (!settled) {
    await new Promise((resolve) => setTimeout(resolve, 5))
    seen.push(passwordHashes())
  }
  expect(await all).toEqual(attempts.map((_, index) => index % 2 === 0))
  expect(seen[0]?.waiting).toBeGreaterThan(0)
  for (const { running, waiting } of seen) {
    expect(running).toBeLessThanOrEqual(HASHES_AT_ONCE)
    // Never one waiting while a turn is free.
    if (waiting > 0) expect(running).toBe(HASHES_AT_ONCE)
  }
  expect(passwordHashes()).toEqual({ running: 0, waiting: 0 })
})

test('a hash that fails gives its turn back', async () => {
  // A malformed stored hash makes argon2 throw: a refusal, and the slot is free again.
  const answers = await Promise.all(
    Array.from({ length: HASHES_AT_ONCE + 1 }, () => verifyPassword('not a hash', 'secret')),
  )
  expect(answers).toEqual(Array(HASHES_AT_ONCE + 1).fill(false))
  expect(passwordHashes()).toEqual({ running: 0, waiting: 0 })
})
