// The token of a one-click unsubscribe link (RFC 8058): a signed statement "this user of this
// organization may turn off this kind of email", usable without signing in. It names no secret
// and grants nothing else, so it does not expire: an old email's link keeps working, as
// mailbox providers expect of List-Unsubscribe.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { getEnv } from '#app/env.server'

// notifications: Email Notifications (the master switch); marketing: Marketing Communications,
// the opt-in of an agency's announcements (ADR 046).
export const UNSUBSCRIBE_PURPOSES = ['notifications', 'marketing'] as const
export type UnsubscribePurpose = (typeof UNSUBSCRIBE_PURPOSES)[number]

export type UnsubscribeStatement = {
  organizationId: string
  userId: string
  purpose: UnsubscribePurpose
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const TOKEN = /^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{43}$/

// Its own label, so no other signature made with APP_SECRET is ever a valid unsubscribe token.
function sign(payload: string) {
  return createHmac('sha256', getEnv().APP_SECRET)
    .update(`unsubscribe:v1:${payload}`)
    .digest('base64url')
}

export function createUnsubscribeToken(statement: UnsubscribeStatement) {
  const payload = Buffer.from(
    `${statement.organizationId}:${statement.userId}:${statement.purpose}`,
  ).toString('base64url')
  return `${payload}.${sign(payload)}`
}

/** The statement a token signs, or null when it is malformed or its signature is not ours. */
export function readUnsubscribeToken(token: string): UnsubscribeStatement | null {
  if (!TOKEN.test(token)) return null
  const [payload, signature] = token.split('.') as [string, string]
  const expected = Buffer.from(sign(payload))
  const given = Buffer.from(signature)
  // Constant time: how much of a forged signature matched must not show in the answer's timing.
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  const [organizationId = '', userId = '', purpose = '', ...rest] = Buffer.from(
    payload,
    'base64url',
  )
    .toString('utf8')
    .split(':')
  if (rest.length > 0 || !UUID.test(organizationId) || !UUID.test(userId)) return null
  if (!(UNSUBSCRIBE_PURPOSES as readonly string[]).includes(purpose)) return null
  return { organizationId, userId, purpose: purpose as UnsubscribePurpose }
}

// A follower of a card (ADR 102) is no user: their one-click link signs "this follower of this
// organization may stop the card's updates", under a label of its own.
const FOLLOWER_TOKEN = /^[A-Za-z0-9_-]{1,120}\.[A-Za-z0-9_-]{43}$/

function signFollower(payload: string) {
  return createHmac('sha256', getEnv().APP_SECRET)
    .update(`card-follow-stop:v1:${payload}`)
    .digest('base64url')
}

export function createFollowerStopToken(organizationId: string, followerId: string) {
  const payload = Buffer.from(`${organizationId}:${followerId}`).toString('base64url')
  return `${payload}.${signFollower(payload)}`
}

/** The follower a stop token names, or null when it is malformed or not signed by us. */
export function readFollowerStopToken(token: string) {
  if (!FOLLOWER_TOKEN.test(token)) return null
  const [payload, signature] = token.split('.') as [string, string]
  const expected = Buffer.from(signFollower(payload))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  const [organizationId = '', followerId = '', ...rest] = Buffer.from(payload, 'base64url')
    .toString('utf8')
    .split(':')
  if (rest.length > 0 || !UUID.test(organizationId) || !UUID.test(followerId)) return null
  return { organizationId, followerId }
}
