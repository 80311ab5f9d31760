// The Google Wallet REST API (issue 29, ADR 043): an OAuth2 access token by the service account's
// JWT-bearer grant, and a generic object updated with it. The base URL and the token endpoint
// come from configuration and the key file, a local fake in tests.
import { SignJWT } from 'jose'
import { callOutside } from '#app/utils/outside-call.server'

export const WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer'

export type ServiceAccount = {
  clientEmail: string
  keyId: string | null
  privateKey: CryptoKey
  tokenUri: string
}

/** A refusal or a failure Google answered: retried unless `permanent`. */
export class GoogleWalletApiError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message)
  }
}

const tokens = new Map<string, { token: string; expiresAt: number }>()

/** For tests that swap the fake server between files. */
export function forgetGoogleWalletTokensForTests() {
  tokens.clear()
}

async function accessToken(account: ServiceAccount) {
  const key = `${account.clientEmail}\n${account.tokenUri}`
  const held = tokens.get(key)
  // A minute's margin: a token that runs out in flight is a needless 401.
  if (held && held.expiresAt > Date.now() + 60_000) return held.token
  const now = Math.floor(Date.now() / 1000)
  const assertion = await new SignJWT({ scope: WALLET_SCOPE })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(account.keyId ? { kid: account.keyId } : {}),
    })
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(account.privateKey)
  // The whole exchange, answer read, within one deadline (app/utils/outside-call.server.ts).
  return callOutside('Google Wallet', async (signal) => {
    const response = await fetch(account.tokenUri, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }),
      signal,
    })
    if (!response.ok) {
      // 400/401: the key was revoked or the account deleted, which no retry mends.
      throw new GoogleWalletApiError(
        `token endpoint answered ${response.status}`,
        response.status === 400 || response.status === 401,
      )
    }
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown }
    if (typeof body.access_token !== 'string') {
      throw new GoogleWalletApiError('token endpoint answered without an access token', false)
    }
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600
    tokens.set(key, { token: body.access_token, expiresAt: Date.now() + lifetime * 1000 })
    return body.access_token
  })
}

/**
 * Replaces a generic object (the REST API's `update`, a PUT): the whole object is sent, so a
 * field the card no longer has (a title, a photo) does not stay behind as a PATCH would leave
 * it. 'missing' when Google has no such object: nobody saved the card yet (the save link creates
 * it on the first save), so there is nothing to update.
 */
export async function updateGenericObject(
  apiUrl: string,
  account: ServiceAccount,
  objectId: string,
  object: Record<string, unknown>,
): Promise<'patched' | 'missing'> {
  const token = await accessToken(account)
  const url = `${apiUrl.replace(/\/+$/, '')}/walletobjects/v1/genericObject/${encodeURIComponent(objectId)}`
  return callOutside('Google Wallet', async (signal) => {
    const response = await fetch(url, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(object),
      signal,
    })
    if (response.status === 404) return 'missing'
    if (response.status === 401) tokens.clear()
    if (!response.ok) {
      // A malformed object (400) or a refused issuer (403) stays so; the rest may pass.
      throw new GoogleWalletApiError(
        `generic object update answered ${response.status}`,
        response.status === 400 || response.status === 403,
      )
    }
    return 'patched'
  })
}
