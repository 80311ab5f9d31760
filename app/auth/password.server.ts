import { availableParallelism } from 'node:os'
import { hash, verify } from '@node-rs/argon2'
import pLimit from 'p-limit'

// OWASP's argon2id baseline: 19 MiB memory, 2 iterations, 1 lane.
export const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, which isolatedModules cannot read)
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const

/**
 * Each hash holds its 19 MiB while it runs in one of libuv's threads (four unless
 * UV_THREADPOOL_SIZE says otherwise), and a hash is all CPU: more at once than the machine has
 * cores finish no sooner, hold more memory, and keep file and DNS work waiting for a thread. A
 * burst of sign-ins held four at a time on two cores, about 80 MB above the pages around it
 * (docs/performance.md, 2026-12-05).
 */
export const HASHES_AT_ONCE = Math.max(1, Math.min(4, availableParallelism()))
const hashing = pLimit(HASHES_AT_ONCE)

/** Hashes being computed now and waiting for a turn (the tests read them). */
export const passwordHashes = () => ({
  running: hashing.activeCount,
  waiting: hashing.pendingCount,
})

export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, ARGON2_OPTIONS))
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => verify(passwordHash, password))
  } catch {
    return false
  }
}
