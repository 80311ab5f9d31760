// A software passkey for tests (ADR 045, Passkeys): an ES256 key that answers WebAuthn options
// as a browser and authenticator would ("none" attestation), so the server's verification runs
// for real. The e2e uses Chromium's virtual authenticator instead.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers'

const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes))
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

export function virtualPasskey(origin: string) {
  const rpID = new URL(origin).hostname
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const credentialId = randomBytes(16)
  let counter = 0

  function clientData(type: string, challenge: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }
  function authData(extra?: Buffer) {
    const flags = extra ? 0x45 : 0x05 // user present + verified (+ attested credential data)
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    return Buffer.concat([sha256(rpID), Buffer.from([flags]), count, extra ?? Buffer.alloc(0)])
  }

  return {
    id: b64(credentialId),
    /** The browser's answer to registration options (startRegistration's result). */
    register(options: { challenge: string }, overrides: { origin?: string } = {}) {
      const cose = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x as string)],
        [-3, isoBase64URL.toBuffer(jwk.y as string)],
      ])
      const length = Buffer.alloc(2)
      length.writeUInt16BE(credentialId.length)
      const attested = Buffer.concat([
        Buffer.alloc(16),
        length,
        credentialId,
        Buffer.from(isoCBOR.encode(cose)),
      ])
      const attestation = new Map<string, Parameters<typeof isoCBOR.encode>[0]>()
      attestation.set('fmt', 'none')
      attestation.set('attStmt', new Map<string, string>())
      attestation.set('authData', new Uint8Array(authData(attested)))
      const attestationObject = isoCBOR.encode(attestation)
      const data = overrides.origin
        ? Buffer.from(
            JSON.stringify({
              type: 'webauthn.create',
              challenge: options.challenge,
              origin: overrides.origin,
            }),
          )
        : clientData('webauthn.create', options.challenge)
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64(data),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      }
    },
    /** The browser's answer to authentication options (startAuthentication's result). */
    authenticate(options: { challenge: string }) {
      counter++
      const data = clientData('webauthn.get', options.challenge)
      const auth = authData()
      const signature = sign('sha256', Buffer.concat([auth, sha256(data)]), privateKey)
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64(data),
          authenticatorData: b64(auth),
          signature: b64(signature),
        },
      }
    },
  }
}
