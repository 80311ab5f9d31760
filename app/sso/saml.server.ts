// Sign-in by an agency's SAML 2.0 identity provider (issue 42 point 1): what the IdP's metadata
// says, the service provider's own metadata for the IdP to import, the AuthnRequest, and the
// checks on the response. @node-saml/node-saml checks the signature (assertion signed, always),
// the issuer, the audience and the time window; what it leaves to its caller is checked here:
// the recipient and destination (a response meant for another service provider, or another
// agency's endpoint, is refused) and the single use of each request (a replayed response is
// refused even within its time window, because the request it answers is consumed once).
import type { CacheProvider, Profile } from '@node-saml/node-saml'
import { DOMParser } from '@xmldom/xmldom'

// Loaded on the first SAML request, not with the server: otherwise every process would hold
// node-saml and its XML signature and XPath libraries in its heap (ADR 114).
const nodeSaml = () => import('@node-saml/node-saml')

const SAML_METADATA = 'urn:oasis:names:tc:SAML:2.0:metadata'
const XML_DSIG = 'http://www.w3.org/2000/09/xmldsig#'
const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const EMAIL_ADDRESS_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

/** Metadata larger than this is no IdP's: Entra's is about 20 KB, Okta's 4 KB. */
export const MAX_METADATA_BYTES = 256 * 1024
/** How long a sign-in may take at the IdP: the request it answers is forgotten after this. */
export const SAML_REQUEST_LIFETIME_MS = 10 * 60 * 1000
/** Clocks of an IdP and this server may differ by this much. */
const CLOCK_SKEW_MS = 2 * 60 * 1000
/** An assertion older than this is refused even if the IdP gave it a longer life. */
const MAX_ASSERTION_AGE_MS = 10 * 60 * 1000

export type SamlIdentityProvider = {
  entityId: string
  /** Where the AuthnRequest goes (HTTP-Redirect binding). */
  ssoUrl: string
  /** PEM bodies of the IdP's signing certificates (more than one while it rolls its key). */
  certificates: string[]
}

export type SamlServiceProvider = {
  /** This agency's entity id: its metadata URL, unique per agency and provider. */
  entityId: string
  /** The assertion consumer service on the agency's host (HTTP-POST binding). */
  acsUrl: string
}

/**
 * The requests this server sent and not yet seen answered, by id. `consume` must be atomic: of two
 * responses to one request, one consumes it and the other is a replay.
 */
export type SamlRequestLedger = {
  remember(id: string, createdAt: Date): Promise<void>
  /** When the request was sent, if it is still unanswered. */
  pendingSince(id: string): Promise<Date | null>
  consume(id: string): Promise<boolean>
}

export type MetadataResult =
  | { ok: true; idp: SamlIdentityProvider }
  | { ok: false; message: string }

function elements(parent: Document | Element, namespace: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(namespace, name))
}

/** A certificate as node-saml and the settings page take it: the base64 body, no whitespace. */
function certificateBody(text: string): string {
  return text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim()
}

/**
 * Reads an IdP's metadata XML (Entra's federation metadata, Okta's and Google's IdP metadata):
 * the entity id, the single sign-on URL of the redirect binding, the signing certificates. XML
 * with a DOCTYPE is refused before parsing (no entity of any kind is needed in metadata).
 */
