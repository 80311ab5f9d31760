// The secret box: AES-256-GCM under keys derived from APP_SECRET by HKDF, a random 96-bit nonce
// per value, and the key's id written in front of every value, for two uses that never mix:
//
// - Secrets at rest (a user's CRM API key, a TOTP key on the user row): `sealAtRest`/`openAtRest`,
//     v1.<key id>.<nonce>.<ciphertext and tag>   (base64url parts)
// - Values sealed for a form, which come back from the browser (a TOTP key being set up):
//   `sealForForm`/`openFromForm`, bound to the purpose, organization, user and session they were
//   sealed for (ADR 054). The binding is the cipher's additional authenticated data: it is not in
//   the value, so a value sealed for another account, another session or another purpose fails
//   authentication like a changed byte. They have a prefix and a key of their own:
//     f1.<key id>.<nonce>.<ciphertext and tag>
// - Values sealed for a cookie of a flow that starts before anyone is signed in (a single
//   sign-on's state, nonce and PKCE verifier, ADR 088): `sealForCookie`/`openFromCookie`, bound
//   to the purpose and organization (and the user, when one started it), with their own prefix
//   and key, and an expiry inside the sealed value:
//     c1.<key id>.<nonce>.<ciphertext and tag>
//
// The key id is a short hash of the derived key, so after APP_SECRET changes the values written
// under the old one are still read while APP_SECRET_PREVIOUS holds it, and `needsReseal` tells
// which at-rest values to write again under the current key.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto'
import { getEnv } from '#app/env.server'

const NONCE_BYTES = 12
const TAG_BYTES = 16

type Kind = 'rest' | 'form' | 'cookie'
const PREFIX: Record<Kind, string> = { rest: 'v1', form: 'f1', cookie: 'c1' }
const HKDF_INFO: Record<Kind, string> = {
  rest: 'api keys at rest v1',
  form: 'form values v1',
  cookie: 'flow cookies v1',
}

/**
 * Every purpose a value is sealed for a form with. Each has one page that mints it and the
 * endpoints that open it; tests/integration/sealed-values.test.ts posts a value sealed for another
 * account, session and purpose at every endpoint that opens one, found from the code.
 */
export const FORM_SEAL_PURPOSES = ['two-factor-enrolment'] as const
export type FormSealPurpose = (typeof FORM_SEAL_PURPOSES)[number]

/** Whom and what a form value is sealed for; opening it with any other binding fails. */
export type FormSealBinding = {
  purpose: FormSealPurpose
  organizationId: string
  userId: string
  /** The session's id (the SHA-256 of its token): the value opens in that session only. */
  sessionId: string
}

type SealingKey = { id: string; key: Buffer }

function deriveKey(secret: string, kind: Kind): SealingKey {
  const key = Buffer.from(hkdfSync('sha256', secret, 'brandcard secret box', HKDF_INFO[kind], 32))
  const id = createHash('sha256').update(key).digest('base64url').slice(0, 8)
  return { id, key }
}

const derived = new Map<string, SealingKey>()
function keyFor(secret: string, kind: Kind) {
  const name = `${kind}:${secret}`
  let entry = derived.get(name)
  if (!entry) {
    entry = deriveKey(secret, kind)
    derived.set(name, entry)
  }
  return entry
}

function currentKey(kind: Kind) {
  return keyFor(getEnv().APP_SECRET, kind)
}

function readableKeys(kind: Kind): SealingKey[] {
  const previous = process.env.APP_SECRET_PREVIOUS
  return previous ? [currentKey(kind), keyFor(previous, kind)] : [currentKey(kind)]
}

export class SecretBoxError extends Error {}

