// Passkeys as a second way to pass the sign-in's second step (ADR 045, Passkeys): added from
// the Security area, used at the step, with the challenge kept on the session, used once and
// refused when expired, another origin or another account's key refused, and the last factor
// kept while one is required. A software authenticator answers as a browser would.
import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { signIn } from '#app/auth/accounts.server'
import { sessionCookieName, sessionIdFromToken } from '#app/auth/session.server'
import { REQUIRED_MESSAGE } from '#app/auth/two-factor.server'
import { savePlatformSettings } from '#app/models/platform-settings.server'
import type { User } from '#app/models/users.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import { getDb } from '#drizzle/db.server'
import { auditEvents, passkeys, rateLimits, sessions } from '#drizzle/schema'
import { openEnrolmentLink } from '#tests/enrolment-link'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeUser,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { loadRoute } from '#tests/route-modules'
import { virtualPasskey } from '#tests/virtual-authenticator'

const PASSWORD = 'password123'
const IP = '203.0.113.41'

let tenant: Tenant
let host: string
let origin: string

beforeAll(async () => {
  const { organization } = await makeBrandedOrganization()
  host = `${organization.slug}.localhost`
  origin = `http://${host}`
  const resolution = await resolveTenant(host)
  if (resolution.status !== 'found') throw new Error('tenant not found')
  tenant = resolution.tenant
})

afterEach(async () => {
  await savePlatformSettings(getDb(), { requireTwoFactorForAdmins: true })
  invalidatePlatformSettings()
  await getDb().delete(rateLimits)
})

async function post(route: string, path: string, cookie: string, fields: Record<string, string>) {
  const mod = await loadRoute(route)
  return settle(async () =>
    mod.action?.({
      request: formRequest(host, path, fields, cookie),
      context: contextFor(host, IP),
      params: {},
    }),
  )
}

const postAccount = (cookie: string, fields: Record<string, string>) =>
  post('account.two-factor.tsx', '/account/two-factor', cookie, fields)
const postStep = (cookie: string, fields: Record<string, string>) =>
  post('auth.two-factor.tsx', '/auth/two-factor', cookie, fields)

async function optionsOf(response: Response) {
  expect(response.status).toBe(200)
  return ((await response.json()) as { options: { challenge: string; rp?: { id: string } } })
    .options
}

/** A signed-in user with one passkey added through the Security page. */
async function userWithPasskey(role: 'end_user' | 'agency_admin' = 'end_user') {
  const user = await makeUser(tenant.id, { role, password: PASSWORD })
  const cookie = await sessionCookieFor(tenant.id, user.id)
  const key = virtualPasskey(origin)
  const options = await optionsOf(await postAccount(cookie, { intent: 'passkey-options' }))
  const added = await postAccount(cookie, {
    intent: 'passkey-add',
    name: 'Laptop',
    credential: JSON.stringify(key.register(options)),
  })
  expect(added).toHaveRedirect('/account/two-factor')
  return { user, cookie, key }
}

async function passkeysOf(user: User) {
  return getDb().select().from(passkeys).where(eq(passkeys.userId, user.id))
}

async function signInAs(email: string) {
  const signedIn = await signIn(
    tenant,
    { email, password: PASSWORD },
    IP,
    new Request(`${origin}/auth/login`),
  )
  if (!signedIn) throw new Error('sign-in failed')
  return {
    ...signedIn,
    cookie: `${sessionCookieName()}=${signedIn.session.token}`,
  }
}

async function actions(userId: string) {
  const rows = await getDb()
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(eq(auditEvents.actorUserId, userId))
  return rows.map((row) => row.action)
}

