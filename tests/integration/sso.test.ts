// Single sign-on per agency (issue 42 point 1, ADR 088), against a real OpenID Connect provider
// (oidc-provider on 127.0.0.1) and the fake DNS: the admin's settings (validated, audited, the
// secret sealed and never echoed), domain claims proven by TXT record, "Sign in with SSO" with
// PKCE, state and nonce (a mismatch refused), just-in-time accounts with the admin's role, an
// address of another agency's domain refused, `amr` as the second factor, "Require SSO" with
// its break-glass admins, and "Test connection" signing nobody in.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { sessionCookieName } from '#app/auth/session.server'
import { STAFF_LIMITS } from '#app/billing/plan-limits'
import { resetEnvForTests } from '#app/env.server'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import { action as loginAction, loader as loginLoader } from '#app/routes/auth.login'
import { action as ssoStartAction } from '#app/routes/auth.sso._index'
import { loader as callbackLoader } from '#app/routes/auth.sso.callback'
import {
  action as settingsAction,
  loader as settingsLoader,
} from '#app/routes/dashboard.agency.sso'
import { ssoFlowCookieName } from '#app/sso/sso-sign-in.server'
import { SSO_MESSAGES, ssoRequiredMessage } from '#app/validation/sso'
import { getDb } from '#drizzle/db.server'
import {
  auditEvents,
  emailOutbox,
  organizations,
  sessions,
  ssoProviders,
  users,
} from '#drizzle/schema'
import { startConnectionCounter, withoutLoopbackIdps } from '#tests/connection-counter'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  toResponse,
  uniqueSuffix,
  withUnreachableDatabase,
} from '#tests/factories'
import { type FakeDns, startFakeDns } from '#tests/fake-dns'
import { startTestIdp, type TestIdp } from '#tests/oidc-idp'

const SETTINGS = '/dashboard/agency/sso'
let dns: FakeDns
const idps: TestIdp[] = []

beforeAll(async () => {
  // oidc-provider says it keeps its state in memory, which is what a test's provider should do.
  const warn = console.warn
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith('oidc-provider WARNING')) warn(...args)
  })
  dns = await startFakeDns()
  process.env.DNS_RESOLVER = `127.0.0.1:${dns.port}`
  resetEnvForTests()
})

afterAll(async () => {
  delete process.env.DNS_RESOLVER
  resetEnvForTests()
  await dns.close()
  await Promise.all(idps.map((idp) => idp.close()))
})

/** The cookie a Set-Cookie header list sets for `name`, as a Cookie header's pair. */
function cookieFrom(response: Response, name: string) {
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';')
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair
  }
  return null
}

type Agency = Awaited<ReturnType<typeof agency>>

/** An agency with an admin, its own provider at a test IdP, and (optionally) a verified domain. */
async function agency({ jitRole = 'team_admin', onCustomDomain = false } = {}) {
  const { organization } = await makeBrandedOrganization({ name: `SSO ${uniqueSuffix()}` })
  const subdomain = `${organization.slug}.localhost`
  // The agency's verified custom domain, when the test is about that host.
  const customDomain = `cards-${uniqueSuffix()}.example.com`
  if (onCustomDomain) {
    await getDb()
      .update(organizations)
      .set({ customDomain, customDomainVerifiedAt: new Date() })
      .where(eq(organizations.id, organization.id))
  }
  const host = onCustomDomain ? customDomain : subdomain
  const admin = await makeUser(organization.id, { role: 'agency_admin', password: 'password123' })
  const cookie = await sessionCookieFor(organization.id, admin.id)
  // Both hosts' redirect URIs registered, as the settings screen tells the admin to.
  const idp = await startTestIdp([
    `http://${subdomain}:3000/auth/sso/callback`,
    `http://${customDomain}:3000/auth/sso/callback`,
  ])
  idps.push(idp)
  const domain = `corp-${uniqueSuffix()}.example.com`
  const post = (fields: Record<string, string>, as = cookie) =>
    settle(() =>
      settingsAction({
        request: formRequest(host, SETTINGS, fields, as),
        context: contextFor(host),
        params: {},
      }),
    )
  const load = async () =>
    (await (
      await settle(() =>
        settingsLoader({
          request: requestFor(host, SETTINGS, { headers: { Cookie: cookie } }),
          context: contextFor(host),
          params: {},
        }),
      )
    ).json()) as {
      providers: { id: string; displayName: string; hasSecret: boolean }[]
      domains: { id: string; domain: string; status: string; txtName: string; txtValue: string }[]
    }
  const added = await post({
    intent: 'add-provider',
    displayName: 'Corp IdP',
    issuerUrl: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    jitRole,
    enabled: 'on',
  })
  expect(added.status).toBe(302)
  const providerId = (await load()).providers[0]?.id as string
  return { organization, host, admin, cookie, idp, domain, post, load, providerId }
}

