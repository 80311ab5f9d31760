// requireUser's two answers to a missing or ended session: a document request is redirected to
// sign in (unchanged), a client data request (`{path}.data`, flagged by server.ts on the load
// context) gets the 401 marker the root error boundary turns into 'Authentication Issue Detected'.
import type { AppLoadContext } from '@remix-run/node'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { isAuthRequiredData } from '#app/auth/auth-required'
import { requireRole, requireUser } from '#app/auth/guards.server'
import { sessionIdFromToken } from '#app/auth/session.server'
import { loader as profileLoader } from '#app/routes/profile._index'
import { getDb } from '#drizzle/db.server'
import { sessions } from '#drizzle/schema'
import {
  contextFor,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

async function signedInUser() {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id)
  const host = `${organization.slug}.localhost`
  const cookie = await sessionCookieFor(organization.id, user.id)
  return { organization, user, host, cookie }
}

const dataContext = (host: string): AppLoadContext => ({ ...contextFor(host), dataRequest: true })

async function expectAuthMarker(response: Response) {
  expect(response.status).toBe(401)
  expect(response).not.toHaveRedirect()
  expect(response.headers.get('Cache-Control')).toBe('no-store')
  const body = await response.json()
  expect(isAuthRequiredData(body)).toBe(true)
}

describe('requireUser without a session', () => {
  test('a document request is redirected to sign in and come back', async () => {
    const { host } = await signedInUser()
    const response = await settle(() => requireUser(requestFor(host, '/profile'), contextFor(host)))
    expect(response).toHaveRedirect('/auth/login?redirectTo=%2Fprofile')
  })

  test('a client data request gets the 401 marker instead of a redirect', async () => {
    const { host } = await signedInUser()
    await expectAuthMarker(
      await settle(() => requireUser(requestFor(host, '/profile'), dataContext(host))),
    )
  })

  test('a session deleted on the server: the marker, and the stale cookie is cleared', async () => {
    const { host, cookie } = await signedInUser()
    const token = cookie.split('=')[1] ?? ''
    await getDb()
      .delete(sessions)
      .where(eq(sessions.id, sessionIdFromToken(token)))
    const context = dataContext(host)
    await expectAuthMarker(
      await settle(() =>
        requireUser(requestFor(host, '/profile', { headers: { Cookie: cookie } }), context),
      ),
    )
    expect(context.responseCookies?.join('\n')).toMatch(/Max-Age=0/i)
  })

  test('the profile loader answers a data request with the marker, and 200 with a session', async () => {
    const { host, cookie } = await signedInUser()
    const call = (headers: Record<string, string>) =>
      settle(async () =>
        profileLoader({
          // The screen itself: /profile only leads here (ADR 078).
          request: requestFor(host, '/profile/end-user', { headers }),
          context: dataContext(host),
          params: {},
        }),
      )
    await expectAuthMarker(await call({}))
    expect((await call({ Cookie: cookie })).status).toBe(200)
  })

  test('a signed-in user of the wrong role still gets 403 on a data request', async () => {
    const { host, cookie } = await signedInUser()
    const response = await settle(() =>
      requireRole(requestFor(host, '/', { headers: { Cookie: cookie } }), dataContext(host), [
        'agency_admin',
      ]),
    )
    expect(response.status).toBe(403)
  })
})
