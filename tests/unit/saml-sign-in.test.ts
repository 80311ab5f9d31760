// SAML sign-in's checks (issue 42): a local IdP (samlify, certificates made by openssl) answers
// the service provider's requests, rightly and in each of the ways that must be refused.
import { beforeAll, describe, expect, test } from 'vitest'
import {
  parseIdpMetadata,
  type SamlIdentityProvider,
  type SamlRequestLedger,
  type SamlServiceProvider,
  samlSignInUrl,
  serviceProviderMetadata,
  verifySamlResponse,
} from '#app/sso/saml.server'
import {
  makeSigningPair,
  requestIdOfSignInUrl,
  serveSamlIdp,
  startSamlIdp,
  tamper,
} from '../saml-idp'

/** The ledger's contract, in memory: a request is answered once. */
function memoryLedger(): SamlRequestLedger & { ids: Map<string, Date> } {
  const ids = new Map<string, Date>()
  return {
    ids,
    remember: async (id, createdAt) => {
      ids.set(id, createdAt)
    },
    pendingSince: async (id) => ids.get(id) ?? null,
    consume: async (id) => ids.delete(id),
  }
}

const sp: SamlServiceProvider = {
  entityId: 'https://alpha.example.test/auth/saml/metadata/p1',
  acsUrl: 'https://alpha.example.test/auth/saml/acs/p1',
}
const spMetadata = await serviceProviderMetadata(sp)

let idp: ReturnType<typeof startSamlIdp>
let idpConfig: SamlIdentityProvider

beforeAll(() => {
  idp = startSamlIdp()
  const parsed = parseIdpMetadata(idp.metadata)
  if (!parsed.ok) throw new Error(parsed.message)
  idpConfig = parsed.idp
})

async function signIn(ledger = memoryLedger()) {
  const url = await samlSignInUrl({ sp, idp: idpConfig, ledger, relayState: 'r' })
  return { url, requestId: requestIdOfSignInUrl(url), ledger }
}

describe('metadata', () => {
  test("the IdP's metadata gives its entity id, redirect sign-in URL and signing certificate", () => {
    expect(idpConfig.entityId).toBe(idp.entityId)
    expect(idpConfig.ssoUrl).toBe(idp.ssoUrl)
    expect(idpConfig.certificates).toHaveLength(1)
    expect(idp.pair.cert.replace(/\s+/g, '')).toContain(idpConfig.certificates[0])
  })

  test('what is not an IdP’s metadata is refused with a reason', () => {
    expect(parseIdpMetadata('not xml at all <')).toMatchObject({ ok: false })
    expect(
      parseIdpMetadata('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'),
    ).toEqual({ ok: false, message: 'The metadata may not have a DOCTYPE' })
    expect(parseIdpMetadata(spMetadata)).toEqual({
      ok: false,
      message: 'This is not an identity provider’s SAML metadata',
    })
    const noCertificate = idp.metadata.replace(
      /<(\w+:)?KeyDescriptor[\s\S]*?<\/(\w+:)?KeyDescriptor>/g,
      '',
    )
    expect(parseIdpMetadata(noCertificate)).toEqual({
      ok: false,
      message: 'The metadata has no signing certificate',
    })
    expect(parseIdpMetadata(`<x>${'a'.repeat(300 * 1024)}</x>`)).toMatchObject({ ok: false })
  })

  test("the service provider's metadata asks for signed assertions at the agency's ACS", () => {
    expect(spMetadata).toContain(`entityID="${sp.entityId}"`)
    expect(spMetadata).toContain(`Location="${sp.acsUrl}"`)
    expect(spMetadata).toContain('WantAssertionsSigned="true"')
  })
})

