// HMAC-SHA-256 (RFC 2104) for values computed on every request, such as a card visitor's hash.
// node:crypto's createHmac makes an Hmac object whose native state is freed only when a full
// collection frees its wrapper: one a request piled up tens of MB of malloc between collections
// under load (ADR 113). This is the same HMAC through crypto.hash, which keeps no object: the
// key's padded blocks are made once per key, each value is two one-shot digests.
// tests/unit/keyed-hash.test.ts checks it against createHmac.
import { hash } from 'node:crypto'

/** SHA-256's block size in bytes: longer keys are hashed first, shorter ones padded with zeros. */
const BLOCK_BYTES = 64

const hashers = new Map<string, (message: string) => string>()

function makeHasher(secret: string) {
  const given = Buffer.from(secret, 'utf8')
  const key = given.length > BLOCK_BYTES ? hash('sha256', given, 'buffer') : given
  const inner = Buffer.alloc(BLOCK_BYTES, 0x36)
  const outer = Buffer.alloc(BLOCK_BYTES, 0x5c)
  for (let index = 0; index < key.length; index++) {
    inner[index] = (inner[index] as number) ^ (key[index] as number)
    outer[index] = (outer[index] as number) ^ (key[index] as number)
  }
  return (message: string) => {
    const innerDigest = hash(
      'sha256',
      Buffer.concat([inner, Buffer.from(message, 'utf8')]),
      'buffer',
    )
    return hash('sha256', Buffer.concat([outer, innerDigest]), 'hex')
  }
}

/** HMAC-SHA-256 of `message` under `secret`, in lower-case hex (as createHmac's digest('hex')). */
export function hmacSha256Hex(secret: string, message: string) {
  let hasher = hashers.get(secret)
  if (!hasher) {
    // A process holds one APP_SECRET (tests set a few): the map stays a handful of entries.
    hasher = makeHasher(secret)
    hashers.set(secret, hasher)
  }
  return hasher(message)
}
