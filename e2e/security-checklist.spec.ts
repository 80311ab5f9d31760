// The security checklist, checked against the real server: one header per policy, a fresh
// CSP nonce per response, per-address rate limits that X-Forwarded-For cannot dodge, emailed
// links built from the tenant's record, and the headers of uploaded media.
//
// Rate limits count per client address across every tenant, so the requests that run into
// them come from an address of their own on the loopback network (Linux routes all of
// 127.0.0.0/8 to lo): the other specs, which connect from 127.0.0.1 or ::1, keep their budget.
import { randomBytes, randomInt } from 'node:crypto'
import http from 'node:http'
import net from 'node:net'
import { expect, test } from '@playwright/test'
import { decodeDataAnswer } from './data-answer'
import { e2ePort, HOSTS, SUPER_ADMIN, TENANTS, urlFor } from './fixtures'

/** LIMITS.signInIp.max in app/rate-limits/rate-limit.server.ts. */
const SIGN_IN_IP_MAX = 50

type Reply = {
  status: number
  /** Every value a header was sent with, one per header line (lower-case names). */
  all: (name: string) => string[]
  one: (name: string) => string | undefined
  body: string
}

type RequestOptions = {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  form?: Record<string, string>
  localAddress?: string
}

/**
 * A raw HTTP request to the e2e server with any Host (given with or without a port; the e2e
 * port when without): node's http, so no header is added or rewritten.
 */
function send(host: string, path: string, options: RequestOptions = {}) {
  const { method = 'GET', headers = {}, form, localAddress } = options
  const body = form ? new URLSearchParams(form).toString() : undefined
  const hostHeader = host.includes(':') ? host : `${host}:${e2ePort()}`
  const allHeaders: Record<string, string> = { host: hostHeader, ...headers }
  if (body !== undefined) {
    allHeaders['content-type'] = 'application/x-www-form-urlencoded'
    allHeaders['content-length'] = String(Buffer.byteLength(body))
    // State-changing requests must name this very host as their origin (e2e/csrf.spec.ts).
    allHeaders.origin ??= `http://${hostHeader}`
  }
  return new Promise<Reply>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: e2ePort(), path, method, headers: allHeaders, localAddress },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const raw = res.rawHeaders
          const all = (name: string) => {
            const values: string[] = []
            for (let i = 0; i < raw.length; i += 2) {
              if (raw[i]?.toLowerCase() === name) values.push(raw[i + 1] ?? '')
            }
            return values
          }
          resolve({
            status: res.statusCode ?? 0,
            all,
            one: (name) => all(name)[0],
            body: Buffer.concat(chunks).toString('utf8'),
          })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** A loopback address no other spec connects from, so its rate-limit counters are its own. */
function privateLoopbackAddress() {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`
}

const randomIp = () =>
  `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
const unique = () => randomBytes(5).toString('hex')
/** Shaped like a real reset token (52 base32 characters) but issued to nobody. */
const fakeResetToken = () =>
  Array.from({ length: 52 }, () => 'abcdefghijklmnopqrstuvwxyz234567'[randomInt(32)]).join('')

const nonceOf = (csp: string | undefined) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? '')?.[1]

test.describe('Referrer-Policy', () => {
  test('the reset-password page sends exactly one Referrer-Policy: no-referrer', async () => {
    const path = `/auth/reset-password?token=${fakeResetToken()}`
    const page = await send(HOSTS.alpha, path)
    expect(page.status).toBe(200)
    expect(page.body).toContain('Invalid Reset Link')
    expect(page.all('referrer-policy')).toEqual(['no-referrer'])
    // The same for the loader's data request (client-side navigation to the page).
    const data = await send(HOSTS.alpha, path.replace('?', '.data?'))
    expect(data.status).toBe(200)
    expect(data.all('referrer-policy')).toEqual(['no-referrer'])
  })

  test('other pages, resources and static files send exactly one default policy', async () => {
    const home = await send(HOSTS.alpha, '/')
    expect(home.status).toBe(200)
    expect(home.all('referrer-policy')).toEqual(['strict-origin-when-cross-origin'])

    const script = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(home.body)?.[1]
    const media = /<link rel="icon" href="(\/media\/[^"]+)"/.exec(home.body)?.[1]
    expect(script).toBeTruthy()
    expect(media).toBeTruthy()
    const responses: [path: string, status: number][] = [
      ['/auth/login', 200], // another page
      ['/favicon.svg', 200], // public/, served by express.static
      [script ?? '', 200], // build/client/assets, served from memory (ADR 117)
      [media ?? '', 200], // a resource route
      ['/api/health-check', 200], // a resource route
      ['/dashboard/end-user', 302], // a redirect (to sign in)
      ['/no/such/page', 404], // the 404 page
    ]
    for (const [path, status] of responses) {
      const reply = await send(HOSTS.alpha, path)
      expect(reply.status, path).toBe(status)
      expect(reply.all('referrer-policy'), path).toEqual(['strict-origin-when-cross-origin'])
    }
  })
})