describe('adding a passkey', () => {
  test('options name this host and tenant; the verified key is stored with its name', async () => {
    const user = await makeUser(tenant.id, { password: PASSWORD })
    const cookie = await sessionCookieFor(tenant.id, user.id)
    const options = (await optionsOf(await postAccount(cookie, { intent: 'passkey-options' }))) as {
      challenge: string
      rp: { id: string; name: string }
    }
    expect(options.rp).toEqual({ id: host, name: tenant.name })
    const key = virtualPasskey(origin)
    const credential = JSON.stringify(key.register(options))
    const added = await postAccount(cookie, { intent: 'passkey-add', name: 'Laptop', credential })
    expect(added).toHaveRedirect('/account/two-factor')
    const [stored] = await passkeysOf(user)
    expect(stored).toMatchObject({
      credentialId: key.id,
      name: 'Laptop',
      organizationId: tenant.id,
    })
    expect(await actions(user.id)).toContain('two_factor.passkey_added')
    // The challenge worked once: the same answer again is refused and stores nothing more.
    const again = await postAccount(cookie, { intent: 'passkey-add', name: 'Again', credential })
    expect(again.status).toBe(400)
    expect(await passkeysOf(user)).toHaveLength(1)
  })

  test('a challenge the server did not give, an expired one, or another origin is refused', async () => {
    const user = await makeUser(tenant.id, { password: PASSWORD })
    const cookie = await sessionCookieFor(tenant.id, user.id)
    const key = virtualPasskey(origin)
    await optionsOf(await postAccount(cookie, { intent: 'passkey-options' }))
    const forged = await postAccount(cookie, {
      intent: 'passkey-add',
      name: 'Forged',
      credential: JSON.stringify(key.register({ challenge: 'bm90LW91cnM' })),
    })
    expect(forged.status).toBe(400)

    const expiring = await optionsOf(await postAccount(cookie, { intent: 'passkey-options' }))
    await getDb()
      .update(sessions)
      .set({ webauthnChallengeExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.userId, user.id))
    const late = await postAccount(cookie, {
      intent: 'passkey-add',
      name: 'Late',
      credential: JSON.stringify(key.register(expiring)),
    })
    expect(late.status).toBe(400)

    const fresh = await optionsOf(await postAccount(cookie, { intent: 'passkey-options' }))
    const elsewhere = await postAccount(cookie, {
      intent: 'passkey-add',
      name: 'Elsewhere',
      credential: JSON.stringify(key.register(fresh, { origin: 'http://evil.localhost' })),
    })
    expect(elsewhere.status).toBe(400)
    expect(await passkeysOf(user)).toEqual([])
  })

  test('rename and remove act on the account own passkeys; the last factor stays while required', async () => {
    const { user, cookie } = await userWithPasskey('agency_admin')
    const [key] = await passkeysOf(user)
    if (!key) throw new Error('no passkey')
    const renamed = await postAccount(cookie, {
      intent: 'passkey-rename',
      passkeyId: key.id,
      name: 'Work phone',
    })
    expect(renamed).toHaveRedirect('/account/two-factor')
    expect((await passkeysOf(user))[0]?.name).toBe('Work phone')
    // Agency admins must have a second factor while the platform toggle is on (the default).
    const refused = await postAccount(cookie, { intent: 'passkey-remove', passkeyId: key.id })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toBe(REQUIRED_MESSAGE)
    expect(await passkeysOf(user)).toHaveLength(1)
    await savePlatformSettings(getDb(), { requireTwoFactorForAdmins: false })
    invalidatePlatformSettings()
    const removed = await postAccount(cookie, { intent: 'passkey-remove', passkeyId: key.id })
    expect(removed).toHaveRedirect('/account/two-factor')
    expect(await passkeysOf(user)).toEqual([])
    expect(await actions(user.id)).toContain('two_factor.passkey_removed')
  })

  test("another account's passkey is not found", async () => {
    const { user: owner } = await userWithPasskey()
    const [key] = await passkeysOf(owner)
    if (!key) throw new Error('no passkey')
    const other = await makeUser(tenant.id, { password: PASSWORD })
    const cookie = await sessionCookieFor(tenant.id, other.id)
    const renamed = await postAccount(cookie, {
      intent: 'passkey-rename',
      passkeyId: key.id,
      name: 'Taken',
    })
    expect(renamed.status).toBe(404)
    const removed = await postAccount(cookie, { intent: 'passkey-remove', passkeyId: key.id })
    expect(removed.status).toBe(404)
    expect(await passkeysOf(owner)).toMatchObject([{ name: 'Laptop' }])
  })
})

