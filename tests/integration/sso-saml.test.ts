// SAML 2.0 sign-in per agency (issue 42 point 1, ADR 090), through the routes, against a local
// IdP (samlify, signing with keys openssl made for the test) served on 127.0.0.1 and the fake
// DNS: the provider added by its metadata URL or XML (validated, audited), the SP metadata the
// IdP imports, "Sign in with SSO" through the ACS and the callback with a just-in-time account,
// the IdP's MFA as the second factor, and each answer that must sign nobody in: replayed,
// tampered, meant for another agency's ACS, or answering another browser's request.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sessionCookieName } from '#app/auth/session.server'
import { resetEnvForTests } from '#app/env.server'
import { action as ssoStartAction } from '#app/routes/auth.sso._index'
import { loader as callbackLoader } from '#app/routes/auth.sso.callback'
import { action as acsAction } from '#app/routes/auth.sso.saml.$providerId.acs'
import { loader as metadataLoader } from '#app/routes/auth.sso.saml.$providerId.metadata'
import {
  action as settingsAction,
  loader as settingsLoader,
} from '#app/routes/dashboard.agency.sso'
import { ssoFlowCookieName } from '#app/sso/sso-sign-in.server'
import { SSO_MESSAGES } from '#app/validation/sso'
import { getDb } from '#drizzle/db.server'
import { auditEvents, sessions, ssoProviders, ssoSamlRequests, users } from '#drizzle/schema'
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
  uniqueSuffix,
} from '#tests/factories'
import { type FakeDns, startFakeDns } from '#tests/fake-dns'
import { requestIdOfSignInUrl, type ServedSamlIdp, serveSamlIdp, tamper } from '#tests/saml-idp'

const SETTINGS = '/dashboard/agency/sso'
let dns: FakeDns
let idp: ServedSamlIdp

beforeAll(async () => {
  dns = await startFakeDns()
  process.env.DNS_RESOLVER = `127.0.0.1:${dns.port}`
  resetEnvForTests()
  idp = await serveSamlIdp()
})

afterAll(async () => {
  delete process.env.DNS_RESOLVER
  resetEnvForTests()
  await dns.close()
  await idp.close()
})

/** The cookie a Set-Cookie header list sets for `name`, as a Cookie header's pair. */
function cookieFrom(response: Response, name: string) {
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';')
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair
  }
  return null
}

type ServiceProvider = { entityId: string; acsUrls: string[]; metadataUrl: string }
type Settings = {
  providers: {
    id: string
    kind: string
    displayName: string
    samlEntityId: string
    samlCertificatesValidTo: string[]
  }[]
  domains: { id: string; domain: string; txtName: string; txtValue: string }[]
  serviceProviders: Record<string, ServiceProvider>
}

/** An agency whose admin added the test IdP by its metadata URL and verified a domain for it. */
async function agency({ jitRole = 'team_admin' } = {}) {
  const { organization } = await makeBrandedOrganization({ name: `SAML ${uniqueSuffix()}` })
  const host = `${organization.slug}.localhost`
  const admin = await makeUser(organization.id, { role: 'agency_admin', password: 'password123' })
  const cookie = await sessionCookieFor(organization.id, admin.id)
  const domain = `saml-${uniqueSuffix()}.example.com`
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
    ).json()) as Settings
  const added = await post({
    intent: 'add-saml-provider',
    displayName: 'Corp SAML',
    metadataUrl: idp.metadataUrl,
    jitRole,
    enabled: 'on',
  })
  expect(added.status).toBe(302)
  const settings = await load()
  const providerId = settings.providers[0]?.id as string
  const sp = settings.serviceProviders[providerId] as ServiceProvider
  expect((await post({ intent: 'claim-domain', providerId, domain })).status).toBe(302)
  const claim = (await load()).domains[0] as Settings['domains'][number]
  dns.setTxt(claim.txtName, [claim.txtValue])
  expect(await post({ intent: 'verify-domain', domainId: claim.id })).toSendToast(
    `${domain} is verified`,
  )
  return { organization, host, admin, cookie, domain, post, load, providerId, sp }
}

type Agency = Awaited<ReturnType<typeof agency>>