test.describe('Content-Security-Policy', () => {
  test('every response has its own nonce, carried by each of its scripts', async () => {
    const first = await send(HOSTS.alpha, '/auth/login')
    const second = await send(HOSTS.alpha, '/auth/login')
    const nonces: string[] = []
    for (const reply of [first, second]) {
      expect(reply.status).toBe(200)
      // Enforced, not report-only, and one policy.
      expect(reply.all('content-security-policy-report-only')).toEqual([])
      const policies = reply.all('content-security-policy')
      expect(policies).toHaveLength(1)
      const csp = policies[0] ?? ''
      expect(csp).toContain("object-src 'none'")
      expect(csp).toContain("base-uri 'none'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toMatch(/script-src 'strict-dynamic' 'nonce-[A-Za-z0-9+/=]+'(;|$)/)
      const nonce = nonceOf(csp)
      expect(nonce).toBeTruthy()
      nonces.push(nonce ?? '')

      const scripts = reply.body.match(/<script\b[^>]*>/g) ?? []
      expect(scripts.length).toBeGreaterThan(0)
      for (const tag of scripts) {
        expect(/\bnonce="([^"]*)"/.exec(tag)?.[1], tag).toBe(nonce)
      }
    }
    expect(nonces[0]).not.toBe(nonces[1])
  })

  test('scripts run under the enforced policy: no violations, the page hydrates', async ({
    page,
  }) => {
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    await page.exposeFunction('reportCspViolation', (violation: string) =>
      problems.push(`violation: ${violation}`),
    )
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportCspViolation(v: string): void })
          .reportCspViolation
        report(`${event.effectiveDirective} blocked ${event.blockedURI}`)
      })
    })

    const response = await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
    const csp = (await response?.headersArray())?.filter(
      (h) => h.name.toLowerCase() === 'content-security-policy',
    )
    expect(csp).toHaveLength(1)
    // The router exists only once the client bundle (loaded under the nonce) has hydrated.
    await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))

    // Client-side validation: conform shows the message on submit, with no request to the server.
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect(page.getByText('Please enter a valid email address')).toBeVisible()
    // Client-side navigation, done by the router.
    await page.getByRole('link', { name: 'Forgot password' }).click()
    await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/auth/forgot-password'))
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible()

    // zod runs jitless in the browser (app/entry.client.tsx), so not even its eval probe trips it.
    expect(problems).toEqual([])
  })
})

test('a rotating X-Forwarded-For does not escape the per-address sign-in limit', async () => {
  const localAddress = privateLoopbackAddress()
  const attempt = () => {
    const spoofed = randomIp()
    return send(HOSTS.alpha, '/auth/login', {
      method: 'POST',
      localAddress,
      headers: {
        'x-forwarded-for': spoofed,
        'x-real-ip': spoofed,
        forwarded: `for=${spoofed}`,
      },
      form: { email: `nobody-${unique()}@example.test`, password: 'wrong-password' },
    })
  }
  // TRUST_PROXY is unset for the e2e server: every attempt counts against the socket address.
  // (In batches: each attempt is checked before it is counted, so none of these is refused.)
  for (let i = 0; i < SIGN_IN_IP_MAX; i += 10) {
    const batch = await Promise.all(Array.from({ length: 10 }, attempt))
    expect(batch.map((reply) => reply.status)).toEqual(Array(10).fill(401))
  }
  const limited = await attempt()
  expect(limited.status).toBe(429)
  expect(limited.body).toContain('Too many attempts.')
  expect(Number(limited.one('retry-after'))).toBeGreaterThan(0)
  // The same through the client-side router (a data request).
  const spoofed = randomIp()
  const data = await send(HOSTS.alpha, '/auth/login.data', {
    method: 'POST',
    localAddress,
    headers: { 'x-forwarded-for': spoofed, 'x-real-ip': spoofed },
    form: { email: `nobody-${unique()}@example.test`, password: 'wrong-password' },
  })
  expect(data.status).toBe(429)
  expect(Number(data.one('retry-after'))).toBeGreaterThan(0)

  // The limit belongs to that address alone: another one still reaches the password check.
  const other = await send(HOSTS.alpha, '/auth/login', {
    method: 'POST',
    localAddress: privateLoopbackAddress(),
    form: { email: `nobody-${unique()}@example.test`, password: 'wrong-password' },
  })
  expect(other.status).toBe(401)
})

