// HTTPS for agency hosts through Caddy (issue 17 point 1, ADR 025), on servers this spec starts:
// the production server (Postgres under row-level security, TRUST_PROXY=1) behind Caddy running
// deploy/Caddyfile with its internal CA (`local_certs`) on high ports. Chromium trusts that CA
// through an NSS database of its own (a temporary HOME), not by ignoring certificate errors, and
// reaches the custom domains through --host-resolver-rules. A verified custom domain gets a
// certificate at its first handshake and every link (page, QR code, emailed link) is https on
// that domain; an unverified one gets none: its TLS handshake fails. Single sign-on, SAML (ADR
// 090) and OpenID Connect (ADR 088), runs on the verified domain too: its __Host- cookies need
// TLS, which only this spec has.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { type Browser, chromium, expect, type Page, test } from '@playwright/test'
import jsQR from 'jsqr'
import postgres from 'postgres'
import sharp from 'sharp'
import { qrTextOf } from '#app/cards/short-link'
import { resetEnvForTests } from '#app/env.server'
import { parseIdpMetadata } from '#app/sso/saml.server'
import { sealAtRest } from '#app/utils/secret-box.server'
import { TEST_APP_SECRET } from '#tests/app-secret'
import { type FakeEmail, type FakeResend, startFakeResend } from '#tests/fake-resend'
import { startTestIdp } from '#tests/oidc-idp'
import { serveSamlIdp } from '#tests/saml-idp'
import { SERVER_ARGS, TEST_V8_FLAGS } from '../scripts/server-command'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium'
import { E2E_PORT } from './fixtures'
import { linkIn } from './inbox'
import { enterDemoTwoFactorCode } from './page-helpers'
import { createFreshPostgresDatabase, productionServerEnv } from './postgres-database'

const CADDY = '/usr/bin/caddy'
// Ports of this spec's own: beside the project servers (E2E_PORT, +1) and clear of the DNS
// (+1000) and CRM (+2000) fakes, so it runs in parallel with every other spec.
const HTTPS_PORT = E2E_PORT + 50
const HTTP_PORT = E2E_PORT + 51
const APP_PORT = E2E_PORT + 52
// deploy/Caddyfile's loopback listener for the TLS ask.
const ASK_PORT = E2E_PORT + 53
const VERIFIED = 'cards.acme-tls.test'
const PENDING = 'cards.globex-tls.test'
const DEMO_PASSWORD = 'demo1234'
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

const origin = (host: string) => `https://${host}:${HTTPS_PORT}`

test.describe.configure({ mode: 'serial' })

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function spawnLogged(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  let output = ''
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  // A missing binary (caddy: .ci/run installs it) is reported by waitFor, not a crashed worker.
  child.on('error', (error) => {
    output += `could not start ${command}: ${error.message}\n`
  })
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  return { child, output: () => output, exited }
}

async function stop(started: Started | undefined) {
  if (!started || started.child.exitCode !== null || started.child.signalCode !== null) return
  started.child.kill('SIGTERM')
  const killed = setTimeout(() => started.child.kill('SIGKILL'), 15_000)
  await started.exited
  clearTimeout(killed)
}

async function waitFor(what: string, started: Started, ready: () => Promise<boolean>) {
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null || started.output().startsWith('could not start')) {
      throw new Error(`${what} exited with ${started.child.exitCode}:\n${started.output()}`)
    }
    if (await ready().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`${what} did not start:\n${started.output()}`)
}

/** The app's own answer to the ask, as Caddy gets it: straight from loopback. */
function askApp(domain: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    http
      .get(
        {
          host: '127.0.0.1',
          port: APP_PORT,
          path: `/api/domains/allowed?domain=${encodeURIComponent(domain)}`,
          headers,
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      .on('error', reject)
  })
}

/** A TLS handshake with Caddy for `servername`, verified against Caddy's root CA only. */
function handshake(servername: string, ca: string) {
  return new Promise<{ ok: true; issuer: string } | { ok: false; error: string }>((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: HTTPS_PORT, servername, ca }, () => {
      const issuer = socket.getPeerCertificate().issuer?.CN ?? ''
      socket.end()
      resolve({ ok: true, issuer: String(issuer) })
    })
    socket.on('error', (error) => resolve({ ok: false, error: error.message }))
  })
}

