// A local SAML 2.0 identity provider for tests (issue 42): samlify signs responses with a key and
// certificate made by openssl for the test, nothing real committed. Every value of the response
// is the test's to choose (recipient, audience, times, authentication context, attributes), so a
// test can make each kind of wrong answer an attacker or a misconfigured IdP would send.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inflateRawSync } from 'node:zlib'
import * as samlify from 'samlify'

export type TestKeyPair = { key: string; cert: string }

/** A throwaway RSA key and self-signed certificate, as an IdP's signing pair. */
export function makeSigningPair(commonName = 'Test IdP'): TestKeyPair {
  const dir = mkdtempSync(path.join(tmpdir(), 'saml-idp-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${commonName}`,
        '-keyout',
        'idp.key',
        '-out',
        'idp.pem',
      ],
      { cwd: dir, stdio: 'pipe' },
    )
    return {
      key: readFileSync(path.join(dir, 'idp.key'), 'utf8'),
      cert: readFileSync(path.join(dir, 'idp.pem'), 'utf8'),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export type ResponseValues = {
  inResponseTo?: string | null
  destination?: string | null
  recipient?: string
  audience?: string
  issuer?: string
  issueInstant?: Date
  notBefore?: Date
  notOnOrAfter?: Date
  nameId?: string
  authnContextClass?: string
  attributes?: Record<string, string | string[]>
}

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const PASSWORD_CLASS = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'

/** A service provider as an IdP knows it, from its metadata or from its AuthnRequest. */
export type KnownServiceProvider = {
  entityId: string
  acsUrl: string
  wantAssertionsSigned: boolean
}

/** Reads an SP's metadata as an IdP importing it would: entity id, POST ACS, signed assertions. */
export function serviceProviderOf(spMetadata: string): KnownServiceProvider {
  // samlify's own metadata reader misses unprefixed elements, so the test reads them.
  const entityId = /entityID="([^"]+)"/.exec(spMetadata)?.[1]
  const acsUrl =
    /<(?:\w+:)?AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="([^"]+)"/.exec(
      spMetadata,
    )?.[1]
  if (!entityId || !acsUrl) throw new Error(`not an SP's metadata: ${spMetadata}`)
  return { entityId, acsUrl, wantAssertionsSigned: /WantAssertionsSigned="true"/.test(spMetadata) }
}

export type TestSamlIdp = {
  entityId: string
  ssoUrl: string
  pair: TestKeyPair
  /** The IdP's metadata, as an admin would paste it or its URL would serve it. */
  metadata: string
  /**
   * A base64 SAMLResponse to the service provider (its metadata, or as an AuthnRequest named
   * it); the assertion is signed when the SP asks for it (else samlify signs the message only).
   */
  respond(sp: string | KnownServiceProvider, values: ResponseValues): Promise<string>
}

export function startSamlIdp(
  options: { entityId?: string; pair?: TestKeyPair; ssoUrl?: string } = {},
): TestSamlIdp {
  const entityId = options.entityId ?? `https://idp.test/${randomUUID()}`
  const ssoUrl = options.ssoUrl ?? 'https://idp.test/sso'
  const pair = options.pair ?? makeSigningPair()
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    signingCert: pair.cert,
    privateKey: pair.key,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: ssoUrl },
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: ssoUrl },
    ],
  })
  const respond: TestSamlIdp['respond'] = async (known, values) => {
    const {
      entityId: entityOfSp,
      acsUrl,
      wantAssertionsSigned,
    } = typeof known === 'string' ? serviceProviderOf(known) : known
    const sp = samlify.ServiceProvider({
      entityID: entityOfSp,
      assertionConsumerService: [
        { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: acsUrl },
      ],
      wantAssertionsSigned,
    })
    const issueInstant = values.issueInstant ?? new Date()
    const notBefore = values.notBefore ?? issueInstant
    const notOnOrAfter = values.notOnOrAfter ?? new Date(issueInstant.getTime() + 5 * 60_000)
    const attributes = Object.entries(values.attributes ?? {})
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${escapeXml(name)}">${(Array.isArray(value) ? value : [value])
            .map((item) => `<saml:AttributeValue>${escapeXml(item)}</saml:AttributeValue>`)
            .join('')}</saml:Attribute>`,
      )
      .join('')
    const tags: Record<string, string | null> = {
      ID: `_${randomUUID()}`,
      AssertionID: `_${randomUUID()}`,
      Destination: values.destination === undefined ? acsUrl : values.destination,
      Audience: values.audience ?? entityOfSp,
      SubjectRecipient: values.recipient ?? acsUrl,
      Issuer: values.issuer ?? entityId,
      IssueInstant: issueInstant.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: notBefore.toISOString(),
      ConditionsNotOnOrAfter: notOnOrAfter.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: notOnOrAfter.toISOString(),
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: values.nameId ?? 'person@example.test',
      InResponseTo: values.inResponseTo ?? null,
    }
    const raw = {
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${issueInstant.toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>${escapeXml(values.authnContextClass ?? PASSWORD_CLASS)}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributes
        ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>`
        : '',
    }
    const result = await idp.createLoginResponse(
      sp,
      { extract: {} },
      'post',
      { email: tags.NameID ?? '' },
      (template: string) => {
        let context = template
        for (const [tag, value] of Object.entries(tags)) {
          // A missing value drops its attribute, as an IdP that sends none would.
          context =
            value === null
              ? context.replace(new RegExp(`\\s+[\\w:]+="\\{${tag}\\}"`, 'g'), '')
              : context.replaceAll(`{${tag}}`, escapeXml(value))
        }
        for (const [tag, value] of Object.entries(raw))
          context = context.replaceAll(`{${tag}}`, value)
        return { id: tags.ID ?? '', context }
      },
    )
    return result.context
  }
  const metadata = idp.getMetadata()
  return { entityId, ssoUrl, pair, metadata, respond }
}

