import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { resetPassword } from '#app/auth/accounts.server'
import { verifyPassword } from '#app/auth/password.server'
import { resetEnvForTests } from '#app/env.server'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import { loader as resetLoader } from '#app/routes/auth.reset-password'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb } from '#drizzle/db.server'
import { emailOutbox, passwordResetTokens, sessions, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

afterEach(() => {
  delete process.env.RESEND_API_KEY
  delete process.env.RESEND_BASE_URL
  resetEnvForTests()
})

async function setup() {
  const { organization } = await makeBrandedOrganization({
    name: 'Reset Co',
    primaryColor: '#123456',
  })
  const user = await makeUser(organization.id, {
    email: 'who@example.test',
    password: 'old-secret',
  })
  return { organization, user, host: `${organization.slug}.localhost` }
}

function forgot(host: string, email: string, headers: Record<string, string> = {}, ip?: string) {
  const request = formRequest(host, '/auth/forgot-password', { email })
  for (const [k, v] of Object.entries(headers)) request.headers.set(k, v)
  return settle(() => forgotAction({ request, context: contextFor(host, ip), params: {} }))
}

const linkIn = (text: string) =>
  /https?:\/\/\S+\/auth\/reset-password\?token=([a-z2-7]+)/.exec(text)

describe('forgot password', () => {
  test('answers the same for known and unknown emails; emails only a known one', async () => {
    const { organization, host } = await setup()
    const known = await forgot(host, 'WHO@example.test')
    const unknown = await forgot(host, 'nobody@example.test')
    for (const response of [known, unknown]) {
      expect(response).toHaveRedirect('/auth/login')
    }
    const outbox = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.organizationId, organization.id))
    expect(outbox.map((e) => e.toAddress)).toEqual(['who@example.test'])
    const [email] = outbox
    expect(email?.subject).toBe('Reset your Reset Co password')
    expect(email?.html).toContain('#123456')
    expect(email?.html).toContain('Reset Co')
    expect(email?.text).toContain('/auth/reset-password?token=')
  })

  test('the link uses the tenant host from the database even with a spoofed Host', async () => {
    const { organization, host } = await setup()
    await forgot(host, 'who@example.test', { Host: 'evil.test', 'X-Forwarded-Host': 'evil.test' })
    const [email] = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.organizationId, organization.id))
    expect(email?.text).toContain(
      `http://${organization.slug}.localhost:3000/auth/reset-password?token=`,
    )
    expect(email?.text).not.toContain('evil.test')
  })

  test('the token is stored hashed, expires in an hour and works once', async () => {
    const { organization, user, host } = await setup()
    const other = await sessionCookieFor(organization.id, user.id)
    expect(other).toBeTruthy()
    await forgot(host, 'who@example.test')
    const [email] = asDelivered(
      await getDb()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.organizationId, organization.id)),
    )
    const token = linkIn(email?.text ?? '')?.[1] ?? ''
    expect(token).toMatch(/^[a-z2-7]{52}$/)
    const [row] = await getDb()
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id))
    expect(row?.tokenHash).not.toBe(token)
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now()
    expect(ttl).toBeGreaterThan(59 * 60_000)
    expect(ttl).toBeLessThanOrEqual(60 * 60_000)

    const page = await settle(() =>
      resetLoader({
        request: requestFor(host, `/auth/reset-password?token=${token}`),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(await page.json()).toEqual({ token })

    const resolution = await resolveTenant(host)
    if (resolution.status !== 'found') throw new Error('tenant not found')
    expect(await resetPassword(resolution.tenant, token, 'new-secret')).toBe(true)
    expect(await resetPassword(resolution.tenant, token, 'third-secret')).toBe(false)
    const [updated] = await getDb().select().from(users).where(eq(users.id, user.id))
    expect(await verifyPassword(updated?.passwordHash ?? '', 'new-secret')).toBe(true)
    // Every session of the user ended.
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
  })

  test('reset requests are rate-limited per account and answer 429 with a message', async () => {
    const { host } = await setup()
    for (let i = 0; i < 5; i++) expect((await forgot(host, 'who@example.test')).status).toBe(302)
    const limited = await forgot(host, 'who@example.test')
    expect(limited.status).toBe(429)
    const body = (await limited.json()) as { result: { error: Record<string, string[]> } }
    expect(body.result.error['']?.[0]).toMatch(
      /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
    )
  })

  test('with RESEND_API_KEY the queue worker sends the email to Resend (a local fake), the outbox records it as sent, and the answer does not wait for it', async () => {
    const received: { auth?: string; body: Record<string, unknown> }[] = []
    // The fake provider holds every answer until released: the forgot-password answer must not
    // wait for it, or its timing would tell a known email from an unknown one.
    const held: (() => void)[] = []
    const server = createServer((req: IncomingMessage, res) => {
      let raw = ''
      req.on('data', (c) => {
        raw += c
      })
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(raw) })
        held.push(() => {
          res.writeHead(200, { 'Content-Type': 'application/json' })
          res.end(JSON.stringify({ id: 'email_123' }))
        })
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      process.env.RESEND_API_KEY = 're_test_key'
      process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resetEnvForTests()
      const { organization, host } = await setup()
      // The action itself, not settle(): settle would wait for the held delivery too.
      const answered = await Promise.race([
        forgotAction({
          request: formRequest(host, '/auth/forgot-password', { email: 'who@example.test' }),
          context: contextFor(host),
          params: {},
        }) as Promise<Response>,
        // The delivery is held forever: an action that waited for it would never answer.
        new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 60_000)),
      ])
      expect(answered === 'waited' ? answered : answered.status).toBe(302)
      // The answer only queued the work; the queue's worker talks to the provider.
      expect(received).toHaveLength(0)
      const delivering = settleBackgroundWork()
      await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 60_000 })
      for (const release of held.splice(0)) release()
      await delivering
      expect(received).toHaveLength(1)
      expect(received[0]?.auth).toBe('Bearer re_test_key')
      expect(received[0]?.body).toMatchObject({
        to: 'who@example.test',
        subject: 'Reset your Reset Co password',
      })
      expect(String(received[0]?.body.from)).toContain('Reset Co')
      expect(String(received[0]?.body.text)).toContain('/auth/reset-password?token=')
      const outbox = await getDb()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.organizationId, organization.id))
      expect(outbox.map((email) => [email.state, email.providerMessageId])).toEqual([
        ['sent', 'email_123'],
      ])
    } finally {
      for (const release of held.splice(0)) release()
      server.close()
    }
  })
})
