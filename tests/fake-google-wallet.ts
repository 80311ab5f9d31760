// A local stand-in for Google's OAuth2 token endpoint and the Wallet REST API's generic objects
// on 127.0.0.1, with a throwaway service account key (nothing real is committed). The token
// endpoint checks the JWT-bearer assertion's RS256 signature with the test public key, as
// Google does with the account's; the object endpoints take only the tokens it handed out.
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importSPKI, jwtVerify } from 'jose'
import { readBody, send } from './fake-http'

export const TEST_ISSUER_ID = '3388000000012345678'
export const TEST_CLIENT_EMAIL = 'brandcard-wallet@brandcard-test.iam.gserviceaccount.com'
const WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer'
const OBJECT_PATH = /^\/walletobjects\/v1\/genericObject\/([^/?]+)$/

export type WalletRequest = {
  method: string
  path: string
  objectId: string | null
  authorization: string | undefined
  body: Record<string, unknown> | null
}

export type FakeGoogleWallet = {
  url: string
  /** The JSON key file (token_uri pointing here) and the public key that verifies its JWTs. */
  keyPath: string
  publicKeyPem: string
  /** Token requests whose assertion verified, and those refused. */
  grants: { accepted: number; refused: string[] }
  requests: WalletRequest[]
  /** The objects Google holds, by id: a test adds one to stand for a user's save. */
  objects: Map<string, Record<string, unknown>>
  /** The requests that changed an object: PATCHes and PUTs (updates). */
  patches(): WalletRequest[]
  reset(): void
  close(): Promise<void>
}

// One RSA key per test process (0.4 s of CPU each), in a new key file for each caller.
let keyPair: { privatePem: string; publicKeyPem: string } | undefined

// The key files' directories not yet removed. Kept on globalThis: vitest evaluates this module
// again for each test file that shares a process.
const shared = globalThis as { __brandcardWalletKeyDirs?: Set<string> }
shared.__brandcardWalletKeyDirs ??= new Set<string>()
const keyDirectories = shared.__brandcardWalletKeyDirs

/**
 * Removes every key file made so far in this process: after each vitest file
 * (tests/setup/process-state.ts), which set GOOGLE_WALLET_KEY to one and left it, and as the e2e
 * server ends. Each run had left dozens of private keys in the machine's temporary directory.
 */
export function removeServiceAccountKeys() {
  for (const directory of keyDirectories) rmSync(directory, { recursive: true, force: true })
  keyDirectories.clear()
}

/** A throwaway RSA key pair as a service account JSON key written to a temporary file. */
export function makeServiceAccountKey(tokenUri: string) {
  keyPair ??= (() => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    return {
      privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }
  })()
  const { privatePem, publicKeyPem } = keyPair
  const dir = mkdtempSync(join(tmpdir(), 'brandcard-wallet-'))
  keyDirectories.add(dir)
  const keyPath = join(dir, 'service-account.json')
  writeFileSync(
    keyPath,
    JSON.stringify({
      type: 'service_account',
      project_id: 'brandcard-test',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privatePem,
      client_email: TEST_CLIENT_EMAIL,
      client_id: '100000000000000000001',
      token_uri: tokenUri,
    }),
    { mode: 0o600 },
  )
  return { keyPath, publicKeyPem }
}

export async function startFakeGoogleWallet(): Promise<FakeGoogleWallet> {
  const requests: WalletRequest[] = []
  const objects = new Map<string, Record<string, unknown>>()
  const tokens = new Set<string>()
  const grants = { accepted: 0, refused: [] as string[] }
  let verifyKey: CryptoKey | undefined
  let tokenUri = ''

  async function grant(raw: string) {
    const form = new URLSearchParams(raw)
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return { status: 400, body: { error: 'unsupported_grant_type' } }
    }
    try {
      const { payload, protectedHeader } = await jwtVerify(
        form.get('assertion') ?? '',
        verifyKey as CryptoKey,
        { issuer: TEST_CLIENT_EMAIL, audience: tokenUri, algorithms: ['RS256'] },
      )
      if (protectedHeader.alg !== 'RS256') throw new Error('not RS256')
      if (payload.scope !== WALLET_SCOPE) throw new Error(`scope ${String(payload.scope)}`)
    } catch (error) {
      grants.refused.push(error instanceof Error ? error.message : String(error))
      return { status: 400, body: { error: 'invalid_grant' } }
    }
    grants.accepted += 1
    const token = `ya29.fake-${randomBytes(12).toString('hex')}`
    tokens.add(token)
    return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } }
  }

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req)
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (path === '/token' && req.method === 'POST') {
      const { status, body } = await grant(raw)
      return send(res, status, body)
    }
    const objectId = OBJECT_PATH.exec(path)?.[1]
    const id = objectId ? decodeURIComponent(objectId) : null
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null
    requests.push({
      method: req.method ?? 'GET',
      path,
      objectId: id,
      authorization: req.headers.authorization,
      body,
    })
    const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? ''
    if (!tokens.has(bearer)) return send(res, 401, { error: { code: 401 } })
    if (!id && path === '/walletobjects/v1/genericObject' && req.method === 'POST') {
      const newId = String(body?.id ?? '')
      if (objects.has(newId)) return send(res, 409, { error: { code: 409 } })
      objects.set(newId, body ?? {})
      return send(res, 200, body)
    }
    if (!id) return send(res, 404, { error: { code: 404 } })
    const held = objects.get(id)
    if (!held) return send(res, 404, { error: { code: 404, message: 'not found' } })
    if (req.method === 'GET') return send(res, 200, held)
    if (req.method === 'PATCH') {
      const merged = { ...held, ...body }
      objects.set(id, merged)
      return send(res, 200, merged)
    }
    // `update`: the object becomes the body, whatever it held before.
    if (req.method === 'PUT') {
      objects.set(id, body ?? {})
      return send(res, 200, body)
    }
    return send(res, 405, { error: { code: 405 } })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  tokenUri = `${url}/token`
  const { keyPath, publicKeyPem } = makeServiceAccountKey(tokenUri)
  verifyKey = await importSPKI(publicKeyPem, 'RS256')
  return {
    url,
    keyPath,
    publicKeyPem,
    grants,
    requests,
    objects,
    patches: () =>
      requests.filter((request) => request.method === 'PATCH' || request.method === 'PUT'),
    reset() {
      requests.length = 0
      objects.clear()
      grants.accepted = 0
      grants.refused.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