async function claimAndVerify(a: Agency, domain = a.domain) {
  expect((await a.post({ intent: 'claim-domain', providerId: a.providerId, domain })).status).toBe(
    302,
  )
  const claim = (await a.load()).domains.find((row) => row.domain === domain)
  if (!claim) throw new Error('domain not claimed')
  dns.setTxt(claim.txtName, [claim.txtValue])
  expect(await a.post({ intent: 'verify-domain', domainId: claim.id })).toSendToast(
    `${domain} is verified`,
  )
  return claim.id
}

/** "Sign in with SSO" for `email`: the provider's URL and this browser's flow cookie. */
async function startSignIn(a: Agency, email: string) {
  const response = await settle(() =>
    ssoStartAction({
      request: formRequest(a.host, '/auth/sso', { email }),
      context: contextFor(a.host),
      params: {},
    }),
  )
  expect(response.status).toBe(302)
  const flow = cookieFrom(response, ssoFlowCookieName())
  if (!flow) throw new Error('no flow cookie')
  return { url: response.headers.get('Location') as string, flow }
}

async function callback(a: Agency, url: URL, cookie: string) {
  return settle(() =>
    callbackLoader({
      request: requestFor(a.host, `${url.pathname}${url.search}`, { headers: { Cookie: cookie } }),
      context: contextFor(a.host),
      params: {},
    }),
  )
}

/** The whole round trip for an IdP account; the callback's answer. */
async function ssoRoundTrip(a: Agency, sub: string, email: string, amr?: string[]) {
  const { url, flow } = await startSignIn(a, email)
  const back = await a.idp.signIn(url, sub, amr)
  return callback(a, back, flow)
}

const userByEmail = async (organizationId: string, email: string) => {
  const [row] = await getDb()
    .select()
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.email, email)))
  return row
}