function sealWith(kind: Kind, plain: string, aad: Buffer | null) {
  const { id, key } = currentKey(kind)
  const nonce = randomBytes(NONCE_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  if (aad) cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return [PREFIX[kind], id, nonce.toString('base64url'), body.toString('base64url')].join('.')
}

function openWith(kind: Kind, sealed: string, aad: Buffer | null) {
  const [version, id, nonceText, bodyText, ...rest] = sealed.split('.')
  if (version !== PREFIX[kind] || !id || !nonceText || !bodyText || rest.length > 0) {
    throw new SecretBoxError('not a sealed value')
  }
  const sealingKey = readableKeys(kind).find((candidate) => candidate.id === id)
  if (!sealingKey) throw new SecretBoxError(`sealed under an unknown key (${id})`)
  const nonce = Buffer.from(nonceText, 'base64url')
  const body = Buffer.from(bodyText, 'base64url')
  if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) {
    throw new SecretBoxError('sealed value is truncated')
  }
  const decipher = createDecipheriv('aes-256-gcm', sealingKey.key, nonce)
  if (aad) decipher.setAAD(aad)
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES))
  try {
    return Buffer.concat([
      decipher.update(body.subarray(0, body.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    throw new SecretBoxError('sealed value failed authentication')
  }
}

/** A secret to store in a column. Never put one in a page: forms get `sealForForm`. */
export function sealAtRest(plain: string): string {
  return sealWith('rest', plain, null)
}

export function openAtRest(sealed: string): string {
  return openWith('rest', sealed, null)
}

/** True when an at-rest value was sealed under an older key and should be sealed again. */
export function needsReseal(sealed: string): boolean {
  return sealed.split('.')[1] !== currentKey('rest').id
}

function bindingData(binding: FormSealBinding) {
  const { purpose, organizationId, userId, sessionId } = binding
  // Every part is required: a missing one would bind the value to less than it claims.
  if (!purpose || !organizationId || !userId || !sessionId) {
    throw new SecretBoxError('a form value is sealed for a purpose, user and session')
  }
  return Buffer.from(
    JSON.stringify(['brandcard form value v1', purpose, organizationId, userId, sessionId]),
  )
}

/** A value the page hands to the browser and takes back from a form: bound (see above). */
export function sealForForm(plain: string, binding: FormSealBinding): string {
  return sealWith('form', plain, bindingData(binding))
}

/** The value, if it was sealed for exactly this binding; otherwise a SecretBoxError. */
export function openFromForm(sealed: string, binding: FormSealBinding): string {
  return openWith('form', sealed, bindingData(binding))
}

/** Every purpose a flow cookie is sealed for; one never opens as another. */
export const COOKIE_SEAL_PURPOSES = ['sso-sign-in', 'sso-test', 'sso-saml-answer'] as const
export type CookieSealPurpose = (typeof COOKIE_SEAL_PURPOSES)[number]

/** Whom a flow cookie is sealed for: the purpose, the tenant, and the user who started it. */
export type CookieSealBinding = {
  purpose: CookieSealPurpose
  organizationId: string
  /** The signed-in user who started the flow; null when nobody is signed in yet. */
  userId: string | null
}

function cookieBindingData({ purpose, organizationId, userId }: CookieSealBinding) {
  if (!purpose || !organizationId) {
    throw new SecretBoxError('a flow cookie is sealed for a purpose and an organization')
  }
  return Buffer.from(
    JSON.stringify(['brandcard flow cookie v1', purpose, organizationId, userId ?? '']),
  )
}

/** A value for a short-lived cookie: bound as above, and refused after `expiresAt`. */
export function sealForCookie(plain: string, binding: CookieSealBinding, expiresAt: Date): string {
  const body = JSON.stringify({ v: plain, exp: expiresAt.getTime() })
  return sealWith('cookie', body, cookieBindingData(binding))
}

/** The value, if it was sealed for exactly this binding and has not expired. */
export function openFromCookie(sealed: string, binding: CookieSealBinding, now = Date.now()) {
  const opened = JSON.parse(openWith('cookie', sealed, cookieBindingData(binding))) as {
    v: string
    exp: number
  }
  if (typeof opened.exp !== 'number' || opened.exp <= now) {
    throw new SecretBoxError('the sealed value has expired')
  }
  return opened.v
}
