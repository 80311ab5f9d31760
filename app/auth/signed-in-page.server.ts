// The signed-in page cache's front door (ADR 109), called by server.ts for a GET that carries a
// session cookie, before Express and Remix: the tenant and the session, validated exactly as a
// loader would, and the key of the answer they make with the request. The session found is
// handed on to the request's load context, so a miss costs no second lookup.
import {
  lookupSignedInPage,
  type StoredPage,
  signedInPageCacheEnabled,
  signedInPageKey,
} from '#app/cache/signed-in-page-cache.server'
import { resolveTenant } from '#app/tenancy/tenant.server'
import {
  serializeSessionCookie,
  sessionCookieName,
  sessionTokenOfCookies,
  type ValidSession,
  validateSessionToken,
} from './session.server'

export type SignedInRequest = {
  host: string
  origin: string
  target: string
  cookie: string
  acceptLanguage: string | undefined
  bot: boolean
}

export type SignedInLookup = {
  key: string
  session: ValidSession
  /** Set-Cookie values the answer must carry (a renewed session's cookie). */
  cookies: string[]
  page: StoredPage | undefined
}

/**
 * The session behind a signed-in GET and, when its key has one, the stored answer. Null when
 * there is nothing to offer (no such tenant, no valid session): the app answers as it always has.
 */
export async function signedInPageLookup(request: SignedInRequest): Promise<SignedInLookup | null> {
  if (!signedInPageCacheEnabled()) return null
  const token = sessionTokenOfCookies(request.cookie)
  if (!token) return null
  const resolution = await resolveTenant(request.host)
  if (resolution.status !== 'found') return null
  const organizationId = resolution.tenant.id
  const session = await validateSessionToken(organizationId, token)
  if (!session) return null
  const key = signedInPageKey({
    organizationId,
    sessionId: session.sessionId,
    sessionState: `${session.twoFactorVerified}/${session.enrolmentEmailConfirmed}`,
    dataVersion: session.frame.dataVersion,
    origin: request.origin,
    target: request.target,
    otherCookies: otherCookies(request.cookie),
    acceptLanguage: request.acceptLanguage,
    bot: request.bot,
  })
  // A renewed session's answer carries its new cookie: rendered, and not stored.
  if (session.renewed) {
    return {
      key,
      session,
      cookies: [serializeSessionCookie(token, session.expiresAt)],
      page: undefined,
    }
  }
  return { key, session, cookies: [], page: lookupSignedInPage(key) }
}

function otherCookies(header: string) {
  const name = sessionCookieName()
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => !pair.startsWith(`${name}=`))
    .join('; ')
}