describe('the SSO settings', () => {
  test('a provider is discovered at save, its secret sealed, never echoed, and the change audited', async () => {
    const a = await agency()
    const [row] = await getDb().select().from(ssoProviders).where(eq(ssoProviders.id, a.providerId))
    expect(row?.clientSecretSealed).toMatch(/^v1\./)
    expect(row?.clientSecretSealed).not.toContain(a.idp.clientSecret)
    const page = await a.load()
    expect(JSON.stringify(page)).not.toContain(a.idp.clientSecret)
    expect(page.providers[0]).toMatchObject({ displayName: 'Corp IdP', hasSecret: true })
    const events = await getDb()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, a.organization.id))
    expect(events.map((e) => e.action)).toContain('sso.provider_added')

    // Edited without a secret: the stored one stays.
    const edited = await a.post({
      intent: 'edit-provider',
      providerId: a.providerId,
      displayName: 'Corp Entra',
      issuerUrl: a.idp.issuer,
      clientId: a.idp.clientId,
      clientSecret: '',
      jitRole: 'end_user',
    })
    expect(edited.status).toBe(302)
    expect((await a.load()).providers[0]).toMatchObject({ displayName: 'Corp Entra' })
  })

  test('bad input is a 400 with the message next to its field, and the secret is not sent back', async () => {
    const a = await agency()
    const base = {
      intent: 'add-provider',
      displayName: 'X',
      issuerUrl: a.idp.issuer,
      clientId: 'client',
      clientSecret: 'very-secret-value',
      jitRole: 'end_user',
    }
    const notHttps = await a.post({ ...base, issuerUrl: 'http://idp.example.com' })
    expect(notHttps.status).toBe(400)
    const body = await notHttps.text()
    expect(body).not.toContain('very-secret-value')
    expect(JSON.parse(body).result.error.issuerUrl).toEqual([SSO_MESSAGES.issuerNotHttps])

    const missing = await a.post({ ...base, clientId: '', displayName: '' })
    expect(await replyErrors(missing)).toMatchObject({
      clientId: [SSO_MESSAGES.clientIdRequired],
      displayName: [SSO_MESSAGES.nameRequired],
    })

    // Nothing answers there: discovery fails, said next to the URL.
    const nowhere = await a.post({ ...base, issuerUrl: 'http://127.0.0.1:9/realms/none' })
    expect(nowhere.status).toBe(400)
    expect(await replyErrors(nowhere)).toMatchObject({ issuerUrl: [SSO_MESSAGES.discoveryFailed] })

    const agencyAdminRole = await a.post({ ...base, jitRole: 'agency_admin' })
    expect(agencyAdminRole.status).toBe(400)
    expect(
      (await a.post({ intent: 'claim-domain', providerId: a.providerId, domain: 'nope' })).status,
    ).toBe(400)
    expect((await a.post({ intent: 'verify-domain', domainId: 'x' })).status).toBe(400)
    expect((await a.post({ intent: 'launch' })).status).toBe(400)
    expect((await a.load()).providers).toHaveLength(1)
  })

  test('an issuer in a private network is refused at its field, and nothing is connected to', async () => {
    const a = await agency()
    const base = {
      intent: 'add-provider',
      displayName: 'Inside',
      clientId: 'client',
      clientSecret: 'very-secret-value',
      jitRole: 'end_user',
    }
    const refused = async (issuerUrl: string) =>
      expect(await replyErrors(await a.post({ ...base, issuerUrl }))).toMatchObject({
        issuerUrl: [SSO_MESSAGES.privateAddress],
      })
    // Address literals: the cloud's metadata service, a private network, one mapped into IPv6.
    await refused('https://169.254.169.254/latest')
    await refused('https://10.0.0.7/realms/corp')
    await refused('https://[::ffff:192.168.1.1]/')
    // A name that resolves to this machine, once the tests' loopback exception is off.
    const counter = await startConnectionCounter()
    try {
      await withoutLoopbackIdps(resetEnvForTests, () =>
        refused(`https://localhost:${counter.port}/realms/corp`),
      )
      expect(counter.connections()).toBe(0)
    } finally {
      await counter.close()
    }
    expect((await a.load()).providers).toHaveLength(1)
  })

  test('only the agency admin reaches the screen; another agency’s ids are not found', async () => {
    const a = await agency()
    const b = await agency()
    const member = await makeUser(a.organization.id, { role: 'agency_member', passwordHash: 'x' })
    const memberCookie = await sessionCookieFor(a.organization.id, member.id)
    const refused = await a.post(
      { intent: 'remove-provider', providerId: a.providerId },
      memberCookie,
    )
    expect(refused.status).toBe(403)
    const foreign = await a.post({ intent: 'remove-provider', providerId: b.providerId })
    expect(foreign.status).toBe(404)
    expect((await b.load()).providers).toHaveLength(1)
  })

  test('a domain verifies by its TXT record; one another agency verified is not available', async () => {
    const a = await agency()
    const b = await agency()
    await claimAndVerify(a)
    expect((await a.load()).domains[0]).toMatchObject({ status: 'verified' })
    expect(
      (await b.post({ intent: 'claim-domain', providerId: b.providerId, domain: a.domain })).status,
    ).toBe(302)
    const claim = (await b.load()).domains[0] as { id: string; txtName: string; txtValue: string }
    dns.setTxt(claim.txtName, [claim.txtValue])
    const taken = await b.post({ intent: 'verify-domain', domainId: claim.id })
    expect(taken.status).toBe(409)
    expect((await b.load()).domains[0]).toMatchObject({ status: 'pending' })
  })

  test('"Require SSO" needs a verified domain', async () => {
    const a = await agency()
    await a.post({ intent: 'claim-domain', providerId: a.providerId, domain: a.domain })
    const claim = (await a.load()).domains[0] as { id: string }
    const early = await a.post({ intent: 'enforce-domain', domainId: claim.id, enforced: 'on' })
    expect(early.status).toBe(409)
  })
})

