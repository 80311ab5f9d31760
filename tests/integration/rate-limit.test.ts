import { describe, expect, test } from 'vitest'
import { action as loginAction } from '#app/routes/auth.login'
import { contextFor, formRequest, makeOrganization, makeUser, settle } from '#tests/factories'

async function attempt(
  host: string,
  email: string,
  password: string,
  ip: string,
  headers: Record<string, string> = {},
) {
  const request = formRequest(host, '/auth/login', { email, password })
  for (const [k, v] of Object.entries(headers)) request.headers.set(k, v)
  return settle(() => loginAction({ request, context: contextFor(host, ip), params: {} }))
}

describe('sign-in throttling', () => {
  test('an account is limited after 10 failures, even for its owner, with 429 and a message', async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, { password: 'right-pass' })
    for (let i = 0; i < 10; i++) {
      expect((await attempt(host, user.email, 'wrong-pass', `198.51.100.${i}`)).status).toBe(401)
    }
    const limited = await attempt(host, user.email, 'right-pass', '198.51.100.200')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    const body = (await limited.json()) as { result: { error: Record<string, string[]> } }
    expect(body.result.error['']?.[0]).toMatch(/Too many attempts/)
  })

  test('an address is limited across accounts; X-Forwarded-For does not change the address', async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    for (let i = 0; i < 50; i++) {
      const response = await attempt(host, `guess${i}@example.test`, 'wrong-pass', '192.0.2.7', {
        'X-Forwarded-For': `10.0.0.${i}`,
      })
      expect(response.status).toBe(401)
    }
    const limited = await attempt(host, 'another@example.test', 'wrong-pass', '192.0.2.7', {
      'X-Forwarded-For': '10.9.9.9',
    })
    expect(limited.status).toBe(429)
  })

  test('a success clears the account counter', async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, { password: 'right-pass' })
    for (let i = 0; i < 9; i++) await attempt(host, user.email, 'wrong-pass', '203.0.113.9')
    expect((await attempt(host, user.email, 'right-pass', '203.0.113.9')).status).toBe(302)
    for (let i = 0; i < 9; i++) {
      expect((await attempt(host, user.email, 'wrong-pass', '203.0.113.9')).status).toBe(401)
    }
  })
})
