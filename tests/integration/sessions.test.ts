import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { requireRole, requireUser } from '#app/auth/guards.server'
import {
  createSession,
  getSession,
  sessionIdFromToken,
  validateSessionToken,
} from '#app/auth/session.server'
import { action as loginAction, loader as loginLoader } from '#app/routes/auth.login'
import { action as logoutAction } from '#app/routes/auth.logout'
import { loader as registerLoader } from '#app/routes/auth.register'
import { getDb } from '#drizzle/db.server'
import { sessions } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

async function tenantWithUser(password = 'secret123') {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id, { password })
  return { organization, user, host: `${organization.slug}.localhost` }
}

describe('session tokens', () => {
  test('only the SHA-256 of a ≥128-bit token is stored', async () => {
    const { organization, user } = await tenantWithUser()
    const { token } = await createSession(organization.id, user.id)
    expect(token).toMatch(/^[a-z2-7]{32}$/) // 160 bits in base32
    const rows = await getDb().select().from(sessions).where(eq(sessions.userId, user.id))
    expect(rows.map((r) => r.id)).toEqual([sessionIdFromToken(token)])
    expect(rows[0]?.id).not.toContain(token)
  })

  test('a session of tenant A is not a session on tenant B', async () => {
    const a = await tenantWithUser()
    const b = await tenantWithUser()
    const cookie = await sessionCookieFor(a.organization.id, a.user.id)
    const onA = await getSession(
      requestFor(a.host, '/', { headers: { Cookie: cookie } }),
      contextFor(a.host),
      a.organization.id,
    )
    expect(onA?.user.id).toBe(a.user.id)
    const contextB = contextFor(b.host)
    const onB = await getSession(
      requestFor(b.host, '/', { headers: { Cookie: cookie } }),
      contextB,
      b.organization.id,
    )
    expect(onB).toBeNull()
    // The foreign cookie is cleared on B.
    expect(contextB.responseCookies?.some((c) => c.startsWith('session=;'))).toBe(true)
  })

  test('sessions last the session timeout (60 minutes by default), renewed when under half remains, refused once expired', async () => {
    const { organization, user } = await tenantWithUser()
    const { token, expiresAt } = await createSession(organization.id, user.id)
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000)
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60 * 60_000)
    const id = sessionIdFromToken(token)
    const soon = new Date(Date.now() + 20 * 60_000)
    await getDb().update(sessions).set({ expiresAt: soon }).where(eq(sessions.id, id))
    const renewed = await validateSessionToken(organization.id, token)
    expect(renewed?.renewed).toBe(true)
    expect(renewed?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000)

    await getDb()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, id))
    expect(await validateSessionToken(organization.id, token)).toBeNull()
    expect(await getDb().select().from(sessions).where(eq(sessions.id, id))).toEqual([])
  })

  test('signing in creates a new session and sets a hardened cookie', async () => {
    const { user, host } = await tenantWithUser()
    // A token planted by an attacker before sign-in is never adopted.
    const old = `session=${'a'.repeat(32)}`
    const response = await settle(() =>
      loginAction({
        request: formRequest(
          host,
          '/auth/login',
          { email: user.email, password: 'secret123' },
          old,
        ),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    const cookies = response.headers.getSetCookie()
    const sessionCookie = cookies.find((c) => c.startsWith('session=')) ?? ''
    expect(sessionCookie).toMatch(/HttpOnly/)
    expect(sessionCookie).toMatch(/SameSite=Lax/)
    expect(sessionCookie).toMatch(/Path=\//)
    expect(sessionCookie).not.toMatch(/Domain=/i)
    const newToken = /session=([a-z2-7]+)/.exec(sessionCookie)?.[1]
    expect(newToken).toBeDefined()
    expect(`session=${newToken}`).not.toBe(old)
  })

  test('signing out deletes the session server-side', async () => {
    const { organization, user, host } = await tenantWithUser()
    const cookie = await sessionCookieFor(organization.id, user.id)
    const response = await settle(() =>
      logoutAction({
        request: formRequest(host, '/auth/logout', {}, cookie),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response).toHaveRedirect('/auth/login')
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
  })
})

describe('redirects after sign-in', () => {
  test.each(['//evil.test', 'https://evil.test', '/\\evil.test', 'javascript:alert(1)'])(
    'redirectTo %s is ignored',
    async (redirectTo) => {
      const { user, host } = await tenantWithUser()
      const response = await settle(() =>
        loginAction({
          request: formRequest(host, '/auth/login', {
            email: user.email,
            password: 'secret123',
            redirectTo,
          }),
          context: contextFor(host),
          params: {},
        }),
      )
      expect(response).toHaveRedirect('/dashboard/end-user')
    },
  )

  test('a same-origin redirectTo is followed', async () => {
    const { user, host } = await tenantWithUser()
    const response = await settle(() =>
      loginAction({
        request: formRequest(host, '/auth/login', {
          email: user.email,
          password: 'secret123',
          redirectTo: '/qrcode',
        }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response).toHaveRedirect('/qrcode')
  })

  test.each([
    ['super_admin', '/dashboard/super-admin'],
    ['agency_admin', '/dashboard/agency'],
    ['agency_member', '/dashboard/agency'],
    ['team_admin', '/dashboard/team-member'],
    ['end_user', '/dashboard/end-user'],
    ['super_admin_team', '/dashboard/end-user'],
  ] as const)('%s lands on %s', async (role, path) => {
    const organization = await makeOrganization()
    const user = await makeUser(organization.id, { role, password: 'secret123' })
    const host = `${organization.slug}.localhost`
    const response = await settle(() =>
      loginAction({
        request: formRequest(host, '/auth/login', { email: user.email, password: 'secret123' }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response).toHaveRedirect(path)
  })
})

describe('guards', () => {
  test('a signed-in visitor of the sign-in and sign-up pages goes to their dashboard', async () => {
    const organization = await makeOrganization()
    const user = await makeUser(organization.id, { role: 'team_admin' })
    const host = `${organization.slug}.localhost`
    const cookie = await sessionCookieFor(organization.id, user.id)
    for (const loader of [loginLoader, registerLoader]) {
      const response = await settle(() =>
        loader({
          request: requestFor(host, '/auth/login', { headers: { Cookie: cookie } }),
          context: contextFor(host),
          params: {},
        }),
      )
      expect(response).toHaveRedirect('/dashboard/team-member')
    }
  })

  test('signed out: redirect to sign in with the page to come back to', async () => {
    const { host } = await tenantWithUser()
    const response = await settle(() =>
      requireUser(requestFor(host, '/dashboard/end-user?tab=1'), contextFor(host)),
    )
    expect(response).toHaveRedirect(
      `/auth/login?redirectTo=${encodeURIComponent('/dashboard/end-user?tab=1')}`,
    )
  })

  test('the wrong role gets 403', async () => {
    const { organization, user, host } = await tenantWithUser()
    const cookie = await sessionCookieFor(organization.id, user.id)
    const response = await settle(() =>
      requireRole(requestFor(host, '/', { headers: { Cookie: cookie } }), contextFor(host), [
        'agency_admin',
      ]),
    )
    expect(response.status).toBe(403)
  })
})

describe('production cookie', () => {
  test('is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/ and has no Domain', async () => {
    const { resetEnvForTests } = await import('#app/env.server')
    const { serializeSessionCookie } = await import('#app/auth/session.server')
    process.env.NODE_ENV = 'production'
    resetEnvForTests()
    try {
      const cookie = serializeSessionCookie('a'.repeat(32), new Date(Date.now() + 1000))
      expect(cookie.startsWith('__Host-session=')).toBe(true)
      for (const attribute of ['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']) {
        expect(cookie).toContain(attribute)
      }
      expect(cookie).not.toMatch(/Domain=/i)
    } finally {
      process.env.NODE_ENV = 'test'
      resetEnvForTests()
    }
  })
})

describe('changing the password', () => {
  test('needs the current password and ends every other session', async () => {
    const { changePassword } = await import('#app/auth/accounts.server')
    const { resolveTenant } = await import('#app/tenancy/tenant.server')
    const { organization, user, host } = await tenantWithUser('old-secret')
    const current = await createSession(organization.id, user.id)
    await createSession(organization.id, user.id)
    const resolution = await resolveTenant(host)
    if (resolution.status !== 'found') throw new Error('no tenant')
    const currentId = sessionIdFromToken(current.token)
    expect(
      await changePassword(
        resolution.tenant,
        user,
        currentId,
        {
          currentPassword: 'nope',
          newPassword: 'new-secret',
        },
        '203.0.113.1',
      ),
    ).toBe(false)
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(
      2,
    )
    expect(
      await changePassword(
        resolution.tenant,
        user,
        currentId,
        {
          currentPassword: 'old-secret',
          newPassword: 'new-secret',
        },
        '203.0.113.1',
      ),
    ).toBe(true)
    const left = await getDb().select().from(sessions).where(eq(sessions.userId, user.id))
    expect(left.map((s) => s.id)).toEqual([currentId])
  })
})

describe('connect invitation on the sign-in page', () => {
  test("names the card's first name when the connect flow sent the visitor", async () => {
    const { loader } = await import('#app/routes/auth.login')
    const { makeCard } = await import('#tests/factories')
    const { organization, user, host } = await tenantWithUser()
    const card = await makeCard(organization.id, user.id, {
      firstName: 'Grace',
      lastName: 'Hopper',
    })
    const redirectTo = `/card/${card.id}?connect=1`
    const response = await settle(() =>
      loader({
        request: requestFor(host, `/auth/login?${new URLSearchParams({ redirectTo })}`),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(await response.json()).toEqual({
      redirectTo,
      info: 'Sign in to connect with Grace',
      sso: false,
    })

    // A card of another tenant is never named.
    const other = await tenantWithUser()
    const foreign = await settle(() =>
      loader({
        request: requestFor(other.host, `/auth/login?${new URLSearchParams({ redirectTo })}`),
        context: contextFor(other.host),
        params: {},
      }),
    )
    expect(((await foreign.json()) as { info: string | null }).info).toBeNull()
  })
})

describe('deactivation', () => {
  test("a deactivated user's sessions stop working and are deleted", async () => {
    const { users: usersTable } = await import('#drizzle/schema')
    const { organization, user } = await tenantWithUser()
    const { token } = await createSession(organization.id, user.id)
    await getDb().update(usersTable).set({ status: 'inactive' }).where(eq(usersTable.id, user.id))
    expect(await validateSessionToken(organization.id, token)).toBeNull()
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
  })
})
