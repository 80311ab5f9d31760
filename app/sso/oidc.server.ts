// OpenID Connect with openid-client v6 (issue 42 point 1, ADR 088): discovery of a provider's
// metadata, the authorization URL of a code flow with PKCE, state and nonce, and the code's
// exchange, whose ID token openid-client checks (signature, issuer, audience, expiry, nonce).
// Every request to the provider goes through callOutside, under its deadline.
import * as client from 'openid-client'
import { callOutside, OutsideCallError } from '#app/utils/outside-call.server'
import { isPrivateAddressRefusal, PrivateAddressError } from '#app/utils/public-address.server'
import { idpDispatcher, isFetchableIdpUrl } from './identity-provider-url.server'

/**
 * Discovery found no usable OpenID Connect metadata at the URL; `privateAddress` when the URL
 * (or one the document named) leads into a private network, which the server does not call.
 */
export class OidcDiscoveryError extends Error {
  constructor(
    message: string,
    readonly privateAddress = false,
  ) {
    super(message)
  }
}

/**
 * The provider refused or failed the code exchange, or its ID token did not check out;
 * `mismatch` when the token was not for this attempt (its nonce).
 */
export class OidcExchangeError extends Error {
  constructor(
    message: string,
    readonly mismatch = false,
  ) {
    super(message)
  }
}

/** Whether openid-client refused the ID token's nonce: somewhere down the error's causes. */
function isNonceMismatch(error: unknown) {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current)
    const { message, cause } = current as { message?: unknown; cause?: unknown }
    if (typeof message === 'string' && /"nonce"/.test(message)) return true
    if ((cause as { claim?: unknown } | undefined)?.claim === 'nonce') return true
    current = cause
  }
  return false
}

export type OidcClient = { issuerUrl: string; clientId: string; clientSecret: string }

/**
 * Plain http only for this machine's own provider (the tests'), and only where the environment
 * allows it (./identity-provider-url.server.ts); everything else is https.
 */
function allowsHttp(url: URL) {
  return url.protocol === 'http:' && isFetchableIdpUrl(url)
}

// Every request openid-client makes (discovery, keys, token, user info) under the outside-call
// deadline, and only to addresses the server may reach (the discovery document names the others).
const boundedFetch: client.CustomFetch = (url, options) =>
  callOutside('The identity provider', async (signal) => {
    const target = new URL(url)
    if (!isFetchableIdpUrl(target)) throw new PrivateAddressError(target.hostname)
    const own = options.signal
    const combined = own ? AbortSignal.any([own, signal]) : signal
    return fetch(url, {
      ...options,
      signal: combined,
      dispatcher: await idpDispatcher(),
    } as RequestInit)
  })

const CONFIG_TTL_MS = 10 * 60_000
const configs = new Map<string, { config: client.Configuration; until: number }>()

function cacheKey({ issuerUrl, clientId, clientSecret }: OidcClient) {
  return JSON.stringify([issuerUrl, clientId, clientSecret])
}

/**
 * The provider's configuration from its discovery document (the issuer, or the document's own
 * URL). Cached for a few minutes per issuer and client, so a sign-in's two legs do not each fetch
 * it; `fresh` skips the cache (saving the settings must see the provider as it is now).
 */
export async function discoverProvider(
  provider: OidcClient,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<client.Configuration> {
  const key = cacheKey(provider)
  const cached = configs.get(key)
  if (!fresh && cached && cached.until > Date.now()) return cached.config
  const url = new URL(provider.issuerUrl)
  let config: client.Configuration
  try {
    config = await client.discovery(
      url,
      provider.clientId,
      undefined,
      client.ClientSecretBasic(provider.clientSecret),
      {
        [client.customFetch]: boundedFetch,
        ...(allowsHttp(url) ? { execute: [client.allowInsecureRequests] } : {}),
      },
    )
  } catch (error) {
    throw new OidcDiscoveryError(
      error instanceof Error ? error.message : String(error),
      isPrivateAddressRefusal(error),
    )
  }
  const metadata = config.serverMetadata()
  if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
    throw new OidcDiscoveryError('the discovery document lacks an authorization, token or keys URL')
  }
  configs.set(key, { config, until: Date.now() + CONFIG_TTL_MS })
  return config
}

/** What one sign-in attempt must remember between its two legs (kept in a sealed cookie). */
export type OidcAttempt = {
  state: string
  nonce: string
  codeVerifier: string
  redirectUri: string
}

export function newAttempt(redirectUri: string): OidcAttempt {
  return {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    redirectUri,
  }
}

/** Where the browser goes to sign in at the provider. */
export async function authorizationUrl(
  config: client.Configuration,
  attempt: OidcAttempt,
  loginHint?: string,
) {
  return client.buildAuthorizationUrl(config, {
    redirect_uri: attempt.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: attempt.state,
    nonce: attempt.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
    code_challenge_method: 'S256',
    ...(loginHint ? { login_hint: loginHint } : {}),
  })
}

/** The ID token's claims, with what the userinfo endpoint adds (email, names) when it has one. */
export type OidcClaims = Record<string, unknown> & { sub: string }

/**
 * Exchanges the code the provider sent back. openid-client refuses a state that is not ours, a
 * code exchanged without our PKCE verifier, and an ID token that is unsigned by the provider's
 * keys, for another client, expired, or without our nonce. Throws OidcExchangeError for each.
 */
export async function exchangeCode(
  config: client.Configuration,
  attempt: OidcAttempt,
  callbackSearch: URLSearchParams,
): Promise<OidcClaims> {
  const currentUrl = new URL(attempt.redirectUri)
  currentUrl.search = callbackSearch.toString()
  try {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: attempt.codeVerifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    })
    const claims = tokens.claims()
    if (!claims) throw new OidcExchangeError('no ID token')
    const merged: OidcClaims = { ...claims }
    // Some providers keep the email and names out of the ID token (Okta's default, Entra for
    // some accounts): the userinfo endpoint has them. The ID token's own claims win.
    if (config.serverMetadata().userinfo_endpoint && (!claims.email || !claims.given_name)) {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
      for (const [name, value] of Object.entries(info)) {
        if (!(name in merged)) merged[name] = value
      }
    }
    return merged
  } catch (error) {
    if (error instanceof OutsideCallError) throw error
    if (error instanceof OidcExchangeError) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new OidcExchangeError(message, isNonceMismatch(error))
  }
}