describe('sign in with SSO', () => {
  test('the sign-in page offers it once some address here can use it', async () => {
    const a = await agency()
    const offered = async () =>
      (
        (await (
          await settle(() =>
            loginLoader({
              request: requestFor(a.host, '/auth/login'),
              context: contextFor(a.host),
              params: {},
            }),
          )
        ).json()) as { sso: boolean }
      ).sso
    expect(await offered()).toBe(false)
    await claimAndVerify(a)
    expect(await offered()).toBe(true)
    // The database unreachable: the page (its tenant cached) still renders, without the link.
    const during = await withUnreachableDatabase(async () =>
      toResponse(
        await loginLoader({
          request: requestFor(a.host, '/auth/login'),
          context: contextFor(a.host),
          params: {},
        }),
      ),
    )
    expect(during.status).toBe(200)
    expect(await during.json()).toMatchObject({ sso: false })
  })

  test('a new person gets an account in this agency with the role the admin chose', async () => {
    const a = await agency({ jitRole: 'team_admin' })
    await claimAndVerify(a)
    const email = `new.person@${a.domain}`
    a.idp.addAccount({
      sub: 'p-1',
      email,
      email_verified: true,
      given_name: 'Nia',
      family_name: 'New',
    })
    const answer = await ssoRoundTrip(a, 'p-1', email)
    expect(answer).toHaveRedirect('/dashboard/team-member')
    expect(cookieFrom(answer, sessionCookieName())).not.toBeNull()
    const user = await userByEmail(a.organization.id, email)
    expect(user).toMatchObject({ role: 'team_admin', firstName: 'Nia', lastName: 'New' })
    expect(user?.emailConfirmedAt).not.toBeNull()

    // The second sign-in finds the same account.
    expect(await ssoRoundTrip(a, 'p-1', email)).toHaveRedirect('/dashboard/team-member')
    const rows = await getDb().select().from(users).where(eq(users.email, email))
    expect(rows).toHaveLength(1)
  })

  test('on the agency’s custom domain, the provider sends the person back to that host', async () => {
    const a = await agency({ jitRole: 'agency_member', onCustomDomain: true })
    await claimAndVerify(a)
    const email = `custom@${a.domain}`
    a.idp.addAccount({ sub: 'cd-1', email })
    const { url, flow } = await startSignIn(a, email)
    expect(new URL(url).searchParams.get('redirect_uri')).toBe(
      `http://${a.host}:3000/auth/sso/callback`,
    )
    const back = await a.idp.signIn(url, 'cd-1')
    expect(back.host).toBe(`${a.host}:3000`)
    expect(await callback(a, back, flow)).toHaveRedirect('/dashboard/agency')
    expect(await userByEmail(a.organization.id, email)).toMatchObject({ role: 'agency_member' })
  })

  test('an address whose domain has no verified provider here is told so at the field', async () => {
    const a = await agency()
    const response = await settle(() =>
      ssoStartAction({
        request: formRequest(a.host, '/auth/sso', { email: `x@${a.domain}` }),
        context: contextFor(a.host),
        params: {},
      }),
    )
    expect(response.status).toBe(400)
    expect(await replyErrors(response)).toMatchObject({ email: [SSO_MESSAGES.noProviderForEmail] })
  })

  test('a state that is not this browser’s attempt is refused, and nobody is signed in', async () => {
    const a = await agency()
    await claimAndVerify(a)
    const email = `state@${a.domain}`
    a.idp.addAccount({ sub: 's-1', email })
    const first = await startSignIn(a, email)
    const second = await startSignIn(a, email)
    const back = await a.idp.signIn(second.url, 's-1')
    const answer = await callback(a, back, first.flow)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({
      kind: 'refused',
      message: SSO_MESSAGES.flowMismatch,
    })
    expect(cookieFrom(answer, sessionCookieName())).toBeNull()
    expect(await userByEmail(a.organization.id, email)).toBeUndefined()
  })

  test('an ID token with another nonce is refused', async () => {
    const a = await agency()
    await claimAndVerify(a)
    const email = `nonce@${a.domain}`
    a.idp.addAccount({ sub: 'n-1', email })
    const { url, flow } = await startSignIn(a, email)
    const forged = new URL(url)
    forged.searchParams.set('nonce', 'not-the-nonce-of-this-attempt')
    const back = await a.idp.signIn(forged.href, 'n-1')
    const answer = await callback(a, back, flow)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ message: SSO_MESSAGES.flowMismatch })
    expect(await userByEmail(a.organization.id, email)).toBeUndefined()
  })

  test('without the flow cookie, or with one sealed for another agency, nothing happens', async () => {
    const a = await agency()
    const b = await agency()
    await claimAndVerify(a)
    const email = `cookie@${a.domain}`
    a.idp.addAccount({ sub: 'c-1', email })
    const { url, flow } = await startSignIn(a, email)
    const back = await a.idp.signIn(url, 'c-1')
    const none = await callback(a, back, '')
    expect(await none.json()).toMatchObject({ message: SSO_MESSAGES.flowExpired })
    const elsewhere = await callback(b, back, flow)
    expect(await elsewhere.json()).toMatchObject({ message: SSO_MESSAGES.flowExpired })
  })

  test('a person of another agency’s domain is refused, even by this agency’s provider', async () => {
    const a = await agency()
    const b = await agency()
    await claimAndVerify(a)
    await claimAndVerify(b)
    const outsider = `bob@${b.domain}`
    await makeUser(b.organization.id, { email: outsider, passwordHash: 'x' })
    a.idp.addAccount({ sub: 'o-1', email: outsider })
    // Started with an address of A's domain; the provider answers with B's.
    const answer = await ssoRoundTrip(a, 'o-1', `someone@${a.domain}`)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ message: SSO_MESSAGES.emailNotCovered })
    expect(await userByEmail(a.organization.id, outsider)).toBeUndefined()
  })

  test('an unverified address from the provider is refused', async () => {
    const a = await agency()
    await claimAndVerify(a)
    const email = `unverified@${a.domain}`
    a.idp.addAccount({ sub: 'u-1', email, email_verified: false })
    const answer = await ssoRoundTrip(a, 'u-1', email)
    expect(await answer.json()).toMatchObject({ message: SSO_MESSAGES.emailMissing })
  })

  test('a staff role takes a plan seat: a full plan refuses the new person, says so, and audits it', async () => {
    const a = await agency({ jitRole: 'team_admin' })
    await claimAndVerify(a)
    // The free plan's five staff seats: the admin and four more.
    for (let i = 0; i < (STAFF_LIMITS.free ?? 0) - 1; i++) {
      await makeUser(a.organization.id, { role: 'agency_member' })
    }
    const email = `one.too.many@${a.domain}`
    a.idp.addAccount({ sub: 'seat-1', email })
    const answer = await ssoRoundTrip(a, 'seat-1', email)
    expect(cookieFrom(answer, sessionCookieName())).toBeNull()
    expect(await answer.json()).toMatchObject({ message: SSO_MESSAGES.noSeat })
    expect(await userByEmail(a.organization.id, email)).toBeUndefined()
    const [refusal] = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, a.organization.id),
          eq(auditEvents.action, 'sso.account_refused'),
        ),
      )
    expect(refusal?.metadata).toMatchObject({ email, reason: 'no_staff_seat' })
  })

  test('amr mfa counts as two factors; otherwise the account’s own second factor is asked', async () => {
    const a = await agency()
    await claimAndVerify(a)
    const email = `totp@${a.domain}`
    const user = await makeUser(a.organization.id, { email, passwordHash: 'x' })
    // An authenticator app set up: the account's own second factor.
    await getDb()
      .update(users)
      .set({ totpKeySealed: 'v1.sealed.key.value' })
      .where(eq(users.id, user.id))
    a.idp.addAccount({ sub: 't-1', email })
    const single = await ssoRoundTrip(a, 't-1', email, ['pwd'])
    expect(single).toHaveRedirect('/auth/two-factor')
    const multi = await ssoRoundTrip(a, 't-1', email, ['pwd', 'mfa'])
    expect(multi).toHaveRedirect('/dashboard/end-user')
    const rows = await getDb()
      .select({ verified: sessions.twoFactorVerified })
      .from(sessions)
      .where(eq(sessions.userId, user.id))
    expect(rows.map((r) => r.verified).sort()).toEqual([false, true])
  })

  test('"Test connection" shows the claims to the admin and signs nobody in', async () => {
    const a = await agency()
    await claimAndVerify(a)
    const email = `tester@${a.domain}`
    a.idp.addAccount({ sub: 'x-1', email, given_name: 'Tess' })
    const started = await a.post({ intent: 'test-provider', providerId: a.providerId })
    expect(started.status).toBe(302)
    const flow = cookieFrom(started, ssoFlowCookieName()) as string
    const back = await a.idp.signIn(started.headers.get('Location') as string, 'x-1')
    const shown = await callback(a, back, `${flow}; ${a.cookie}`)
    expect(shown.status).toBe(200)
    expect(await shown.json()).toMatchObject({
      kind: 'tested',
      claims: { sub: 'x-1', email },
      verdict: `${email} would sign in here.`,
    })
    expect(cookieFrom(shown, sessionCookieName())).toBeNull()
    expect(await userByEmail(a.organization.id, email)).toBeUndefined()
    // Without the admin's session the test's answer is not shown.
    const back2 = await a.idp.signIn(
      (await a.post({ intent: 'test-provider', providerId: a.providerId })).headers.get(
        'Location',
      ) as string,
      'x-1',
    )
    expect(await (await callback(a, back2, flow)).json()).toMatchObject({ kind: 'refused' })
  })
})

