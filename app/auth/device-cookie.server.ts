// OWASP's device cookies: the per-account sign-in limit stops password guessing, but on its
// own it lets anyone lock a known account out by failing on purpose. A browser that has
// signed in to the account before carries a signed cookie naming it; with that cookie the
// account's lockout does not apply, and its failures count against that cookie instead.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { parse, serialize } from 'cookie'
import { getEnv } from '#app/env.server'
import { normalizeEmail } from '#app/models/users.server'

const MAX_AGE_SECONDS = 365 * 24 * 60 * 60

export type DeviceCookie = { organizationId: string; account: string; nonce: string }

export function deviceCookieName() {
  return getEnv().NODE_ENV === 'production' ? '__Host-device' : 'device'
}

function sign(payload: string) {
  return createHmac('sha256', getEnv().APP_SECRET)
    .update(`device-cookie:${payload}`)
    .digest('base64url')
}

/** The account a cookie names: a keyed hash of the email, so the cookie does not carry it. */
function accountKey(organizationId: string, email: string) {
  return createHmac('sha256', getEnv().APP_SECRET)
    .update(`device-account:${organizationId}:${normalizeEmail(email)}`)
    .digest('base64url')
    .slice(0, 22)
}

/** The Set-Cookie value after a successful sign-in to this account from this browser. */
export function issueDeviceCookie(organizationId: string, email: string) {
  const payload = [
    organizationId,
    accountKey(organizationId, email),
    randomBytes(12).toString('base64url'),
  ].join('.')
  return serialize(deviceCookieName(), `${payload}.${sign(payload)}`, {
    httpOnly: true,
    sameSite: 'lax',
    secure: getEnv().NODE_ENV === 'production',
    path: '/',
    maxAge: MAX_AGE_SECONDS,
  })
}

/** The request's device cookie when it is ours, untampered, and names this account here. */
export function trustedDevice(
  request: Request,
  organizationId: string,
  email: string,
): DeviceCookie | null {
  const value = parse(request.headers.get('Cookie') ?? '')[deviceCookieName()]
  if (!value || value.length > 200) return null
  const parts = value.split('.')
  if (parts.length !== 4) return null
  const [cookieOrganization, account, nonce, signature] = parts as [string, string, string, string]
  const expected = Buffer.from(sign(`${cookieOrganization}.${account}.${nonce}`))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  if (cookieOrganization !== organizationId) return null
  if (account !== accountKey(organizationId, email)) return null
  return { organizationId, account, nonce }
}
