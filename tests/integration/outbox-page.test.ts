import { desc, eq } from 'drizzle-orm'
import { afterEach, expect, test } from 'vitest'
import { requestPasswordReset, resetPassword } from '#app/auth/accounts.server'
import { getEnv, resetEnvForTests } from '#app/env.server'
import { insertOutboxEmail } from '#app/models/outbox.server'
import { loader } from '#app/routes/dev.outbox'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb } from '#drizzle/db.server'
import { emailOutbox } from '#drizzle/schema'
import {
  contextFor,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

afterEach(() => {
  process.env.NODE_ENV = 'test'
  delete process.env.OUTBOX_PAGE
  delete process.env.DATABASE_URL
  delete process.env.APP_SECRET
  resetEnvForTests()
})

async function visit(cookie?: string) {
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {}
  return settle(() =>
    loader({
      request: requestFor('localhost', '/dev/outbox', { headers }),
      context: contextFor('localhost'),
      params: {},
    }),
  )
}

test('on a Postgres deployment the outbox page is off unless OUTBOX_PAGE=1, and then only for super admins', async () => {
  const platform = await getPlatformOrganization()
  const admin = await makeUser(platform.id, { role: 'super_admin' })
  const member = await makeUser(platform.id, { role: 'end_user' })

  // Only the environment says Postgres: the test's own database stays installed. Production with
  // DATABASE_URL wants APP_SECRET, and the one the test has is kept so cookies stay valid.
  process.env.APP_SECRET = getEnv().APP_SECRET
  process.env.DATABASE_URL = 'postgres://brandcard@127.0.0.1:5432/brandcard'
  process.env.NODE_ENV = 'production'
  resetEnvForTests()
  // Cookie names change in production (__Host- prefix), so sessions are made after the switch.
  const adminCookie = await sessionCookieFor(platform.id, admin.id)
  const memberCookie = await sessionCookieFor(platform.id, member.id)
  expect((await visit(adminCookie)).status).toBe(404)

  process.env.OUTBOX_PAGE = '1'
  resetEnvForTests()
  expect((await visit()).status).toBe(404)
  expect((await visit(memberCookie)).status).toBe(404)
  expect((await visit(adminCookie)).status).toBe(200)
})

test('the embedded demo shows its outbox with no setting, to super admins only, and OUTBOX_PAGE=0 hides it', async () => {
  const platform = await getPlatformOrganization()
  const admin = await makeUser(platform.id, { role: 'super_admin' })
  const member = await makeUser(platform.id, { role: 'end_user' })

  delete process.env.DATABASE_URL
  process.env.NODE_ENV = 'production'
  resetEnvForTests()
  const adminCookie = await sessionCookieFor(platform.id, admin.id)
  const memberCookie = await sessionCookieFor(platform.id, member.id)
  expect((await visit()).status).toBe(404)
  expect((await visit(memberCookie)).status).toBe(404)
  expect((await visit(adminCookie)).status).toBe(200)

  process.env.OUTBOX_PAGE = '0'
  resetEnvForTests()
  expect((await visit(adminCookie)).status).toBe(404)
})

test('in development a tenant host shows only that tenant’s emails', async () => {
  const a = await makeOrganization()
  const b = await makeOrganization()
  await insertOutboxEmail(getDb(), a.id, { to: 'a@a.test', subject: 'For A', html: '', text: '' })
  await insertOutboxEmail(getDb(), b.id, { to: 'b@b.test', subject: 'For B', html: '', text: '' })
  const response = await settle(() =>
    loader({
      request: requestFor(`${a.slug}.localhost`, '/dev/outbox'),
      context: contextFor(`${a.slug}.localhost`),
      params: {},
    }),
  )
  const { emails } = (await response.json()) as { emails: { subject: string }[] }
  expect(emails.map((e) => e.subject)).toEqual(['For A'])
})

type PageEmail = {
  to: string
  html: string
  text: string
  headers: Record<string, string>
  links: { href: string; removed: boolean }[]
}

/** Queues and "delivers" a reset email for `email` on `host`; returns the token its recipient got. */
async function resetEmailFor(host: string, email: string) {
  const resolution = await resolveTenant(host)
  if (resolution.status !== 'found') throw new Error(`no tenant at ${host}`)
  await requestPasswordReset(resolution.tenant, email, '198.51.100.40')
  await settleBackgroundWork()
  const [row] = asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, email))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1),
  )
  const token = /reset-password\?token=([a-z2-7]{52})/.exec(row?.text ?? '')?.[1]
  if (!token) throw new Error(`no reset link for ${email}`)
  return token
}