/** The Caddyfile of deploy/, with what a test run needs added to its global options. */
function caddyfileFor(storage: string) {
  const deployed = readFileSync(path.resolve('deploy/Caddyfile'), 'utf8')
  const testOptions = [
    '{',
    // No admin endpoint (port 2019 would collide between parallel runs), loopback only,
    // high ports, TCP only (no HTTP/3 on UDP), and Caddy's internal CA instead of Let's Encrypt.
    '\tadmin off',
    '\tdefault_bind 127.0.0.1',
    `\thttp_port ${HTTP_PORT}`,
    `\thttps_port ${HTTPS_PORT}`,
    '\tservers {',
    '\t\tprotocols h1 h2',
    '\t}',
    '\tlocal_certs',
    '\tskip_install_trust',
    '\tstorage file_system {',
    `\t\troot ${storage}`,
    '\t}',
  ].join('\n')
  const start = deployed.search(/^\{\s*$/m)
  if (start < 0) throw new Error('deploy/Caddyfile has no global options block')
  return `${deployed.slice(0, start)}${testOptions}${deployed.slice(start + 1)}`
}

/**
 * A Chromium that trusts Caddy's root CA the way a user's machine would: an NSS database (what
 * Chromium reads on Linux, ~/.pki/nssdb) holding the root as a trusted CA, under a HOME of its own.
 */
async function launchTrustingChromium(home: string, rootPem: string): Promise<Browser> {
  const nssdb = path.join(home, '.pki', 'nssdb')
  mkdirSync(nssdb, { recursive: true })
  const rootFile = path.join(home, 'caddy-root.crt')
  writeFileSync(rootFile, rootPem)
  execFileSync('certutil', ['-N', '-d', `sql:${nssdb}`, '--empty-password'])
  execFileSync('certutil', [
    '-A',
    '-d',
    `sql:${nssdb}`,
    '-n',
    'caddy-e2e',
    '-t',
    'C,,',
    '-i',
    rootFile,
  ])
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    env: { ...process.env, HOME: home },
    args: [
      ...CHROMIUM_ARGS,
      `--host-resolver-rules=MAP ${VERIFIED} 127.0.0.1, MAP ${PENDING} 127.0.0.1`,
    ],
  })
}

async function decodePng(bytes: Buffer) {
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data
}

async function expectCaddyCertificate(page: Page, url: string) {
  const response = await page.goto(url)
  expect(response?.status(), url).toBe(200)
  const security = await response?.securityDetails()
  expect(security?.issuer ?? '').toContain('Caddy Local Authority')
  return response
}

/**
 * A secret sealed at rest as this spec's server seals it: under the tests' APP_SECRET, which
 * productionServerEnv gives it. The worker's environment has none of its own; it gets that one
 * for this call only, and the app's cached reading of the environment is dropped either side.
 */
function sealedAsTheServer(plain: string) {
  const before = process.env.APP_SECRET
  process.env.APP_SECRET = TEST_APP_SECRET
  resetEnvForTests()
  try {
    return sealAtRest(plain)
  } finally {
    if (before === undefined) delete process.env.APP_SECRET
    else process.env.APP_SECRET = before
    resetEnvForTests()
  }
}

/**
 * An identity provider of Acme's (`columns` of sso_providers: its protocol's own) and a verified
 * email domain for it, written as the settings would (their screens are e2e/sso.spec.ts's and
 * e2e/sso-saml.spec.ts's). New people of the domain get the team_admin role.
 */
async function addAcmeSsoProvider(
  columns: Record<string, string | postgres.ArrayParameter<string[]>>,
  emailDomain: string,
) {
  const sql = owner as ReturnType<typeof postgres>
  const [acme] = await sql<{ id: string }[]>`select id from organizations where slug = 'acme'`
  const organizationId = acme?.id ?? ''
  const [provider] = await sql<{ id: string }[]>`insert into sso_providers ${sql({
    organization_id: organizationId,
    jit_role: 'team_admin',
    ...columns,
  })} returning id`
  await sql`insert into sso_domains (organization_id, provider_id, domain, token, verified_at)
    values (${organizationId}, ${provider?.id ?? ''}, ${emailDomain}, 'e2e', now())`
  return provider?.id ?? ''
}

/** "Sign in with SSO" on the verified domain over https for `email`: the page, off to the IdP. */
async function startSsoOnVerified(email: string) {
  const context = await (browser as Browser).newContext()
  const page = await context.newPage()
  await expectCaddyCertificate(page, `${origin(VERIFIED)}/auth/sso`)
  await page.getByLabel('Work email').fill(email)
  await page.getByRole('button', { name: 'Continue' }).click()
  return { context, page }
}

