// Sessions as Lucia's "Sessions" guide designs them: a random token (160 bits) in the
// cookie, only its SHA-256 in the database. The expiry is the super admin's session timeout
// (System Settings, default 60 minutes) after the last activity: extended when under half of it
// remains, and cut down at once for sessions opened under a longer timeout (ADR 014).
// Every session belongs to one organization and is invalid on any other host.
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'
import type { AppLoadContext } from '@remix-run/node'
import { parse, serialize } from 'cookie'
import {
  forgetSession,
  recalledSession,
  rememberSession,
  sharedSessionRead,
} from '#app/cache/session-cache.server'
import { getEnv } from '#app/env.server'
import { markSignedIn } from '#app/models/people.server'
import {
  deleteSession,
  deleteUserSessions,
  extendSession,
  findSessionWithUser,
  insertSession,
  type SessionFrame,
} from '#app/models/sessions.server'
import type { User } from '#app/models/users.server'
import { cachedPlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { withTenant } from '#drizzle/db.server'

/** How long a session lasts without activity: the platform's session timeout (cached). */
export async function sessionDurationMs() {
  const { sessionTimeoutMinutes } = await cachedPlatformSettings()
  return sessionTimeoutMinutes * 60_000
}

export function sessionCookieName() {
  // __Host- binds the cookie to the exact host, over HTTPS, with Path=/ and no Domain.
  return getEnv().NODE_ENV === 'production' ? '__Host-session' : 'session'
}

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

export function sessionIdFromToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)))
}

export function serializeSessionCookie(token: string, expiresAt: Date) {
  return serialize(sessionCookieName(), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: getEnv().NODE_ENV === 'production',
    path: '/',
    expires: expiresAt,
  })
}

export function serializeBlankSessionCookie() {
  return serialize(sessionCookieName(), '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: getEnv().NODE_ENV === 'production',
    path: '/',
    maxAge: 0,
  })
}

export function readSessionToken(request: Request): string | null {
  return sessionTokenOfCookies(request.headers.get('Cookie'))
}

/** The session token a Cookie header carries (server.ts reads it before Remix), or null. */
export function sessionTokenOfCookies(header: string | null | undefined): string | null {
  if (!header) return null
  const token = parse(header)[sessionCookieName()]
  // Our tokens are 32 base32 characters; anything else is not worth a query.
  return token && /^[a-z2-7]{32}$/.test(token) ? token : null
}

/**
 * A new session for the user; returns the Set-Cookie header value. `twoFactorVerified: false`
 * (sign-in of an account that owes a second step, ADR 045) leaves the session pending until
 * the step is passed; every other session (sign-up, an accepted invitation, tests' sessions)
 * is complete from the start.
 */
export async function createSession(
  organizationId: string,
  userId: string,
  { twoFactorVerified = true }: { twoFactorVerified?: boolean } = {},
) {
  const token = generateSessionToken()
  const expiresAt = new Date(Date.now() + (await sessionDurationMs()))
  await withTenant(organizationId, async (tx) => {
    await insertSession(tx, organizationId, {
      id: sessionIdFromToken(token),
      userId,
      expiresAt,
      twoFactorVerified,
    })
    // Every sign-in (and sign-up) opens a session: the admin screens' "Last Active".
    await markSignedIn(tx, organizationId, userId, new Date())
  })
  return { token, expiresAt, cookie: serializeSessionCookie(token, expiresAt) }
}

export type ValidSession = {
  sessionId: string
  user: User
  expiresAt: Date
  renewed: boolean
  /** False while the sign-in's second step is owed (app/auth/sign-in-steps.server.ts). */
  twoFactorVerified: boolean
  /** True once this session opened the emailed link that lets it enrol a first factor. */
  enrolmentEmailConfirmed: boolean
  /** What every signed-in page's frame shows (the root loader), read with the session. */
  frame: SessionFrame
}

/** A session validated earlier in this process, as long as the change feed vouches for it. */
type RememberedSession = { organizationId: string; session: ValidSession }

export async function validateSessionToken(
  organizationId: string,
  token: string,
): Promise<ValidSession | null> {
  const sessionId = sessionIdFromToken(token)
  const duration = await sessionDurationMs()
  const recalled = recalledSession<RememberedSession>(sessionId)
  if (recalled?.organizationId === organizationId) {
    // Expiry and renewal are decided as below, on the remembered expiry: a session due for
    // either is read (and written) afresh.
    const remaining = recalled.session.expiresAt.getTime() - Date.now()
    if (remaining >= duration / 2 && remaining <= duration) return recalled.session
  }
  const valid = await sharedSessionRead(sessionId, organizationId, () =>
    validateStoredSession(organizationId, sessionId, duration),
  )
  if (valid) {
    rememberSession<RememberedSession>(sessionId, organizationId, valid.user.id, {
      organizationId,
      session: { ...valid, renewed: false },
    })
  }
  return valid
}

/**
 * Forgets the session a request carries before it may write, and again before its answer
 * leaves (server.ts): its own next request reads the session, and what it shows, afresh.
 */
export function forgetSessionOfCookies(header: string | undefined) {
  const token = sessionTokenOfCookies(header)
  if (token) forgetSession(sessionIdFromToken(token))
}

async function validateStoredSession(
  organizationId: string,
  sessionId: string,
  duration: number,
): Promise<ValidSession | null> {
  return withTenant(organizationId, async (tx) => {
    const row = await findSessionWithUser(tx, organizationId, sessionId)
    if (!row) return null
    const now = Date.now()
    if (now >= row.session.expiresAt.getTime() || row.user.status !== 'active') {
      await deleteSession(tx, organizationId, sessionId)
      return null
    }
    let expiresAt = row.session.expiresAt
    let renewed = false
    // Renewed when under half the timeout remains (one write per half-timeout of activity), and
    // shortened when it outlasts the timeout (a session from before the timeout was lowered).
    const remaining = expiresAt.getTime() - now
    if (remaining < duration / 2 || remaining > duration) {
      expiresAt = new Date(now + duration)
      await extendSession(tx, organizationId, sessionId, expiresAt)
      renewed = true
    }
    return {
      sessionId,
      user: row.user,
      expiresAt,
      renewed,
      twoFactorVerified: row.session.twoFactorVerified,
      enrolmentEmailConfirmed: row.session.enrolmentEmailConfirmed,
      frame: row.frame,
    }
  })
}

/**
 * The signed-in user of this request on this tenant, or null. Memoised on the load
 * context; a renewed session queues a refreshed cookie for entry.server to send.
 */
export async function getSession(
  request: Request,
  context: AppLoadContext,
  organizationId: string,
): Promise<ValidSession | null> {
  context.session ??= (async () => {
    const token = readSessionToken(request)
    if (!token) return null
    const session = await validateSessionToken(organizationId, token)
    if (!session) {
      // A stale or foreign cookie is cleared (spec: a stored stale session is cleaned up).
      context.responseCookies?.push(serializeBlankSessionCookie())
      return null
    }
    if (session.renewed) {
      context.responseCookies?.push(serializeSessionCookie(token, session.expiresAt))
    }
    return session
  })()
  return context.session
}

export async function invalidateSession(organizationId: string, sessionId: string) {
  await withTenant(organizationId, (tx) => deleteSession(tx, organizationId, sessionId))
  forgetSession(sessionId)
}

export async function invalidateUserSessions(
  organizationId: string,
  userId: string,
  exceptSessionId?: string,
) {
  await withTenant(organizationId, (tx) =>
    deleteUserSessions(tx, organizationId, userId, exceptSessionId),
  )
}