async function pageEmails(host: string, cookie?: string) {
  const response = await settle(() =>
    loader({
      request: requestFor(host, '/dev/outbox', { headers: cookie ? { Cookie: cookie } : {} }),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  const body = await response.text()
  return { body, emails: (JSON.parse(body) as { emails: PageEmail[] }).emails }
}

test('on a Postgres deployment a super admin sees other people’s links removed, and only their own live (demo transport)', async () => {
  const platform = await getPlatformOrganization()
  const admin = await makeUser(platform.id, { role: 'super_admin' })
  const agency = await makeOrganization()
  const victim = await makeUser(agency.id)
  // Only the environment says Postgres (as in the first test); APP_SECRET kept for the cookies.
  process.env.APP_SECRET = getEnv().APP_SECRET
  process.env.DATABASE_URL = 'postgres://brandcard@127.0.0.1:5432/brandcard'
  process.env.NODE_ENV = 'production'
  process.env.OUTBOX_PAGE = '1'
  resetEnvForTests()
  const cookie = await sessionCookieFor(platform.id, admin.id)
  const theirs = await resetEmailFor(`${agency.slug}.localhost`, victim.email)
  const mine = await resetEmailFor('localhost', admin.email)

  const { body, emails } = await pageEmails('localhost', cookie)
  expect(body).not.toContain(theirs)
  const other = emails.find((e) => e.to === victim.email)
  expect(other?.text).toContain('/auth/reset-password?token={removed-secret-0}')
  expect(other?.links.filter((l) => l.href.includes('reset-password'))).toEqual([
    { href: expect.stringContaining('{removed-secret-0}'), removed: true },
  ])
  const own = emails.find((e) => e.to === admin.email)
  expect(own?.text).toContain(`/auth/reset-password?token=${mine}`)
  expect(own?.links).toContainEqual({ href: expect.stringContaining(mine), removed: false })
})

// Issue 41 point 3: under `npm start` without Resend the outbox is the only inbox there is, so a
// new account's confirmation and an agency user's reset are followed from it, as from a local
// mail catcher; while each link works, and not once it is used.
test('on the embedded demo without Resend the outbox shows every recipient’s working links, while they work', async () => {
  const platform = await getPlatformOrganization()
  const admin = await makeUser(platform.id, { role: 'super_admin' })
  const agency = await makeOrganization()
  const newcomer = await makeUser(agency.id)
  process.env.NODE_ENV = 'production'
  resetEnvForTests()
  const cookie = await sessionCookieFor(platform.id, admin.id)
  const theirs = await resetEmailFor(`${agency.slug}.localhost`, newcomer.email)

  const { emails } = await pageEmails('localhost', cookie)
  const other = emails.find((e) => e.to === newcomer.email)
  expect(other?.text).toContain(`/auth/reset-password?token=${theirs}`)
  expect(other?.links).toContainEqual({ href: expect.stringContaining(theirs), removed: false })

  // Used, the link no longer works, and the page removes it.
  const resolution = await resolveTenant(`${agency.slug}.localhost`)
  if (resolution.status !== 'found') throw new Error('no tenant')
  expect(await resetPassword(resolution.tenant, theirs, 'a-new-password-1')).toBe(true)
  const after = (await pageEmails('localhost', cookie)).emails.find((e) => e.to === newcomer.email)
  expect(after?.text).not.toContain(theirs)
  expect(after?.links.filter((l) => l.href.includes('reset-password'))).toEqual([
    { href: expect.stringContaining('{removed-secret-0}'), removed: true },
  ])
})

test('with Resend as the transport the page shows every link removed, even the viewer’s own', async () => {
  const platform = await getPlatformOrganization()
  const admin = await makeUser(platform.id, { role: 'super_admin' })
  process.env.NODE_ENV = 'production'
  process.env.OUTBOX_PAGE = '1'
  resetEnvForTests()
  const cookie = await sessionCookieFor(platform.id, admin.id)
  const mine = await resetEmailFor('localhost', admin.email)
  process.env.RESEND_API_KEY = 're_not_used'
  resetEnvForTests()
  try {
    const { body, emails } = await pageEmails('localhost', cookie)
    expect(body).not.toContain(mine)
    expect(emails.find((e) => e.to === admin.email)?.text).toContain('{removed-secret-0}')
  } finally {
    delete process.env.RESEND_API_KEY
  }
})

test('in development the outbox stands in for the inbox: a link shows while it works, then is removed', async () => {
  const agency = await makeOrganization()
  const host = `${agency.slug}.localhost`
  const user = await makeUser(agency.id)
  const token = await resetEmailFor(host, user.email)
  const before = await pageEmails(host)
  expect(before.emails.find((e) => e.to === user.email)?.text).toContain(`token=${token}`)
  const resolution = await resolveTenant(host)
  if (resolution.status !== 'found') throw new Error('no tenant')
  expect(await resetPassword(resolution.tenant, token, 'a-new-password')).toBe(true)
  const after = await pageEmails(host)
  expect(after.body).not.toContain(token)
  expect(after.emails.find((e) => e.to === user.email)?.links).toContainEqual({
    href: expect.stringContaining('{removed-secret-0}'),
    removed: true,
  })
})