/** Back on the verified domain, signed in: the new account is Acme's, with the role chosen. */
async function expectSignedInOnVerified(page: Page, email: string) {
  await expect(page).toHaveURL(`${origin(VERIFIED)}/dashboard/team-member`, { timeout: 60_000 })
  const accounts = await (owner as ReturnType<typeof postgres>)<{ slug: string; role: string }[]>`
    select o.slug, u.role from users u join organizations o on o.id = u.organization_id
    where u.email = ${email}`
  expect(accounts).toEqual([{ slug: 'acme', role: 'team_admin' }])
}

let app: Started | undefined
let caddy: Started | undefined
let browser: Browser | undefined
let database: Awaited<ReturnType<typeof createFreshPostgresDatabase>> | undefined
let owner: ReturnType<typeof postgres> | undefined
let workDir = ''
// The app's email provider: alice's inbox, where the emailed link is (the outbox keeps none).
let resend: FakeResend | undefined
let rootPem = ''

test.beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL
  test.skip(!serverUrl, 'runs on Postgres (TEST_DATABASE_URL; CI sets it)')
  test.setTimeout(240_000)
  workDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-caddy-'))
  database = await createFreshPostgresDatabase(serverUrl ?? '', `brandcard_e2e_caddy_${E2E_PORT}`)
  resend = await startFakeResend()
  app = spawnLogged(process.execPath, [...TEST_V8_FLAGS, ...SERVER_ARGS], {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(APP_PORT),
    ROOT_DOMAIN: 'localhost',
    LOG_LEVEL: 'warn',
    DOMAIN_RECHECK_SECONDS: '0',
    BACKUP_RETENTION: '0',
    OUTBOX_PAGE: '1',
    RESEND_API_KEY: resend.apiKey,
    RESEND_BASE_URL: resend.url,
    SEED_DEMO: '1',
    // Behind Caddy: its X-Forwarded-Proto (https) and Host (with the port) make the links.
    TRUST_PROXY: '1',
    // The OpenID Connect provider of the SSO test listens on plain http on 127.0.0.1, which
    // production refuses by default (ADR 090): the server fetches its discovery and keys.
    SSO_ALLOW_HTTP_LOOPBACK: '1',
    ...productionServerEnv(database.url),
  })
  await waitFor('the app', app, async () => (await askApp('localhost')) === 200)

  // Acme's custom domain is verified (ADR 016's proof, written as the verification would);
  // Globex's is only pending. The change feed drops the app's cached answers for both.
  owner = postgres(database.url, { max: 1, onnotice: () => {} })
  await owner`update organizations set custom_domain = ${VERIFIED},
    custom_domain_verification_token = 'e2e', custom_domain_verified_at = now()
    where slug = 'acme'`
  await owner`update organizations set custom_domain = ${PENDING},
    custom_domain_verification_token = 'e2e', custom_domain_verified_at = null
    where slug = 'globex'`
  await expect.poll(() => askApp(VERIFIED), { timeout: 30_000 }).toBe(200)

  const storage = path.join(workDir, 'caddy-data')
  const caddyfile = path.join(workDir, 'Caddyfile')
  writeFileSync(caddyfile, caddyfileFor(storage))
  caddy = spawnLogged(CADDY, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    ...process.env,
    HOME: workDir,
    XDG_DATA_HOME: path.join(workDir, 'xdg-data'),
    XDG_CONFIG_HOME: path.join(workDir, 'xdg-config'),
    ACME_EMAIL: 'ops@example.test',
    APP_UPSTREAMS: `127.0.0.1:${APP_PORT}`,
    ASK_PORT: String(ASK_PORT),
  })
  const rootFile = path.join(storage, 'pki', 'authorities', 'local', 'root.crt')
  await waitFor(
    'caddy',
    caddy,
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(HTTPS_PORT, '127.0.0.1', () => {
          socket.end()
          resolve(existsSync(rootFile))
        })
        socket.on('error', () => resolve(false))
      }),
  )
  rootPem = readFileSync(rootFile, 'utf8')
  browser = await launchTrustingChromium(path.join(workDir, 'chromium-home'), rootPem)
})

test.afterAll(async () => {
  await browser?.close()
  await stop(caddy)
  await stop(app)
  await owner?.end()
  await database?.drop()
  await resend?.close()
  if (workDir) rmSync(workDir, { recursive: true, force: true })
})