/** What an AuthnRequest sent by the redirect binding asks. */
export function readSignInRequest(samlRequest: string) {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8')
  const attribute = (name: string) => new RegExp(`\\s${name}="([^"]+)"`).exec(xml)?.[1] ?? null
  const issuer = /<(?:\w+:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? null
  return { id: attribute('ID'), acsUrl: attribute('AssertionConsumerServiceURL'), issuer }
}

/** The id of the AuthnRequest in a redirect-binding sign-in URL. */
export function requestIdOfSignInUrl(url: string): string {
  const request = new URL(url).searchParams.get('SAMLRequest')
  if (!request) throw new Error(`no SAMLRequest in ${url}`)
  const id = readSignInRequest(request).id
  if (!id) throw new Error(`no ID in the request of ${url}`)
  return id
}

export type ServedSamlIdp = TestSamlIdp & {
  /** The metadata's own URL, for the "metadata URL" way of adding the IdP. */
  metadataUrl: string
  /** Every sign-in the IdP answered: who, and for which service provider. */
  answered: { email: string; acsUrl: string }[]
  close(): Promise<void>
}

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title></head><body>${body}</body></html>`

/**
 * The IdP on 127.0.0.1 as a browser meets it: its sign-in URL takes the redirect binding's
 * AuthnRequest and asks for an email address (any is accepted), then posts the signed response
 * to the ACS the request named (the HTTP-POST binding's self-submitting form). Its metadata is
 * served at /metadata. `values` lets a test bend the answers (an MFA context class, attributes).
 */
export async function serveSamlIdp(
  options: { values?: (email: string) => ResponseValues } = {},
): Promise<ServedSamlIdp> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const base = `http://127.0.0.1:${port}`
  const idp = startSamlIdp({ entityId: `${base}/metadata`, ssoUrl: `${base}/sso` })
  const answered: ServedSamlIdp['answered'] = []
  server.on('request', (request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', base)
      if (request.method === 'GET' && url.pathname === '/metadata') {
        response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' })
        response.end(idp.metadata)
        return
      }
      if (request.method === 'GET' && url.pathname === '/sso') {
        const samlRequest = url.searchParams.get('SAMLRequest') ?? ''
        const relayState = url.searchParams.get('RelayState') ?? ''
        const asked = readSignInRequest(samlRequest)
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        response.end(
          page(
            `<h1>Test IdP</h1><form method="post" action="/login">` +
              `<input type="hidden" name="id" value="${escapeXml(asked.id ?? '')}">` +
              `<input type="hidden" name="acs" value="${escapeXml(asked.acsUrl ?? '')}">` +
              `<input type="hidden" name="issuer" value="${escapeXml(asked.issuer ?? '')}">` +
              `<input type="hidden" name="relay" value="${escapeXml(relayState)}">` +
              `<label>Email <input name="email" type="email" required></label>` +
              `<button type="submit">Sign in to the IdP</button></form>`,
          ),
        )
        return
      }
      if (request.method === 'POST' && url.pathname === '/login') {
        let body = ''
        for await (const chunk of request) body += chunk
        const form = new URLSearchParams(body)
        const email = form.get('email') ?? ''
        const acsUrl = form.get('acs') ?? ''
        const samlResponse = await idp.respond(
          { entityId: form.get('issuer') ?? '', acsUrl, wantAssertionsSigned: true },
          { inResponseTo: form.get('id'), nameId: email, ...options.values?.(email) },
        )
        answered.push({ email, acsUrl })
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        response.end(
          page(
            `<form method="post" action="${escapeXml(acsUrl)}">` +
              `<input type="hidden" name="SAMLResponse" value="${escapeXml(samlResponse)}">` +
              `<input type="hidden" name="RelayState" value="${escapeXml(form.get('relay') ?? '')}">` +
              `<button type="submit">Continue</button></form>` +
              '<script>document.forms[0].submit()</script>',
          ),
        )
        return
      }
      response.writeHead(404).end()
    })().catch((error) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
    })
  })
  return {
    ...idp,
    metadataUrl: `${base}/metadata`,
    answered,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** A response's XML with one text swapped, its signature left as it was: a tampered answer. */
export function tamper(samlResponse: string, from: string, to: string): string {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8')
  if (!xml.includes(from)) throw new Error(`${from} is not in the response`)
  return Buffer.from(xml.replaceAll(from, to), 'utf8').toString('base64')
}
