// Every validation message of the sign-in forms, with a 4xx and nothing written (spec §5, §8).
import { count, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { verifyPassword } from '#app/auth/password.server'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import { action as loginAction } from '#app/routes/auth.login'
import { action as registerAction } from '#app/routes/auth.register'
import { action as resetAction } from '#app/routes/auth.reset-password'
import { getDb } from '#drizzle/db.server'
import { emailOutbox, passwordResetTokens, sessions, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  replyErrors,
  settle,
  settleBackgroundWork,
} from '#tests/factories'

let host: string
let organizationId: string
beforeAll(async () => {
  const organization = await makeOrganization()
  organizationId = organization.id
  host = `${organization.slug}.localhost`
  await makeUser(organization.id, { email: 'taken@example.test', password: 'secret123' })
})

async function rowCounts() {
  const db = getDb()
  const [u] = await db.select({ n: count() }).from(users)
  const [s] = await db.select({ n: count() }).from(sessions)
  const [t] = await db.select({ n: count() }).from(passwordResetTokens)
  const [o] = await db.select({ n: count() }).from(emailOutbox)
  return { users: u?.n, sessions: s?.n, tokens: t?.n, outbox: o?.n }
}

const post = (action: typeof registerAction, path: string, fields: Record<string, string>) =>
  settle(() =>
    action({ request: formRequest(host, path, fields), context: contextFor(host), params: {} }),
  )

const validRegistration = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.test',
  password: 'secret123',
}

describe('register', () => {
  test.each([
    [{ firstName: 'A' }, 'firstName', 'First name must be at least 2 characters'],
    [{ firstName: '  ' }, 'firstName', 'First name must be at least 2 characters'],
    [{ lastName: 'B' }, 'lastName', 'Last name must be at least 2 characters'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ email: '' }, 'email', 'Please enter a valid email address'],
    [{ password: '12345' }, 'password', 'Password must be at least 6 characters'],
    [{ password: '' }, 'password', 'Password must be at least 6 characters'],
  ])('%j → %s: %s', async (override, field, message) => {
    const before = await rowCounts()
    const response = await post(registerAction, '/auth/register', {
      ...validRegistration,
      ...override,
    })
    expect(response.status).toBe(400)
    expect((await replyErrors(response))[field]).toContain(message)
    expect(await rowCounts()).toEqual(before)
  })

  test('a new email is signed in and sent to the wizard; a taken one (any case) is told to sign in, and its owner emailed', async () => {
    const fresh = await post(registerAction, '/auth/register', {
      ...validRegistration,
      email: 'fresh-person@example.test',
    })
    expect(fresh).toHaveRedirect('/onboarding')
    // Signed in (ADR 071): the session cookie names a session of the new account.
    const cookies = fresh.headers.getSetCookie()
    const sessionCookie = cookies.find((cookie) => /^[^=]*session[^=]*=[^;]+/.test(cookie))
    expect(sessionCookie, cookies.join('\n')).toBeDefined()
    const [created] = await getDb()
      .select()
      .from(users)
      .where(eq(users.email, 'fresh-person@example.test'))
    const [session] = await getDb()
      .select()
      .from(sessions)
      .where(eq(sessions.userId, created?.id ?? ''))
    expect(session).toBeDefined()
    // A way back to where they were going (a card they came to connect with) wins over the wizard.
    const connecting = await post(registerAction, '/auth/register', {
      ...validRegistration,
      email: 'connecting-person@example.test',
      redirectTo: '/card/someone',
    })
    expect(connecting).toHaveRedirect('/card/someone')

    const before = await rowCounts()
    const taken = await post(registerAction, '/auth/register', {
      ...validRegistration,
      email: 'TAKEN@example.test',
    })
    expect(taken.status).toBe(409)
    expect((await replyErrors(taken)).email).toContain(
      'An account with this email already exists. Please sign in instead.',
    )
    expect(taken.headers.getSetCookie()).toEqual([])
    // The taken email created nothing and signed no one in; its owner was told, in the tenant's
    // name, that someone tried.
    const after = await rowCounts()
    expect(after.users).toBe(before.users)
    expect(after.sessions).toBe(before.sessions)
    const emails = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, 'taken@example.test'))
    expect(emails).toHaveLength(1)
    expect(emails[0]?.text).toContain(
      'An account with this email already exists. Please sign in instead.',
    )
    expect(emails[0]?.text).toContain(`http://${host}:3000/auth/login`)
    const [owner] = await getDb().select().from(users).where(eq(users.email, 'taken@example.test'))
    expect(await verifyPassword(owner?.passwordHash ?? '', 'secret123')).toBe(true)
  })

  test('sign-ups are rate limited per email and per address, with a message and nothing written', async () => {
    const email = 'limited-signup@example.test'
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const response = await settle(() =>
        registerAction({
          request: formRequest(host, '/auth/register', { ...validRegistration, email }),
          context: contextFor(host, `198.51.100.${i + 1}`),
          params: {},
        }),
      )
      statuses.push(response.status)
      if (response.status === 429) {
        expect(response.headers.get('Retry-After')).toMatch(/^\d+$/)
        expect((await replyErrors(response))['']?.[0]).toMatch(/^Too many attempts\. Please wait/)
      }
    }
    // The first makes the account; the next are told it exists; the sixth meets the limit.
    expect(statuses).toEqual([302, 409, 409, 409, 409, 429])
    // One address, many emails: the per-address limit.
    const address = '198.51.100.200'
    const before = await rowCounts()
    let limited: Response | undefined
    for (let i = 0; i < 51 && !limited; i++) {
      const response = await settle(() =>
        registerAction({
          request: formRequest(host, '/auth/register', {
            ...validRegistration,
            email: 'taken@example.test',
          }),
          context: contextFor(host, address),
          params: {},
        }),
      )
      if (response.status === 429) limited = response
    }
    expect(limited?.status).toBe(429)
    expect((await rowCounts()).users).toBe(before.users)
  })

  test('a valid form creates an end user of this tenant and goes to the wizard with a toast', async () => {
    const response = await post(registerAction, '/auth/register', {
      ...validRegistration,
      email: 'New.Person@Example.test',
      company: 'Engines Ltd',
      role: 'super_admin',
      organizationId: '00000000-0000-0000-0000-000000000000',
    })
    expect(response).toHaveRedirect('/onboarding')
    await expect(response).toSendToast()
    const [user] = await getDb()
      .select()
      .from(users)
      .where(eq(users.email, 'new.person@example.test'))
    expect(user).toMatchObject({ organizationId, role: 'end_user', company: 'Engines Ltd' })
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  })
})