test('a verified custom domain over HTTPS: page, QR code and emailed link on https and the domain', async () => {
  test.setTimeout(180_000)
  // The certificate chains to Caddy's root: checked by Node with that root as its only CA.
  const verified = await handshake(VERIFIED, rootPem)
  expect(verified).toMatchObject({
    ok: true,
    issuer: expect.stringContaining('Caddy Local Authority'),
  })

  const context = await (browser as Browser).newContext()
  const page = await context.newPage()
  // The card page: served over TLS by Caddy, its canonical and Open Graph URLs on the domain.
  await expectCaddyCertificate(page, `${origin(VERIFIED)}/card/alice-anderson`)
  const canonical = (await page.locator('link[rel="canonical"]').getAttribute('href')) ?? ''
  // The card's short link (ADR 041).
  expect(canonical).toMatch(new RegExp(`^${origin(VERIFIED).replaceAll('.', '\\.')}/c/[a-z0-9-]+$`))
  expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(canonical)

  // The QR screen and the QR code it shows: the code holds the same https link (in capitals).
  const vcardHref =
    (await page.getByRole('link', { name: 'Save Contact' }).getAttribute('href')) ?? ''
  const cardId = new RegExp(`^/card/(${UUID})/vcard$`).exec(vcardHref)?.[1] ?? ''
  await expectCaddyCertificate(page, `${origin(VERIFIED)}/qrcode/${cardId}`)
  const qrSrc = (await page.getByTestId('qr-code').getAttribute('src')) ?? ''
  const qr = await page.goto(new URL(qrSrc, page.url()).toString())
  expect(qr?.status()).toBe(200)
  expect(await decodePng(await (qr as NonNullable<typeof qr>).body())).toBe(qrTextOf(canonical))

  // A reset requested on the domain: the job queue writes the email later, its link still
  // https on the domain. The super admin signs in on the platform host via Caddy; the link is
  // read from alice's inbox (the outbox keeps no token, ADR 028).
  await page.goto(`${origin(VERIFIED)}/auth/forgot-password`)
  await page.getByLabel('Email').fill('alice@acme.test')
  await page.getByRole('button', { name: 'Send Reset Link' }).click()
  await expect(page).toHaveURL(`${origin(VERIFIED)}/auth/login`)

  const admin = await context.newPage()
  await expectCaddyCertificate(admin, `${origin('localhost')}/auth/login`)
  await admin.getByLabel('Email').fill('super@brandcard.test')
  await admin.getByLabel('Password').fill(DEMO_PASSWORD)
  await admin.getByRole('button', { name: 'Sign In' }).click()
  // The demo's super admin owes the second step (README): the demo key's current code.
  await enterDemoTwoFactorCode(admin)
  await expect(admin).toHaveURL(`${origin('localhost')}/dashboard/super-admin`)
  let email: FakeEmail | undefined
  await expect
    .poll(
      () => {
        email = resend?.emails
          .filter((e) => [e.to].flat().includes('alice@acme.test') && /^Reset your/.test(e.subject))
          .at(-1)
        return Boolean(email)
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  const href = linkIn(email as FakeEmail, '/auth/reset-password?token=')
  expect(href.startsWith(`${origin(VERIFIED)}/auth/reset-password?token=`)).toBe(true)
  // Every absolute link in that email is https on the domain (the logo too).
  const html = email?.html ?? ''
  const urls = html.match(/https?:\/\/[^"'\s<]+/g) ?? []
  expect(urls.length).toBeGreaterThan(0)
  for (const url of urls) expect(url.startsWith(`${origin(VERIFIED)}/`)).toBe(true)
  // Followed: the reset page opens over TLS on the domain.
  await expectCaddyCertificate(page, href)
  await expect(page.getByLabel('New password')).toBeVisible()
  await context.close()
})

test('SAML single sign-on on the verified custom domain over HTTPS lands there signed in', async () => {
  test.setTimeout(180_000)
  // Acme's SAML provider: a samlify IdP on 127.0.0.1.
  const idp = await serveSamlIdp()
  try {
    const parsed = parseIdpMetadata(idp.metadata)
    if (!parsed.ok) throw new Error(parsed.message)
    const sql = owner as ReturnType<typeof postgres>
    const providerId = await addAcmeSsoProvider(
      {
        kind: 'saml',
        display_name: 'Acme SAML',
        saml_entity_id: parsed.idp.entityId,
        saml_sso_url: parsed.idp.ssoUrl,
        saml_certificates: sql.array(parsed.idp.certificates),
      },
      'sso.acme.test',
    )

    const { context, page } = await startSsoOnVerified('sam@sso.acme.test')
    await expect(page.getByRole('heading', { name: 'Test IdP' })).toBeVisible()
    await page.getByLabel('Email').fill('sam@sso.acme.test')
    await page.getByRole('button', { name: 'Sign in to the IdP' }).click()
    // The IdP posted to the custom domain's ACS over https; the callback signed Sam in there.
    await expectSignedInOnVerified(page, 'sam@sso.acme.test')
    expect(idp.answered).toEqual([
      {
        email: 'sam@sso.acme.test',
        acsUrl: `${origin(VERIFIED)}/auth/sso/saml/${providerId}/acs`,
      },
    ])
    await context.close()
  } finally {
    await idp.close()
  }
})

test('OpenID Connect single sign-on on the verified custom domain over HTTPS lands there signed in', async () => {
  test.setTimeout(180_000)
  // Acme's OIDC provider: a real oidc-provider on 127.0.0.1, which knows the one redirect URI an
  // admin registers for the custom domain (the settings screen shows it): https, with the port.
  const redirectUri = `${origin(VERIFIED)}/auth/sso/callback`
  const idp = await startTestIdp([redirectUri])
  try {
    await addAcmeSsoProvider(
      {
        kind: 'oidc',
        display_name: 'Acme OIDC',
        issuer_url: idp.issuer,
        client_id: idp.clientId,
        client_secret_sealed: sealedAsTheServer(idp.clientSecret),
      },
      'oidc.acme.test',
    )
    const email = 'olive@oidc.acme.test'
    idp.addAccount({ sub: 'olive', email, email_verified: true, given_name: 'Olive' })
    idp.nextSignIn('olive', ['pwd'])

    // The provider's redirect back is to the custom domain, where the flow's __Host- cookie is:
    // the callback exchanged the code (the redirect URI must match the one registered) there.
    const { context, page } = await startSsoOnVerified(email)
    await expectSignedInOnVerified(page, email)
    await context.close()
  } finally {
    await idp.close()
  }
})

test('an unverified domain gets no certificate; the ask is answered only inside', async () => {
  test.setTimeout(120_000)
  expect(await askApp(PENDING)).toBe(404)
  // The handshake itself fails: Caddy asked, the app said no, no certificate was made.
  const refused = await handshake(PENDING, rootPem)
  expect(refused.ok).toBe(false)
  // A page of its own: Chromium goes on to its error page after the failed navigation.
  const refusedPage = await (browser as Browser).newPage()
  await expect(refusedPage.goto(`${origin(PENDING)}/`)).rejects.toThrow(
    /ERR_SSL_PROTOCOL_ERROR|ERR_CONNECTION/,
  )
  await refusedPage.close()
  const page = await (browser as Browser).newPage()
  // Caddy's storage holds a certificate for the verified domain and none for this one.
  const issued = path.join(workDir, 'caddy-data', 'certificates', 'local')
  expect(existsSync(path.join(issued, VERIFIED, `${VERIFIED}.crt`))).toBe(true)
  expect(existsSync(path.join(issued, PENDING))).toBe(false)

  // The ask is not public: Caddy answers it 404 on every site, and the app refuses a request a
  // proxy relays (forwarding headers), even from loopback.
  await expectCaddyCertificate(page, `${origin(VERIFIED)}/`)
  const outside = await page.evaluate(async (url) => {
    const response = await fetch(url)
    return { status: response.status, body: await response.text() }
  }, `/api/domains/allowed?domain=${VERIFIED}`)
  expect(outside).toEqual({ status: 404, body: '' })
  expect(await askApp(VERIFIED, { 'x-forwarded-for': '203.0.113.7' })).toBe(403)

  // The domain's proof goes away (the re-check finds it misconfigured): the running server's
  // next answer to the ask is no, never a cached yes, and the host stops serving the agency
  // (the certificate Caddy already holds shows a plain "no such site" page until it expires).
  await (owner as ReturnType<typeof postgres>)`update organizations
    set custom_domain_verified_at = null, custom_domain_lost_at = now() where slug = 'acme'`
  await expect.poll(() => askApp(VERIFIED), { timeout: 30_000 }).toBe(404)
  const gone = await page.goto(`${origin(VERIFIED)}/card/alice-anderson`)
  expect(gone?.status()).toBe(404)
  await page.close()
})
