import { afterEach, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { insertOutboxEmail } from '#app/models/outbox.server'
import { loader } from '#app/routes/dev.outbox'
import { getDb } from '#drizzle/db.server'
import {
  contextFor,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

afterEach(() => {
  process.env.NODE_ENV = 'test'
  delete process.env.OUTBOX_PAGE
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

test('in production the outbox page is off unless OUTBOX_PAGE=1, and then only for super admins', async () => {
  const platform = await getPlatformOrganization()
  const admin = await makeUser(platform.id, { role: 'super_admin' })
  const member = await makeUser(platform.id, { role: 'end_user' })

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