describe('a response', () => {
  test('answering our request, signed, addressed to us and in time: who signed in', async () => {
    const { url, requestId, ledger } = await signIn()
    expect(url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true)
    const samlResponse = await idp.respond(spMetadata, {
      inResponseTo: requestId,
      nameId: 'Ada@Example.test',
      attributes: {
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname': 'Ada',
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname': 'Lovelace',
        department: 'Engineering',
      },
    })
    const result = await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })
    expect(result).toMatchObject({
      ok: true,
      identity: {
        email: 'ada@example.test',
        firstName: 'Ada',
        lastName: 'Lovelace',
        multiFactor: false,
        attributes: { department: ['Engineering'] },
      },
    })
    expect(ledger.ids.size).toBe(0)
  })

  test('a second factor counts where the IdP says so: its context class, or Entra’s claim', async () => {
    const byClass = await signIn()
    const mfaClass = await verifySamlResponse({
      sp,
      idp: idpConfig,
      ledger: byClass.ledger,
      samlResponse: await idp.respond(spMetadata, {
        inResponseTo: byClass.requestId,
        authnContextClass: 'https://refeds.org/profile/mfa',
      }),
    })
    expect(mfaClass).toMatchObject({ ok: true, identity: { multiFactor: true } })
    const byEntra = await signIn()
    const entra = await verifySamlResponse({
      sp,
      idp: idpConfig,
      ledger: byEntra.ledger,
      samlResponse: await idp.respond(spMetadata, {
        inResponseTo: byEntra.requestId,
        attributes: {
          'http://schemas.microsoft.com/claims/authnmethodsreferences': [
            'http://schemas.microsoft.com/ws/2008/06/identity/authenticationmethod/password',
            'http://schemas.microsoft.com/claims/multipleauthn',
          ],
        },
      }),
    })
    expect(entra).toMatchObject({ ok: true, identity: { multiFactor: true } })
  })

  test('replayed: the same response a second time is refused', async () => {
    const { requestId, ledger } = await signIn()
    const samlResponse = await idp.respond(spMetadata, { inResponseTo: requestId })
    expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
      ok: true,
    })
    expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
      ok: false,
      reason: 'replayed',
    })
  })

  test('unsolicited or answering a request we never sent: refused', async () => {
    const { ledger } = await signIn()
    const unsolicited = await idp.respond(spMetadata, { inResponseTo: null })
    expect(
      await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse: unsolicited }),
    ).toMatchObject({ ok: false, reason: 'unsolicited' })
    const strange = await idp.respond(spMetadata, { inResponseTo: '_never-sent' })
    expect(
      await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse: strange }),
    ).toMatchObject({ ok: false, reason: 'replayed' })
  })

  test('tampered: a changed address breaks the signature', async () => {
    const { requestId, ledger } = await signIn()
    const samlResponse = tamper(
      await idp.respond(spMetadata, { inResponseTo: requestId, nameId: 'eve@example.test' }),
      'eve@example.test',
      'boss@example.test',
    )
    expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
      ok: false,
      reason: 'signature',
    })
    expect(ledger.ids.has(requestId)).toBe(true)
  })

  test('signed by another key under the same name: refused', async () => {
    const impostor = startSamlIdp({ entityId: idp.entityId, pair: makeSigningPair('Impostor') })
    const { requestId, ledger } = await signIn()
    const samlResponse = await impostor.respond(spMetadata, { inResponseTo: requestId })
    expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
      ok: false,
      reason: 'signature',
    })
  })

  test('an assertion left unsigned (only the message signed) is refused', async () => {
    const unsignedAssertions = spMetadata.replace(
      'WantAssertionsSigned="true"',
      'WantAssertionsSigned="false"',
    )
    const { requestId, ledger } = await signIn()
    const samlResponse = await idp.respond(unsignedAssertions, { inResponseTo: requestId })
    expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
      ok: false,
      reason: 'signature',
    })
  })

  test('wrongly addressed: another audience, recipient, destination or issuer', async () => {
    const cases = [
      { audience: 'https://other.example.test/metadata' },
      { recipient: 'https://beta.example.test/auth/saml/acs/p1' },
      { destination: 'https://beta.example.test/auth/saml/acs/p1' },
      { issuer: 'https://someone-else.test/idp' },
    ]
    for (const values of cases) {
      const { requestId, ledger } = await signIn()
      const samlResponse = await idp.respond(spMetadata, { inResponseTo: requestId, ...values })
      const result = await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })
      expect(result, JSON.stringify(values)).toMatchObject({
        ok: false,
        reason: 'wrongly-addressed',
      })
    }
  })

  test('expired: an answer whose window closed an hour ago', async () => {
    const { requestId, ledger } = await signIn()
    const hourAgo = new Date(Date.now() - 60 * 60_000)
    const samlResponse = await idp.respond(spMetadata, {
      inResponseTo: requestId,
      issueInstant: new Date(hourAgo.getTime() - 5 * 60_000),
      notOnOrAfter: hourAgo,
    })
    expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
      ok: false,
      reason: 'expired',
    })
  })

  test('not yet valid: an answer dated an hour ahead', async () => {
    const { requestId, ledger } = await signIn()
    const hourAhead = new Date(Date.now() + 60 * 60_000)
    const samlResponse = await idp.respond(spMetadata, {
      inResponseTo: requestId,
      issueInstant: hourAhead,
    })
    expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
      ok: false,
      reason: 'not-yet-valid',
    })
  })

  test('garbage is malformed, never a throw', async () => {
    const ledger = memoryLedger()
    for (const samlResponse of ['', 'bm90IHhtbA==', Buffer.from('<x/>').toString('base64')]) {
      expect(await verifySamlResponse({ sp, idp: idpConfig, ledger, samlResponse })).toMatchObject({
        ok: false,
      })
    }
  })
})

test('the IdP served on 127.0.0.1 answers a browser’s round trip: metadata, sign-in form, signed post', async () => {
  const served = await serveSamlIdp()
  try {
    const metadata = await (await fetch(served.metadataUrl)).text()
    const parsed = parseIdpMetadata(metadata)
    if (!parsed.ok) throw new Error(parsed.message)
    const ledger = memoryLedger()
    const url = await samlSignInUrl({ sp, idp: parsed.idp, ledger, relayState: 'back-to-r' })
    const form = await (await fetch(url)).text()
    const field = (html: string, name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? ''
    const login = await fetch(new URL('/login', served.metadataUrl), {
      method: 'POST',
      body: new URLSearchParams({
        id: field(form, 'id'),
        acs: field(form, 'acs'),
        issuer: field(form, 'issuer'),
        relay: field(form, 'relay'),
        email: 'grace@example.test',
      }),
    })
    const post = await login.text()
    expect(post).toContain(`action="${sp.acsUrl}"`)
    expect(field(post, 'RelayState')).toBe('back-to-r')
    const result = await verifySamlResponse({
      sp,
      idp: parsed.idp,
      ledger,
      samlResponse: field(post, 'SAMLResponse'),
    })
    expect(result).toMatchObject({ ok: true, identity: { email: 'grace@example.test' } })
    expect(served.answered).toEqual([{ email: 'grace@example.test', acsUrl: sp.acsUrl }])
  } finally {
    await served.close()
  }
})