/** "Sign in with SSO" for `email`: the IdP's URL, this browser's flow cookie, the request id. */
async function startSignIn(a: Agency, email: string) {
  const response = await settle(() =>
    ssoStartAction({
      request: formRequest(a.host, '/auth/sso', { email }),
      context: contextFor(a.host),
      params: {},
    }),
  )
  expect(response.status).toBe(302)
  const url = response.headers.get('Location') as string
  const flow = cookieFrom(response, ssoFlowCookieName())
  if (!flow) throw new Error('no flow cookie')
  return { url, flow, requestId: requestIdOfSignInUrl(url) }
}

/** The IdP's signed answer to a request, as the service provider it is for. */
function answer(a: Agency, requestId: string, email: string, extra = {}) {
  return idp.respond(
    { entityId: a.sp.entityId, acsUrl: a.sp.acsUrls[0] as string, wantAssertionsSigned: true },
    { inResponseTo: requestId, nameId: email, ...extra },
  )
}

/** The browser posting the IdP's answer to the agency's ACS (from the IdP's own origin). */
function postToAcs(a: Agency, samlResponse: string, providerId = a.providerId) {
  return settle(() =>
    acsAction({
      request: formRequest(a.host, `/auth/sso/saml/${providerId}/acs`, {
        SAMLResponse: samlResponse,
      }),
      context: contextFor(a.host),
      params: { providerId },
    }),
  )
}

async function callback(a: Agency, cookie: string) {
  return settle(() =>
    callbackLoader({
      request: requestFor(a.host, '/auth/sso/callback', { headers: { Cookie: cookie } }),
      context: contextFor(a.host),
      params: {},
    }),
  )
}

/** The ACS's answer (always a redirect to the callback), then the callback with `cookie`. */
async function throughAcs(a: Agency, samlResponse: string, cookie: string) {
  const acs = await postToAcs(a, samlResponse)
  expect(acs.status).toBe(303)
  expect(acs.headers.get('Location')).toBe('/auth/sso/callback')
  const passed = acs.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ')
  return callback(a, `${cookie}; ${passed}`)
}

/** The whole round trip; the callback's answer. */
async function roundTrip(a: Agency, email: string, extra = {}) {
  const { flow, requestId } = await startSignIn(a, email)
  return throughAcs(a, await answer(a, requestId, email, extra), flow)
}

/** The callback's refusal message, which must be `message`. */
async function expectRefused(response: Response, message: string) {
  expect(response.status).toBe(400)
  expect(((await response.json()) as { message: string }).message).toBe(message)
}

const userByEmail = async (organizationId: string, email: string) => {
  const [row] = await getDb()
    .select()
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.email, email)))
  return row
}