describe('login', () => {
  test.each([
    [{ email: 'bad' }, 'email', 'Please enter a valid email address'],
    [{ password: '123' }, 'password', 'Password must be at least 6 characters'],
  ])('%j → %s: %s', async (override, field, message) => {
    const before = await rowCounts()
    const response = await post(loginAction, '/auth/login', {
      email: 'taken@example.test',
      password: 'secret123',
      ...override,
    })
    expect(response.status).toBe(400)
    expect((await replyErrors(response))[field]).toContain(message)
    expect(await rowCounts()).toEqual(before)
  })

  test.each(['/..//evil.com', '/.//evil.com', '/%2e%2e//evil.com'])(
    'a redirectTo of %s never leaves the site after sign-in',
    async (redirectTo) => {
      const response = await post(loginAction, '/auth/login', {
        email: 'taken@example.test',
        password: 'secret123',
        redirectTo,
      })
      expect(response).toHaveRedirect('/dashboard/end-user')
    },
  )

  test('unknown email and wrong password get the same answer', async () => {
    const before = await rowCounts()
    const unknown = await post(loginAction, '/auth/login', {
      email: 'nobody@example.test',
      password: 'secret123',
    })
    const wrong = await post(loginAction, '/auth/login', {
      email: 'taken@example.test',
      password: 'wrong-one',
    })
    expect(unknown.status).toBe(401)
    expect(wrong.status).toBe(401)
    const message = 'Failed to sign in. Please check your credentials.'
    expect((await replyErrors(unknown))['']).toEqual([message])
    expect((await replyErrors(wrong))['']).toEqual([message])
    expect((await rowCounts()).sessions).toBe(before.sessions)
  })
})

describe('forgot password', () => {
  test('a known email answers before any reset token or email is written, like an unknown one', async () => {
    await makeUser(organizationId, { email: 'known-reset@example.test' })
    const before = await rowCounts()
    // Called without settle(): what the action did before answering, and nothing after.
    const response = (await forgotAction({
      request: formRequest(host, '/auth/forgot-password', { email: 'known-reset@example.test' }),
      context: contextFor(host, '198.51.100.77'),
      params: {},
    })) as Response
    expect(response.status).toBe(302)
    expect(await rowCounts()).toEqual(before)
    await settleBackgroundWork()
    const after = await rowCounts()
    expect(after.tokens).toBe((before.tokens ?? 0) + 1)
    expect(after.outbox).toBe((before.outbox ?? 0) + 1)
  })

  test('an invalid email is refused and nothing is sent', async () => {
    const before = await rowCounts()
    const response = await post(forgotAction, '/auth/forgot-password', { email: 'nope' })
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).email).toContain('Please enter a valid email address')
    expect(await rowCounts()).toEqual(before)
  })
})

describe('reset password', () => {
  const token = 'a'.repeat(52)
  test.each([
    [
      { password: '123', confirmPassword: '123' },
      'password',
      'Password must be at least 6 characters',
    ],
    [
      { password: 'secret123', confirmPassword: 'other123' },
      'confirmPassword',
      'Passwords do not match',
    ],
    [
      { password: 'secret123', confirmPassword: '1' },
      'confirmPassword',
      'Password must be at least 6 characters',
    ],
  ])('%j → %s: %s', async (fields, field, message) => {
    const before = await rowCounts()
    const response = await post(resetAction, '/auth/reset-password', { token, ...fields })
    expect(response.status).toBe(400)
    expect((await replyErrors(response))[field]).toContain(message)
    expect(await rowCounts()).toEqual(before)
  })
})
