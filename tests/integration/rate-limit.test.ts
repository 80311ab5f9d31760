import { describe, expect, test } from 'vitest'
import { sessionCookieName } from '#app/auth/session.server'
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

  test("a stranger's failures lock the account for new browsers, never for one that signed in to it before", async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, { password: 'right-pass' })
    // The owner signed in from this browser before: it holds the account's device cookie.
    const first = await attempt(host, user.email, 'right-pass', '203.0.113.50')
    expect(first.status).toBe(302)
    const device = deviceCookieOf(first)
    expect(device).toMatch(/^device=/)
    for (let i = 0; i < 10; i++) {
      expect((await attempt(host, user.email, 'wrong-guess', `198.51.100.${i + 20}`)).status).toBe(
        401,
      )
    }
    // A new browser is locked out, whatever its address; the owner's browser is not.
    expect((await attempt(host, user.email, 'right-pass', '203.0.113.51')).status).toBe(429)
    const owner = await attempt(host, user.email, 'right-pass', '203.0.113.50', { Cookie: device })
    expect(owner.status).toBe(302)
    expect(owner.headers.getSetCookie().some((c) => c.startsWith(sessionCookieName()))).toBe(true)
  })

  test('a device cookie of another account, another tenant or a forged one opens nothing', async () => {
    const organization = await makeOrganization()
    const other = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, { password: 'right-pass' })
    const neighbour = await makeUser(organization.id, { password: 'neighbour-pass' })
    const twin = await makeUser(other.id, { email: user.email, password: 'twin-pass' })
    const neighbourDevice = deviceCookieOf(
      await attempt(host, neighbour.email, 'neighbour-pass', '203.0.113.60'),
    )
    const twinDevice = deviceCookieOf(
      await attempt(`${other.slug}.localhost`, twin.email, 'twin-pass', '203.0.113.61'),
    )
    const ownDevice = deviceCookieOf(await attempt(host, user.email, 'right-pass', '203.0.113.62'))
    const [name, value = ''] = ownDevice.split('=')
    const forged = `${name}=${value.slice(0, -4)}AAAA`
    for (let i = 0; i < 10; i++)
      await attempt(host, user.email, 'wrong-guess', `198.51.100.${i + 40}`)
    for (const cookie of [neighbourDevice, twinDevice, forged, `${name}=garbage`]) {
      const response = await attempt(host, user.email, 'right-pass', '203.0.113.63', {
        Cookie: cookie,
      })
      expect(response.status, cookie).toBe(429)
    }
    expect(
      (await attempt(host, user.email, 'right-pass', '203.0.113.63', { Cookie: ownDevice })).status,
    ).toBe(302)
  })

  test("failures from a device-cookie browser are limited per cookie, not on the owner's account", async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, { password: 'right-pass' })
    const device = deviceCookieOf(await attempt(host, user.email, 'right-pass', '203.0.113.70'))
    for (let i = 0; i < 10; i++) {
      const response = await attempt(host, user.email, 'wrong-guess', `198.51.100.${i + 60}`, {
        Cookie: device,
      })
      expect(response.status).toBe(401)
    }
    const limitedDevice = await attempt(host, user.email, 'right-pass', '203.0.113.71', {
      Cookie: device,
    })
    expect(limitedDevice.status).toBe(429)
    // The account itself was not counted: a new browser still signs in.
    expect((await attempt(host, user.email, 'right-pass', '203.0.113.72')).status).toBe(302)
  })
})

function deviceCookieOf(response: Response) {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('device='))
  return cookie?.split(';')[0] ?? ''
}