describe('a SAML provider in the settings', () => {
  test('added by its metadata URL: the IdP read, what to copy into it shown, the change audited', async () => {
    const a = await agency()
    const settings = await a.load()
    expect(settings.providers[0]).toMatchObject({
      kind: 'saml',
      displayName: 'Corp SAML',
      samlEntityId: idp.entityId,
    })
    expect(settings.providers[0]?.samlCertificatesValidTo).toHaveLength(1)
    expect(a.sp).toEqual({
      entityId: `http://${a.host}:3000/auth/sso/saml/${a.providerId}/metadata`,
      acsUrls: [`http://${a.host}:3000/auth/sso/saml/${a.providerId}/acs`],
      metadataUrl: `http://${a.host}:3000/auth/sso/saml/${a.providerId}/metadata`,
    })
    const [row] = await getDb().select().from(ssoProviders).where(eq(ssoProviders.id, a.providerId))
    expect(row).toMatchObject({ samlMetadataUrl: idp.metadataUrl, samlSsoUrl: idp.ssoUrl })
    const events = await getDb()
      .select({ action: auditEvents.action, metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, a.organization.id))
    expect(events).toContainEqual(
      expect.objectContaining({
        action: 'sso.provider_added',
        metadata: expect.objectContaining({ protocol: 'saml' }),
      }),
    )
  })

  test('the SP metadata the IdP imports: entity id, ACS, signed assertions wanted', async () => {
    const a = await agency()
    const response = await settle(() =>
      metadataLoader({
        request: requestFor(a.host, `/auth/sso/saml/${a.providerId}/metadata`),
        context: contextFor(a.host),
        params: { providerId: a.providerId },
      }),
    )
    expect(response.headers.get('Content-Type')).toContain('application/samlmetadata+xml')
    const xml = await response.text()
    expect(xml).toContain(`entityID="${a.sp.entityId}"`)
    expect(xml).toContain(`Location="${a.sp.acsUrls[0]}"`)
    expect(xml).toContain('WantAssertionsSigned="true"')
    // Another agency's host does not serve this provider's metadata.
    const b = await agency()
    const foreign = await settle(() =>
      metadataLoader({
        request: requestFor(b.host, `/auth/sso/saml/${a.providerId}/metadata`),
        context: contextFor(b.host),
        params: { providerId: a.providerId },
      }),
    )
    expect(foreign.status).toBe(404)
  })

  test('pasted XML works; no metadata, bad XML or an unreachable URL says why next to the field', async () => {
    const a = await agency()
    const base = { intent: 'add-saml-provider', displayName: 'Pasted', jitRole: 'end_user' }
    expect((await a.post({ ...base, metadataXml: idp.metadata })).status).toBe(302)
    expect((await a.load()).providers).toHaveLength(2)
    expect(await replyErrors(await a.post(base))).toMatchObject({
      metadataUrl: [SSO_MESSAGES.metadataRequired],
    })
    expect(
      await replyErrors(await a.post({ ...base, metadataXml: '<not-metadata/>' })),
    ).toMatchObject({ metadataXml: ['This is not an identity provider’s SAML metadata'] })
    expect(
      await replyErrors(await a.post({ ...base, metadataUrl: 'http://idp.example.com/md' })),
    ).toMatchObject({ metadataUrl: [SSO_MESSAGES.metadataUrlNotHttps] })
    expect(
      await replyErrors(await a.post({ ...base, metadataUrl: 'http://127.0.0.1:9/metadata' })),
    ).toMatchObject({ metadataUrl: [SSO_MESSAGES.metadataUnreachable] })
    expect((await a.load()).providers).toHaveLength(2)
  })

  test('a metadata URL in a private network is refused at its field, and nothing is connected to', async () => {
    const a = await agency()
    const base = { intent: 'add-saml-provider', displayName: 'Inside', jitRole: 'end_user' }
    const refused = async (metadataUrl: string) =>
      expect(await replyErrors(await a.post({ ...base, metadataUrl }))).toMatchObject({
        metadataUrl: [SSO_MESSAGES.privateAddress],
      })
    await refused('https://169.254.169.254/metadata')
    await refused('https://172.16.0.1/FederationMetadata.xml')
    const counter = await startConnectionCounter()
    try {
      await withoutLoopbackIdps(resetEnvForTests, () =>
        refused(`https://localhost:${counter.port}/metadata`),
      )
      expect(counter.connections()).toBe(0)
    } finally {
      await counter.close()
    }
    expect((await a.load()).providers).toHaveLength(1)
  })
})

