// Where the server may fetch an identity provider's documents from (OIDC discovery, keys, token,
// SAML metadata): public addresses over https, plain http only on this machine's loopback and
// only where the environment allows it (tests' local IdPs; never by default in production).
//
// An agency admin types these URLs, so they must not reach the server's own network: every
// connection goes through the shared public-address dispatcher (app/utils/public-address.server.ts,
// ADR 091), which resolves the name itself and refuses a non-public address on every connection,
// a redirect's included. Webhooks use the same module with their own policy (ADR 093).
import { getEnv } from '#app/env.server'
import {
  type AddressPolicy,
  addressLiteral,
  isAllowedAddress,
  publicAddressDispatcher,
} from '#app/utils/public-address.server'
import { isLoopbackHost } from '#app/validation/sso'

export function allowsHttpLoopback() {
  const env = getEnv()
  return env.SSO_ALLOW_HTTP_LOOPBACK
    ? env.SSO_ALLOW_HTTP_LOOPBACK === '1'
    : env.NODE_ENV !== 'production'
}

/** Identity providers: public unicast, and loopback only where tests' local IdPs are allowed. */
const idpPolicy = (): AddressPolicy => ({ loopback: allowsHttpLoopback(), private: false })

/**
 * Whether the server may connect to this IP address for an identity provider: a public unicast
 * one, or this machine's loopback where tests' local IdPs are allowed.
 */
export function isAllowedIdpAddress(address: string) {
  return isAllowedAddress(address, idpPolicy())
}

export function isFetchableIdpUrl(url: URL) {
  if (url.username || url.password) return false
  const literal = addressLiteral(url.hostname)
  if (literal && !isAllowedIdpAddress(literal)) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && isLoopbackHost(url.hostname) && allowsHttpLoopback()
}

let dispatcher: ReturnType<typeof publicAddressDispatcher> | undefined

/** The connection pool every request to an identity provider goes through (fetch's dispatcher). */
export function idpDispatcher() {
  dispatcher ??= publicAddressDispatcher(idpPolicy)
  return dispatcher
}