describe('"Require SSO"', () => {
  const login = (a: Agency, email: string, password: string) =>
    settle(() =>
      loginAction({
        request: formRequest(a.host, '/auth/login', { email, password }),
        context: contextFor(a.host),
        params: {},
      }),
    )

  test('refuses password sign-in and reset for the domain, except the agency admins', async () => {
    const a = await agency()
    const domainId = await claimAndVerify(a)
    const person = `pat@${a.domain}`
    const admin = `boss@${a.domain}`
    await makeUser(a.organization.id, { email: person, password: 'password123' })
    await makeUser(a.organization.id, {
      email: admin,
      password: 'password123',
      role: 'agency_admin',
    })
    // Verified but not enforced: the password still works.
    expect((await login(a, person, 'password123')).status).toBe(302)

    expect(await a.post({ intent: 'enforce-domain', domainId, enforced: 'on' })).toSendToast(
      `SSO is now required for ${a.domain}`,
    )
    const refused = await login(a, person, 'password123')
    expect(refused.status).toBe(403)
    expect(await replyErrors(refused)).toMatchObject({ email: [ssoRequiredMessage(a.domain)] })
    // An unknown address of the domain gets the same answer: nothing is told about accounts.
    const unknown = await login(a, `ghost@${a.domain}`, 'whatever12')
    expect(await replyErrors(unknown)).toMatchObject({ email: [ssoRequiredMessage(a.domain)] })
    // The break-glass admin: the right password signs in, a wrong one gets the SSO answer.
    expect((await login(a, admin, 'password123')).status).toBe(302)
    expect((await login(a, admin, 'wrong-password')).status).toBe(403)

    const reset = (email: string) =>
      settle(() =>
        forgotAction({
          request: formRequest(a.host, '/auth/forgot-password', { email }),
          context: contextFor(a.host),
          params: {},
        }),
      )
    expect(await reset(person)).toSendToast({ title: ssoRequiredMessage(a.domain), type: 'info' })
    await reset(admin)
    const mails = await getDb()
      .select({ to: emailOutbox.toAddress })
      .from(emailOutbox)
      .where(eq(emailOutbox.organizationId, a.organization.id))
    const recipients = mails.map((m) => m.to)
    expect(recipients).toContain(admin)
    expect(recipients).not.toContain(person)

    // SSO itself still signs the person in.
    a.idp.addAccount({ sub: 'e-1', email: person })
    expect(await ssoRoundTrip(a, 'e-1', person)).toHaveRedirect('/dashboard/end-user')
  })
})