export function parseIdpMetadata(xml: string): MetadataResult {
  if (Buffer.byteLength(xml) > MAX_METADATA_BYTES) {
    return { ok: false, message: 'The metadata is larger than any identity provider’s (256 KB)' }
  }
  if (/<!DOCTYPE/i.test(xml)) return { ok: false, message: 'The metadata may not have a DOCTYPE' }
  let doc: Document
  const problems: string[] = []
  try {
    doc = new DOMParser({
      errorHandler: {
        warning: () => {},
        error: (message: string) => problems.push(message),
        fatalError: (message: string) => problems.push(message),
      },
    }).parseFromString(xml, 'text/xml') as unknown as Document
  } catch {
    return { ok: false, message: 'This is not SAML metadata: the XML does not parse' }
  }
  if (problems.length > 0 || !doc?.documentElement) {
    return { ok: false, message: 'This is not SAML metadata: the XML does not parse' }
  }
  const descriptor = elements(doc, SAML_METADATA, 'EntityDescriptor')[0]
  const idpDescriptor = descriptor && elements(descriptor, SAML_METADATA, 'IDPSSODescriptor')[0]
  if (!descriptor || !idpDescriptor) {
    return { ok: false, message: 'This is not an identity provider’s SAML metadata' }
  }
  const entityId = descriptor.getAttribute('entityID')?.trim()
  if (!entityId) return { ok: false, message: 'The metadata names no entity ID' }
  const services = elements(idpDescriptor, SAML_METADATA, 'SingleSignOnService')
  const redirect = services.find((service) => service.getAttribute('Binding') === HTTP_REDIRECT)
  const ssoUrl = redirect?.getAttribute('Location')?.trim()
  if (!ssoUrl) {
    return { ok: false, message: 'The metadata has no single sign-on URL for the redirect binding' }
  }
  if (!isHttpUrl(ssoUrl))
    return { ok: false, message: 'The single sign-on URL is not a web address' }
  const certificates = elements(idpDescriptor, SAML_METADATA, 'KeyDescriptor')
    .filter((key) => {
      const use = key.getAttribute('use')
      return use === null || use === '' || use === 'signing'
    })
    .flatMap((key) => elements(key, XML_DSIG, 'X509Certificate'))
    .map((cert) => certificateBody(cert.textContent ?? ''))
    .filter((body) => body.length > 0)
  if (certificates.length === 0) {
    return { ok: false, message: 'The metadata has no signing certificate' }
  }
  return { ok: true, idp: { entityId, ssoUrl, certificates: [...new Set(certificates)] } }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

function toPem(body: string): string {
  const lines = body.match(/.{1,64}/g) ?? []
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----`
}

/** node-saml's request cache over the ledger; consumption is the ledger's own, after the checks. */
function ledgerCache(ledger: SamlRequestLedger): CacheProvider {
  return {
    saveAsync: async (key, value) => {
      const createdAt = new Date()
      await ledger.remember(key, createdAt)
      return { value, createdAt: createdAt.getTime() }
    },
    // node-saml reads the value as the time the request was sent, to apply the lifetime.
    getAsync: async (key) => (await ledger.pendingSince(key))?.toISOString() ?? null,
    // Consumed by verifySamlResponse once every check has passed, atomically.
    removeAsync: async (key) => key,
  }
}

async function samlClient(
  sp: SamlServiceProvider,
  idp: SamlIdentityProvider,
  ledger: SamlRequestLedger,
) {
  const { SAML, ValidateInResponseTo } = await nodeSaml()
  return new SAML({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    entryPoint: idp.ssoUrl,
    idpIssuer: idp.entityId,
    idpCert: idp.certificates.map(toPem),
    wantAssertionsSigned: true,
    // Entra signs the assertion only by default; Okta and Google sign both. The assertion's
    // signature is what binds every claim read here.
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_LIFETIME_MS,
    cacheProvider: ledgerCache(ledger),
    identifierFormat: EMAIL_ADDRESS_FORMAT,
    // The IdP decides how its people authenticate; asking for a class would refuse passkeys.
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  })
}

/** The service provider's metadata, for the IdP to import (entity id, ACS, signed assertions). */
export async function serviceProviderMetadata(sp: SamlServiceProvider): Promise<string> {
  const { generateServiceProviderMetadata } = await nodeSaml()
  return generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: EMAIL_ADDRESS_FORMAT,
    wantAssertionsSigned: true,
    decryptionCert: null,
    publicCerts: null,
  })
}

/** The IdP's sign-in URL with a new AuthnRequest, its id remembered in the ledger. */
export async function samlSignInUrl(options: {
  sp: SamlServiceProvider
  idp: SamlIdentityProvider
  ledger: SamlRequestLedger
  relayState: string
}): Promise<string> {
  const client = await samlClient(options.sp, options.idp, options.ledger)
  return client.getAuthorizeUrlAsync(options.relayState, undefined, {})
}

export type SamlIdentity = {
  nameId: string
  email: string
  firstName: string | null
  lastName: string | null
  /** The IdP says the person passed more than one factor (AuthnContext or Entra's amr claim). */
  multiFactor: boolean
  /** Every attribute the IdP sent, for "Test connection". */
  attributes: Record<string, string[]>
}

export type SamlRefusal =
  | 'malformed'
  | 'signature'
  | 'wrongly-addressed'
  | 'expired'
  | 'not-yet-valid'
  | 'replayed'
  | 'unsolicited'
  | 'idp-error'
  | 'no-email'

export type SamlVerification =
  | { ok: true; identity: SamlIdentity; requestId: string }
  | { ok: false; reason: SamlRefusal; message: string }

const REFUSAL_MESSAGES: Record<SamlRefusal, string> = {
  malformed: 'The identity provider’s answer could not be read',
  signature: 'The identity provider’s answer is not signed with its certificate',
  'wrongly-addressed': 'The identity provider’s answer was meant for another service',
  expired: 'The identity provider’s answer has expired: sign in again',
  'not-yet-valid': 'The identity provider’s answer is dated in the future: its clock is wrong',
  // An unknown request id: used already, or never sent from here (another agency's answer).
  replayed: 'This answer is to no sign-in waiting here, or was used already: sign in again',
  unsolicited: 'Start signing in from the sign-in page',
  'idp-error': 'The identity provider did not sign you in',
  'no-email': 'The identity provider sent no email address',
}

function refuse(reason: SamlRefusal): SamlVerification {
  return { ok: false, reason, message: REFUSAL_MESSAGES[reason] }
}

/** node-saml's error texts, sorted into what the person and the admin's test are told. */
async function reasonOf(error: unknown): Promise<SamlRefusal> {
  if (error instanceof (await nodeSaml()).SamlStatusError) return 'idp-error'
  const text = error instanceof Error ? error.message : String(error)
  if (/InResponseTo is missing/i.test(text)) return 'unsolicited'
  if (/InResponseTo/i.test(text)) return 'replayed'
  if (/not yet valid/i.test(text)) return 'not-yet-valid'
  if (/expired|NotBefore|NotOnOrAfter|too old|max age|No valid subject confirmation/i.test(text)) {
    return 'expired'
  }
  if (/audience|issuer/i.test(text)) return 'wrongly-addressed'
  if (/signature|signed|cert/i.test(text)) return 'signature'
  return 'malformed'
}

type XmlNode = { $?: Record<string, string>; _?: string; [key: string]: unknown }

function children(node: unknown, name: string): XmlNode[] {
  if (!node || typeof node !== 'object') return []
  const value = (node as Record<string, unknown>)[name]
  return Array.isArray(value) ? (value as XmlNode[]) : []
}

function textOf(node: XmlNode | string | undefined): string {
  if (typeof node === 'string') return node.trim()
  return (node?._ ?? '').trim()
}

/** The signed assertion's issuer, recipients and authentication context classes. */
function signedAssertionFacts(profile: Profile) {
  const assertion = profile.getAssertion?.()?.Assertion
  const issuer = textOf(children(assertion, 'Issuer')[0])
  const recipients = children(assertion, 'Subject')
    .flatMap((subject) => children(subject, 'SubjectConfirmation'))
    .flatMap((confirmation) => children(confirmation, 'SubjectConfirmationData'))
    .map((data) => data.$?.Recipient ?? '')
  const contextClasses = children(assertion, 'AuthnStatement')
    .flatMap((statement) => children(statement, 'AuthnContext'))
    .flatMap((context) => children(context, 'AuthnContextClassRef'))
    .map((ref) => textOf(ref))
  return { issuer, recipients, contextClasses }
}

/** The Response element's Destination attribute, where it has one. */
function responseDestination(xml: string): string | null {
  const doc = new DOMParser({ errorHandler: { warning: () => {} } }).parseFromString(
    xml,
    'text/xml',
  ) as unknown as Document
  const root = doc.documentElement
  if (root?.localName !== 'Response') return null
  return root.getAttribute('Destination') || null
}

// Classes that name more than a password (SAML authn context classes, REFEDS MFA, PAPE).
const MULTI_FACTOR_CLASSES = new Set([
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorUnregistered',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:Smartcard',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:X509',
  'https://refeds.org/profile/mfa',
  'http://schemas.openid.net/pape/policies/2007/06/multi-factor',
  'http://schemas.microsoft.com/claims/multipleauthn',
])
// Entra says how the person signed in in this claim, not in the context class.
const ENTRA_METHODS = 'http://schemas.microsoft.com/claims/authnmethodsreferences'

const EMAIL_ATTRIBUTES = [
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'email',
  'mail',
  'Email',
]
const FIRST_NAME_ATTRIBUTES = [
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  'urn:oid:2.5.4.42',
  'firstName',
  'givenName',
  'first_name',
]
const LAST_NAME_ATTRIBUTES = [
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  'urn:oid:2.5.4.4',
  'lastName',
  'surname',
  'sn',
  'last_name',
]

function attributesOf(profile: Profile): Record<string, string[]> {
  const raw = (profile.attributes ?? {}) as Record<string, unknown>
  const attributes: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(raw)) {
    const values = (Array.isArray(value) ? value : [value])
      .map((item) => (typeof item === 'string' ? item : textOf(item as XmlNode)))
      .filter((item) => item.length > 0)
    attributes[name] = values
  }
  return attributes
}

function first(attributes: Record<string, string[]>, names: string[]): string | null {
  for (const name of names) {
    const value = attributes[name]?.[0]?.trim()
    if (value) return value
  }
  return null
}

const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Checks a response posted to the ACS and reads who signed in. Every refusal says why in one of
 * a few words, so the sign-in page and the admin's test can tell the person.
 */
export async function verifySamlResponse(options: {
  sp: SamlServiceProvider
  idp: SamlIdentityProvider
  ledger: SamlRequestLedger
  samlResponse: string
}): Promise<SamlVerification> {
  const { sp, idp, ledger, samlResponse } = options
  let xml: string
  try {
    xml = Buffer.from(samlResponse, 'base64').toString('utf8')
  } catch {
    return refuse('malformed')
  }
  if (/<!DOCTYPE/i.test(xml)) return refuse('malformed')
  const client = await samlClient(sp, idp, ledger)
  let profile: Profile | null
  try {
    ;({ profile } = await client.validatePostResponseAsync({ SAMLResponse: samlResponse }))
  } catch (error) {
    return refuse(await reasonOf(error))
  }
  if (!profile) return refuse('malformed')

  const destination = responseDestination(xml)
  if (destination !== null && destination !== sp.acsUrl) return refuse('wrongly-addressed')
  const { issuer, recipients, contextClasses } = signedAssertionFacts(profile)
  // node-saml checks the issuer of logout messages only.
  if (issuer !== idp.entityId) return refuse('wrongly-addressed')
  // A bearer assertion names the ACS it is for (SAML profiles §4.1.4.2); one that names none, or
  // another, was made for someone else.
  if (recipients.length === 0 || recipients.some((recipient) => recipient !== sp.acsUrl)) {
    return refuse('wrongly-addressed')
  }

  const requestId = requestIdOf(xml)
  if (!requestId || !(await ledger.consume(requestId))) return refuse('replayed')

  const attributes = attributesOf(profile)
  const nameId = profile.nameID ?? ''
  const email =
    first(attributes, EMAIL_ATTRIBUTES) ?? (LOOKS_LIKE_EMAIL.test(nameId) ? nameId : null)
  if (!email || !LOOKS_LIKE_EMAIL.test(email)) return refuse('no-email')
  const methods = attributes[ENTRA_METHODS] ?? []
  const multiFactor = [...contextClasses, ...methods].some((value) =>
    MULTI_FACTOR_CLASSES.has(value),
  )
  return {
    ok: true,
    requestId,
    identity: {
      nameId,
      email: email.toLowerCase(),
      firstName: first(attributes, FIRST_NAME_ATTRIBUTES),
      lastName: first(attributes, LAST_NAME_ATTRIBUTES),
      multiFactor,
      attributes,
    },
  }
}

/** The request a response answers (node-saml has checked it against the ledger already). */
function requestIdOf(xml: string): string | null {
  const doc = new DOMParser({ errorHandler: { warning: () => {} } }).parseFromString(
    xml,
    'text/xml',
  ) as unknown as Document
  return doc.documentElement?.getAttribute('InResponseTo') || null
}
