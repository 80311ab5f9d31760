// Brute-force protection with counters in Postgres, so limits hold across instances.
// Fixed windows: a limited account or address is free again when its window ends.
import { json } from '@remix-run/node'
import { clearRateLimit, hitRateLimit, peekRateLimit } from '#app/models/rate-limits.server'
import { addressBucket } from '#app/utils/client-address'
import { withDatabase } from '#drizzle/db.server'

const MINUTE = 60_000

export const LIMITS = {
  // Failed sign-ins: per account and per client address.
  signInAccount: { max: 10, windowMs: 15 * MINUTE },
  signInIp: { max: 50, windowMs: 15 * MINUTE },
  // Failed sign-ins from a browser that signed in to the account before (device cookie):
  // counted per cookie instead of per account, so others cannot lock the owner out.
  signInDevice: { max: 10, windowMs: 15 * MINUTE },
  // Reset requests (each sends an email): per account and per address.
  resetAccount: { max: 5, windowMs: 60 * MINUTE },
  resetIp: { max: 20, windowMs: 60 * MINUTE },
  // Sign-ups: every attempt counts (the answer never says whether the email was taken, and a
  // taken one sends its owner an email), per email and per client address.
  registerAccount: { max: 5, windowMs: 60 * MINUTE },
  registerIp: { max: 50, windowMs: 15 * MINUTE },
  // Resent confirmation emails (each sends an email), per account and address.
  confirmResend: { max: 3, windowMs: 60 * MINUTE },
  // Lead forms on public cards, per client address.
  leadIp: { max: 10, windowMs: 60 * MINUTE },
  // The TLS proxy's asks that miss the tenant cache, per asking address (app/domains/ask.server.ts):
  // generous for a proxy meeting many new customer domains at once, a ceiling for a SNI flood.
  domainAskIp: { max: 300, windowMs: MINUTE },
} as const

type LimitName = keyof typeof LIMITS

export function limitKey(name: LimitName, ...parts: string[]) {
  return [name, ...parts].join(':')
}

/**
 * The key of a per-address limit: every such limit counts a client by addressBucket (an IPv6
 * client by its /64, which it can pick addresses from at will).
 */
export function addressLimitKey(name: LimitName, address: string) {
  return limitKey(name, addressBucket(address))
}

export class RateLimitedError extends Error {
  constructor(public retryAfterSeconds: number) {
    super('rate limited')
  }
}

/** Throws RateLimitedError when any of the keys is already over its limit. */
export async function assertNotLimited(checks: { name: LimitName; key: string }[]) {
  const rows = await withDatabase(async (tx) => {
    const found = []
    for (const { key } of checks) found.push(await peekRateLimit(tx, key))
    return found
  })
  checks.forEach(({ name }, index) => {
    const row = rows[index]
    if (row && row.count >= LIMITS[name].max) {
      throw new RateLimitedError(Math.ceil((row.resetAt.getTime() - Date.now()) / 1000))
    }
  })
}

export async function recordHits(checks: { name: LimitName; key: string }[]) {
  await withDatabase(async (tx) => {
    for (const { name, key } of checks) await hitRateLimit(tx, key, LIMITS[name].windowMs)
  })
}

export async function clearLimit(key: string) {
  await withDatabase((db) => clearRateLimit(db, key))
}

export function rateLimitMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`
}

export function tooManyRequests(error: RateLimitedError, body: Record<string, unknown>) {
  return json(body, { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
}