test('reset links use the tenant host from the database, whatever Host or forwarded headers say', async () => {
  // Own address: these requests do not count against the other specs' per-address budget.
  const localAddress = privateLoopbackAddress()
  // Headers some frameworks take the public host, scheme or port from.
  const spoofing = {
    forwarded: 'for=203.0.113.9;host=evil.test;proto=https',
    'x-forwarded-proto': 'https',
    'x-forwarded-port': '8443',
    'x-forwarded-server': 'evil.test',
    'x-original-host': 'evil.test',
    'x-host': 'evil.test',
  }
  const alpha = new URL(urlFor(HOSTS.alpha)).host // alpha.localhost:3100
  const beta = new URL(urlFor(TENANTS.beta.customDomain)).host // cards.beta.test:3100
  const cases = [
    { host: `${HOSTS.alpha}:${e2ePort()}`, expected: alpha },
    // Another port on the Host header: same tenant, but the port is not the public one.
    { host: `${HOSTS.alpha}:8081`, expected: alpha },
    // The fully qualified form of the name (trailing dot): same tenant.
    { host: `${HOSTS.alpha}.:${e2ePort()}`, expected: alpha },
    // Beta through its sub-domain: its verified custom domain is its address.
    { host: `${HOSTS.betaSubdomain}:${e2ePort()}`, expected: beta },
    { host: `${HOSTS.betaCustomDomain}:${e2ePort()}`, expected: beta },
  ]

  // The super admin reads the outbox on the platform host (OUTBOX_PAGE=1), after each request:
  // it lists the latest emails only.
  const signedIn = await send(HOSTS.platform, '/auth/login', {
    method: 'POST',
    localAddress,
    form: SUPER_ADMIN,
  })
  expect(signedIn.status).toBe(302)
  const cookie = signedIn
    .all('set-cookie')
    .map((c) => c.split(';')[0])
    .join('; ')
  type Email = {
    to: string
    subject: string
    html: string
    text: string
    links: { href: string }[]
  }
  const resetEmailsTo = async (to: string) => {
    const outbox = await send(HOSTS.platform, '/dev/outbox.data?_routes=routes%2Fdev.outbox', {
      headers: { cookie },
    })
    expect(outbox.status).toBe(200)
    const answer = decodeDataAnswer(outbox.body) as Record<string, { data: { emails: Email[] } }>
    const emails = answer['routes/dev.outbox']?.data.emails ?? []
    return emails.filter((e) => e.to === to && e.subject.startsWith('Reset your'))
  }
  const register = async (hostHeader: string, email: string) => {
    const registered = await send(hostHeader, '/auth/register', {
      method: 'POST',
      localAddress,
      form: { firstName: 'Rita', lastName: 'Reset', email, password: 'reset-pass' },
    })
    expect(registered.status, `register on ${hostHeader}`).toBe(302)
  }

  for (const { host, expected } of cases) {
    const email = `reset-${unique()}@example.test`
    await register(host, email)
    const requested = await send(host, '/auth/forgot-password', {
      method: 'POST',
      localAddress,
      headers: spoofing,
      form: { email },
    })
    expect(requested.status, host).toBe(302)
    expect(requested.one('location')).toBe('/auth/login')

    // The job queue's worker writes the email a moment after the answer.
    await expect
      .poll(async () => (await resetEmailsTo(email)).length, { message: `reset email for ${host}` })
      .toBe(1)
    const emails = await resetEmailsTo(email)
    // The link's address without its token (ADR 028): its host is what this test is about.
    const links = (emails[0]?.links ?? [])
      .map((link) => link.href)
      .filter((href) => href.includes('/auth/reset-password?'))
    expect(links).toHaveLength(1)
    expect(new URL(links[0] ?? '').host, host).toBe(expected)
    expect(new URL(links[0] ?? '').protocol).toBe('http:')
    // Nothing in the email (links, logo, text) names the spoofed host.
    expect(JSON.stringify(emails)).not.toContain('evil.test')
  }

  // X-Forwarded-Host itself: without TRUST_PROXY the server drops it before anything reads it,
  // so the request is an ordinary one (no 500 from Remix's own origin check) and the link
  // names the tenant's host.
  const email = `reset-${unique()}@example.test`
  await register(`${HOSTS.alpha}:${e2ePort()}`, email)
  const forwarded = await send(`${HOSTS.alpha}:${e2ePort()}`, '/auth/forgot-password', {
    method: 'POST',
    localAddress,
    headers: { ...spoofing, 'x-forwarded-host': 'evil.test' },
    form: { email },
  })
  expect(forwarded.status).toBe(302)
  await expect.poll(async () => (await resetEmailsTo(email)).length).toBe(1)
  const emails = await resetEmailsTo(email)
  const links = (emails[0]?.links ?? [])
    .map((link) => link.href)
    .filter((href) => href.includes('/auth/reset-password?'))
  expect(links.map((href) => new URL(href).host)).toEqual([alpha])
  expect(JSON.stringify(emails)).not.toContain('evil.test')
})