describe('Sign in with SSO by SAML', () => {
  test('a new person lands signed in with the chosen role; the request is spent', async () => {
    const a = await agency({ jitRole: 'team_admin' })
    const email = `new.person@${a.domain}`
    const done = await roundTrip(a, email, {
      attributes: {
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname': 'Nia',
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname': 'Saml',
      },
    })
    expect(done.status).toBe(302)
    expect(cookieFrom(done, sessionCookieName())).toBeTruthy()
    const user = await userByEmail(a.organization.id, email)
    expect(user).toMatchObject({ role: 'team_admin', firstName: 'Nia', lastName: 'Saml' })
    const pending = await getDb()
      .select()
      .from(ssoSamlRequests)
      .where(eq(ssoSamlRequests.organizationId, a.organization.id))
    expect(pending).toHaveLength(0)
  })

  test("the IdP's MFA is the second factor; without it the account's own still applies", async () => {
    const a = await agency()
    const email = `mfa.person@${a.domain}`
    const done = await roundTrip(a, email, { authnContextClass: 'https://refeds.org/profile/mfa' })
    expect(done.status).toBe(302)
    const user = await userByEmail(a.organization.id, email)
    const [session] = await getDb()
      .select({ twoFactorVerified: sessions.twoFactorVerified })
      .from(sessions)
      .where(eq(sessions.userId, user?.id as string))
    expect(session?.twoFactorVerified).toBe(true)
  })

  test('a replayed answer, a tampered one and one for another agency sign nobody in', async () => {
    const a = await agency()
    const b = await agency()
    const email = `replay@${a.domain}`
    const { flow, requestId } = await startSignIn(a, email)
    const samlResponse = await answer(a, requestId, email)
    expect((await throughAcs(a, samlResponse, flow)).status).toBe(302)
    await expectRefused(
      await throughAcs(a, samlResponse, flow),
      'This answer is to no sign-in waiting here, or was used already: sign in again',
    )

    const second = await startSignIn(a, email)
    const tampered = tamper(await answer(a, second.requestId, email), email, `boss@${a.domain}`)
    await expectRefused(
      await throughAcs(a, tampered, second.flow),
      'The identity provider’s answer is not signed with its certificate',
    )

    // B's answer, for B's ACS, posted to A's: no request of A's waits for it.
    const other = await startSignIn(b, `x@${b.domain}`)
    const forB = await answer(b, other.requestId, `x@${b.domain}`)
    const third = await startSignIn(a, email)
    await expectRefused(
      await throughAcs(a, forB, third.flow),
      'This answer is to no sign-in waiting here, or was used already: sign in again',
    )
    // An answer to A's own request but addressed to B's ACS: meant for another service.
    const misaddressed = await idp.respond(
      { entityId: a.sp.entityId, acsUrl: b.sp.acsUrls[0] as string, wantAssertionsSigned: true },
      { inResponseTo: third.requestId, nameId: email },
    )
    await expectRefused(
      await throughAcs(a, misaddressed, third.flow),
      'The identity provider’s answer was meant for another service',
    )
    // Another agency's provider id on this host is not found; no answer at all is said.
    expect((await postToAcs(a, forB, b.providerId)).status).toBe(404)
    await expectRefused(await throughAcs(a, '', third.flow), 'The identity provider sent no answer')
    expect(await userByEmail(a.organization.id, `boss@${a.domain}`)).toBeUndefined()
  })

  test("an answer to one browser's request does not sign in another browser", async () => {
    const a = await agency()
    const email = `victim@${a.domain}`
    const attacker = await startSignIn(a, `attacker@${a.domain}`)
    const victim = await startSignIn(a, email)
    await expectRefused(
      await throughAcs(a, await answer(a, attacker.requestId, `attacker@${a.domain}`), victim.flow),
      SSO_MESSAGES.flowMismatch,
    )
    // Nor without any answer at all.
    const none = await callback(a, victim.flow)
    expect(none.status).toBe(400)
  })

  test('Test connection by SAML shows what the IdP sent and signs nobody in', async () => {
    const a = await agency()
    const started = await a.post({ intent: 'test-provider', providerId: a.providerId })
    expect(started.status).toBe(302)
    const url = started.headers.get('Location') as string
    expect(url.startsWith(idp.ssoUrl)).toBe(true)
    const flow = cookieFrom(started, ssoFlowCookieName()) as string
    const email = `tester@${a.domain}`
    const shown = await throughAcs(
      a,
      await answer(a, requestIdOfSignInUrl(url), email, { attributes: { department: 'Sales' } }),
      `${flow}; ${a.cookie}`,
    )
    expect(shown.status).toBe(200)
    const body = (await shown.json()) as { kind: string; claims: Record<string, unknown> }
    expect(body.kind).toBe('tested')
    expect(body.claims).toMatchObject({ email, department: 'Sales' })
    expect(await userByEmail(a.organization.id, email)).toBeUndefined()
  })

  test('starting sign-ins is limited per address: the 31st in a window is a 429 that writes nothing', async () => {
    const a = await agency()
    const start = () =>
      settle(() =>
        ssoStartAction({
          request: formRequest(a.host, '/auth/sso', { email: `many@${a.domain}` }),
          context: contextFor(a.host, '192.0.2.231'),
          params: {},
        }),
      )
    for (let attempt = 0; attempt < 30; attempt++) expect((await start()).status).toBe(302)
    const pending = async () =>
      (
        await getDb()
          .select()
          .from(ssoSamlRequests)
          .where(eq(ssoSamlRequests.organizationId, a.organization.id))
      ).length
    const before = await pending()
    const refused = await start()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(await pending()).toBe(before)
  })
})
