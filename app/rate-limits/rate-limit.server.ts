// Brute-force protection with counters in Postgres, so limits hold across instances.
// Fixed windows: a limited account or address is free again when its window ends.
import { data } from '@remix-run/node'
import { clearRateLimit, hitRateLimit, peekRateLimit } from '#app/models/rate-limits.server'
import { Refusal, type RefusalOf } from '#app/utils/action-error'
import { addressBucket } from '#app/utils/client-address'
import { en } from '#app/utils/i18n/catalogue-en'
import { type Transaction, withDatabase } from '#drizzle/db.server'

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
  // Wrong current passwords (change password, change email), like failed sign-ins: per account
  // and per client address. A signed-in session must not be a way to guess the password.
  currentPasswordAccount: { max: 10, windowMs: 15 * MINUTE },
  currentPasswordIp: { max: 50, windowMs: 15 * MINUTE },
  // Every email a person can cause to reach someone else (app/email/send-limits.server.ts):
  // per sender, per recipient address and per tenant, so nobody floods an inbox, or the
  // agency's sending reputation, in its name. A sender is an account, or a client address when
  // not signed in: that ceiling sits above the per-form limits (sign-ups, leads) it spans, which
  // one office behind one address shares.
  emailSender: { max: 50, windowMs: 60 * MINUTE },
  emailSenderIp: { max: 200, windowMs: 60 * MINUTE },
  emailRecipient: { max: 20, windowMs: 60 * MINUTE },
  emailTenant: { max: 1000, windowMs: 60 * MINUTE },
  // Apple Wallet devices' logs (POST /wallet/apple/v1/log, no token): lines written to the
  // server's log, per client address. A device sends a few when something fails.
  walletLogIp: { max: 60, windowMs: MINUTE },
  // Codes of the sign-in's second step (authenticator and recovery codes, enrolment, turning
  // it off), per account and per client address: a million six-digit codes must not be
  // guessable through a session that passed the password (ADR 045).
  twoFactorAccount: { max: 10, windowMs: 15 * MINUTE },
  twoFactorIp: { max: 50, windowMs: 15 * MINUTE },
  // The email that lets a session enrol an account's first second factor at the sign-in step
  // (ADR 054), per account and per client address: each one is an email.
  enrolmentEmailAccount: { max: 3, windowMs: 60 * MINUTE },
  enrolmentEmailIp: { max: 20, windowMs: 60 * MINUTE },
  // Links to edit or remove a personal card (ADR 106), asked for on its public page: per card
  // and per client address, counted for every request whatever the address typed.
  personalCardLinkCard: { max: 3, windowMs: 60 * MINUTE },
  personalCardLinkIp: { max: 20, windowMs: 60 * MINUTE },
  // Inviting the same address to the same team again sends a new email at most this often.
  invitationResend: { max: 1, windowMs: 10 * MINUTE },
  // Personal data exports a person asks for (ADR 052): each builds a zip of all their rows and
  // images, so a few an hour, counted when one is queued.
  dataExport: { max: 3, windowMs: 60 * MINUTE },
  // SCIM calls per token (ADR 089): an identity provider's first sync of a large directory
  // sends bursts (Entra documents no more than a few per second), far below this ceiling.
  scimToken: { max: 1200, windowMs: MINUTE },
  // SCIM calls whose token was refused, per client address: a wrong token is guessed no faster,
  // and the agency's provisioning log is not flooded with refusals.
  scimRefusedIp: { max: 30, windowMs: 15 * MINUTE },
  // Single sign-on attempts started, per client address (ADR 090): each writes the attempt's
  // request (SAML) or asks the provider's discovery document (OIDC) before anyone is known.
  ssoStartIp: { max: 30, windowMs: 15 * MINUTE },
  // REST API calls per key (ADR 092), answered with the RateLimit headers: an integration's
  // sync pages through thousands of rows a minute at 200 a page.
  apiKey: { max: 600, windowMs: MINUTE },
  // REST API calls whose key was refused, per client address: a key is guessed no faster.
  apiRefusedIp: { max: 30, windowMs: 15 * MINUTE },
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

/**
 * A refusal for now (a Refusal coded rate_limited); `message` is what the person is told (a
 * generic "too many attempts"), `field` the form field it is shown next to (a password check's).
 */
const rateLimited = (
  retryAfterSeconds: number,
  message = rateLimitMessage(retryAfterSeconds),
  field?: string,
) =>
  new Refusal('rate_limited', message, {
    retryAfterSeconds,
    ...(field === undefined ? {} : { field }),
  })

const secondsUntil = (date: Date) => Math.max(1, Math.ceil((date.getTime() - Date.now()) / 1000))

/** Throws a rate_limited Refusal when any of the keys is already over its limit. */
export async function assertNotLimited(checks: { name: LimitName; key: string }[]) {
  const rows = await withDatabase(async (tx) => {
    const found = []
    for (const { key } of checks) found.push(await peekRateLimit(tx, key))
    return found
  })
  checks.forEach(({ name }, index) => {
    const row = rows[index]
    if (row && row.count >= LIMITS[name].max) {
      throw rateLimited(secondsUntil(row.resetAt))
    }
  })
}

/**
 * Counts one hit inside the caller's transaction and throws a rate_limited Refusal (with the message
 * `refusal` gives) when that goes past the limit. The transaction rolls back with the refusal,
 * hit included: what was refused is not counted, and what the transaction would have done
 * (an email queued) is not done. The row stays locked until the transaction ends, so
 * concurrent requests for the same key are counted one after the other.
 */
export async function hitOrRefuseIn(
  tx: Transaction,
  name: LimitName,
  key: string,
  refusal: (retryAfterSeconds: number) => string = rateLimitMessage,
) {
  const row = await hitRateLimit(tx, key, LIMITS[name].windowMs)
  if (row.count > LIMITS[name].max) {
    const wait = secondsUntil(row.resetAt)
    throw rateLimited(wait, refusal(wait))
  }
}

/**
 * Counts one hit inside the caller's transaction and says where the window stands, for the
 * IETF RateLimit headers (ADR 092): the limit, what is left, and the seconds until it resets.
 * `over` is true past the limit; the caller answers 429 (and that hit stays counted).
 */
export async function countHitIn(tx: Transaction, name: LimitName, key: string) {
  const row = await hitRateLimit(tx, key, LIMITS[name].windowMs)
  const limit = LIMITS[name].max
  return {
    limit,
    windowSeconds: LIMITS[name].windowMs / 1000,
    remaining: Math.max(0, limit - row.count),
    resetSeconds: secondsUntil(row.resetAt),
    over: row.count > limit,
  }
}

export async function recordHits(checks: { name: LimitName; key: string }[]) {
  await withDatabase(async (tx) => {
    for (const { name, key } of checks) await hitRateLimit(tx, key, LIMITS[name].windowMs)
  })
}

export async function clearLimit(key: string) {
  await withDatabase((db) => clearRateLimit(db, key))
}

/** "5 minutes", for a wait of this many seconds (at least a minute). */
export function minutesText(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

/** The limit's words; their home is the English catalogue, which the sign-in pages translate. */
export function rateLimitMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  const message = en['signIn.tooManyAttempts']
  return (minutes === 1 ? message.one : message.other).replace('{count}', String(minutes))
}

export function tooManyRequests(error: RefusalOf<'rate_limited'>, body: Record<string, unknown>) {
  return data(body, { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
}
