// Secrets kept at rest (a user's CRM API key): AES-256-GCM with a key derived from APP_SECRET
// by HKDF, a random 96-bit nonce per value, and the key's id written in front of every value:
//   v1.<key id>.<nonce>.<ciphertext and tag>   (base64url parts)
// The key id is a short hash of the derived key, so after APP_SECRET changes the values written
// under the old one are still read while APP_SECRET_PREVIOUS holds it, and `needsReseal` tells
// which to write again under the current key.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto'
import { getEnv } from '#app/env.server'

const VERSION = 'v1'
const NONCE_BYTES = 12
const TAG_BYTES = 16

type SealingKey = { id: string; key: Buffer }

function deriveKey(secret: string): SealingKey {
  const key = Buffer.from(
    hkdfSync('sha256', secret, 'brandcard secret box', 'api keys at rest v1', 32),
  )
  const id = createHash('sha256').update(key).digest('base64url').slice(0, 8)
  return { id, key }
}

const derived = new Map<string, SealingKey>()
function keyFor(secret: string) {
  let entry = derived.get(secret)
  if (!entry) {
    entry = deriveKey(secret)
    derived.set(secret, entry)
  }
  return entry
}

function currentKey() {
  return keyFor(getEnv().APP_SECRET)
}

function readableKeys(): SealingKey[] {
  const previous = process.env.APP_SECRET_PREVIOUS
  return previous ? [currentKey(), keyFor(previous)] : [currentKey()]
}

export class SecretBoxError extends Error {}

export function seal(plain: string): string {
  const { id, key } = currentKey()
  const nonce = randomBytes(NONCE_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return [VERSION, id, nonce.toString('base64url'), body.toString('base64url')].join('.')
}

export function open(sealed: string): string {
  const [version, id, nonceText, bodyText, ...rest] = sealed.split('.')
  if (version !== VERSION || !id || !nonceText || !bodyText || rest.length > 0) {
    throw new SecretBoxError('not a sealed value')
  }
  const sealingKey = readableKeys().find((candidate) => candidate.id === id)
  if (!sealingKey) throw new SecretBoxError(`sealed under an unknown key (${id})`)
  const nonce = Buffer.from(nonceText, 'base64url')
  const body = Buffer.from(bodyText, 'base64url')
  if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) {
    throw new SecretBoxError('sealed value is truncated')
  }
  const decipher = createDecipheriv('aes-256-gcm', sealingKey.key, nonce)
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

/** True when the value was sealed under an older key and should be sealed again. */
export function needsReseal(sealed: string): boolean {
  return sealed.split('.')[1] !== currentKey().id
}