test('uploaded media: nosniff, a raster image type and the sandbox policy', async () => {
  const home = await send(HOSTS.alpha, '/')
  const favicon = /<link rel="icon" href="(\/media\/[0-9a-f]{64}\.\w+)"/.exec(home.body)?.[1]
  const logo = /<img[^>]*\bsrc="(\/media\/[0-9a-f]{64}\.\w+)"/.exec(home.body)?.[1]
  expect(favicon).toBeTruthy()
  expect(logo).toBeTruthy()
  for (const path of [favicon ?? '', logo ?? '']) {
    const media = await send(HOSTS.alpha, path)
    expect(media.status, path).toBe(200)
    const nosniff = media.all('x-content-type-options')
    expect(nosniff.length).toBeGreaterThan(0)
    for (const value of nosniff) expect(value).toBe('nosniff')
    expect(media.all('content-type')).toHaveLength(1)
    const type = media.one('content-type') ?? ''
    expect(type).toMatch(/^image\/(png|jpeg|webp)$/)
    expect(type).not.toContain('svg')
    // The route's own policy, enforced next to the page policy (both apply: the stricter wins).
    expect(media.all('content-security-policy')).toContain("default-src 'none'; sandbox")
    // Media belongs to its tenant: another tenant's host does not serve it.
    expect((await send(HOSTS.betaSubdomain, path)).status, path).toBe(404)
  }
  // The cached answer keeps the route's headers. Polled: another spec's edit in the same tenant
  // may empty its entries in between.
  let cached: Awaited<ReturnType<typeof send>> | undefined
  await expect
    .poll(async () => {
      cached = await send(HOSTS.alpha, logo ?? '')
      return cached.one('x-cache')
    })
    .toBe('HIT')
  expect(cached?.all('content-security-policy')).toContain("default-src 'none'; sandbox")
  expect(cached?.all('x-content-type-options')).toEqual(['nosniff'])
})

test('request bodies are bounded: over 16 MB is a 413 with a message, a body without a length a 411', async () => {
  const tooLarge = await send(HOSTS.alpha, '/auth/login', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(17 * 1024 * 1024),
      origin: `http://${HOSTS.alpha}:${e2ePort()}`,
    },
  })
  expect(tooLarge.status).toBe(413)
  expect(tooLarge.body).toContain('at most 16 MB')

  const chunked = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: e2ePort(),
        path: '/auth/login',
        method: 'POST',
        headers: {
          host: `${HOSTS.alpha}:${e2ePort()}`,
          origin: `http://${HOSTS.alpha}:${e2ePort()}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    req.write('email=a%40b.test&')
    req.end('password=x')
  })
  expect(chunked).toBe(411)
})

test('a client that trickles its headers (slowloris) or sends nothing is cut off within 10 s', async () => {
  // httpTimeouts in app/utils/http-timeouts.ts: headers within 10 s, checked every second.
  const HEADERS_BOUND_MS = 10_000
  const GIVE_UP_MS = 20_000
  test.setTimeout(GIVE_UP_MS + 10_000)
  const hold = (trickle: boolean) =>
    new Promise<{ ms: number; reply: string }>((resolve) => {
      const started = Date.now()
      const socket = net.connect({ host: '127.0.0.1', port: e2ePort() })
      let reply = ''
      let drip: NodeJS.Timeout | undefined
      // Node's defaults would keep the socket a minute and more: stop waiting well before.
      const giveUp = setTimeout(() => socket.destroy(), GIVE_UP_MS)
      socket.on('connect', () => {
        if (!trickle) return
        socket.write(`GET / HTTP/1.1\r\nHost: ${HOSTS.alpha}:${e2ePort()}\r\n`)
        // A header line every half second: always busy, never done.
        drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 500)
      })
      socket.on('data', (chunk) => {
        reply += chunk
      })
      socket.on('error', () => {})
      socket.on('close', () => {
        clearInterval(drip)
        clearTimeout(giveUp)
        resolve({ ms: Date.now() - started, reply })
      })
    })
  const [trickled, silent] = await Promise.all([hold(true), hold(false)])
  for (const held of [trickled, silent]) {
    expect(held.ms).toBeGreaterThanOrEqual(HEADERS_BOUND_MS - 500)
    expect(held.ms).toBeLessThan(HEADERS_BOUND_MS + 2_500)
  }
  expect(trickled.reply).toMatch(/^HTTP\/1\.1 408 /)
})