describe('signing in with a passkey', () => {
  test('a passkey makes the second step owed and passes it; the counter moves; once only', async () => {
    const { user, key } = await userWithPasskey()
    const { cookie, session } = await signInAs(user.email)
    const page = await settle(async () =>
      (await loadRoute('auth.two-factor.tsx')).loader?.({
        request: new Request(`${origin}/auth/two-factor`, { headers: { Cookie: cookie } }),
        context: contextFor(host, IP),
        params: {},
      }),
    )
    expect(await page.json()).toMatchObject({ mode: 'verify', hasPasskey: true, hasTotp: false })
    const options = (await optionsOf(await postStep(cookie, { intent: 'passkey-options' }))) as {
      challenge: string
      allowCredentials: Array<{ id: string }>
    }
    expect(options.allowCredentials.map((c) => c.id)).toEqual([key.id])
    const credential = JSON.stringify(key.authenticate(options))
    const passed = await postStep(cookie, { intent: 'passkey', credential })
    expect(passed).toHaveRedirect('/dashboard/end-user')
    const [row] = await getDb()
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(session.token)))
    expect(row?.twoFactorVerified).toBe(true)
    expect(row?.webauthnChallenge).toBeNull()
    const [stored] = await passkeysOf(user)
    expect(stored?.counter).toBe(1)
    expect(stored?.lastUsedAt).not.toBeNull()
    expect(await actions(user.id)).toContain('two_factor.passkey_used')
    // Each attempt counts like a code.
    expect((await getDb().select().from(rateLimits)).length).toBeGreaterThan(0)

    const second = await signInAs(user.email)
    const replay = await postStep(second.cookie, { intent: 'passkey', credential })
    expect(replay.status).toBe(400)
    const [secondRow] = await getDb()
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(second.session.token)))
    expect(secondRow?.twoFactorVerified).toBe(false)
  })

  test("another account's passkey does not pass this account's step", async () => {
    const { key: strangerKey } = await userWithPasskey()
    const { user } = await userWithPasskey()
    const { cookie, session } = await signInAs(user.email)
    const options = await optionsOf(await postStep(cookie, { intent: 'passkey-options' }))
    const refused = await postStep(cookie, {
      intent: 'passkey',
      credential: JSON.stringify(strangerKey.authenticate(options)),
    })
    expect(refused.status).toBe(400)
    const [row] = await getDb()
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.id, sessionIdFromToken(session.token)),
          eq(sessions.twoFactorVerified, false),
        ),
      )
    expect(row).toBeDefined()
  })

  test('an account required to have a second factor may enrol a passkey at the step', async () => {
    // Agency admins must have one while the platform toggle is on (the default).
    const user = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    const { cookie, session } = await signInAs(user.email)
    // The password alone picks no factor: the link emailed to the account first (ADR 054).
    expect((await postStep(cookie, { intent: 'passkey-options' })).status).toBe(403)
    await openEnrolmentLink((fields) => postStep(cookie, fields), tenant.id, user.email)
    const options = (await optionsOf(await postStep(cookie, { intent: 'passkey-options' }))) as {
      challenge: string
      rp: { id: string }
    }
    expect(options.rp.id).toBe(host)
    const key = virtualPasskey(origin)
    const added = await postStep(cookie, {
      intent: 'passkey-add',
      name: 'Phone',
      credential: JSON.stringify(key.register(options)),
    })
    expect(added).toHaveRedirect('/dashboard/agency')
    const [row] = await getDb()
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(session.token)))
    expect(row?.twoFactorVerified).toBe(true)
    expect(await passkeysOf(user)).toHaveLength(1)
    // From now on the step asks for the passkey: a second enrolment there is refused.
    const next = await signInAs(user.email)
    const refused = await postStep(next.cookie, {
      intent: 'passkey-add',
      name: 'Another',
      credential: JSON.stringify(key.register(options)),
    })
    expect(refused.status).toBe(400)
    expect(await passkeysOf(user)).toHaveLength(1)
  })

  test('garbage is a refusal', async () => {
    const user = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    const { cookie } = await signInAs(user.email)
    const garbage = await postStep(cookie, { intent: 'passkey', credential: '{"id":1}' })
    expect(garbage.status).toBe(400)
  })
})
