/**
 * CSRF defence for state-changing requests: the browser's Origin must be this very origin,
 * scheme included (an `https://` page must not post to the `http://` site, nor the reverse).
 * SameSite=Lax is not enough, because sibling tenant subdomains are the same site.
 * Requests without an Origin are refused too (browsers send one on every POST).
 */
const SERIALIZED_ORIGIN = /^https?:\/\/(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

export function isSameOriginMutation(
  method: string,
  origin: string | undefined,
  rawHost: string | undefined,
  scheme: 'http' | 'https',
) {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return true
  if (!origin || !rawHost || origin === 'null') return false
  // A browser's Origin is exactly scheme://host[:port]. The URL parser would read
  // `http://user@evil.test@acme.localhost` or `http://x@acme.localhost/` as this origin, so
  // anything more (userinfo, a path, a query, spaces) is refused before it is parsed.
  if (!SERIALIZED_ORIGIN.test(origin)) return false
  try {
    // Both sides through the URL parser: case, default ports (:80, :443) and IDNA folded alike.
    return new URL(origin).origin === new URL(`${scheme}://${rawHost.trim()}`).origin
  } catch {
    return false
  }
}

/**
 * The one exception: RFC 8058's one-click unsubscribe, which mailbox providers POST from their
 * servers with no Origin and no cookies. Its action reads no session and acts only on the
 * signed token in the URL, so a forged cross-site POST can do nothing the token's holder could
 * not do anyway. Only this exact path, only POST, and only without an Origin (a browser that
 * sends one still goes through the same-origin check above).
 */
export const ONE_CLICK_UNSUBSCRIBE_PATH = '/email/unsubscribe'
/** A card follower's one-click way out (ADR 102): the same kind of signed-token-only action. */
export const ONE_CLICK_FOLLOW_STOP_PATH = '/follow/unsubscribe'

export function isOneClickUnsubscribe(method: string, path: string, origin: string | undefined) {
  return (
    method.toUpperCase() === 'POST' &&
    (path === ONE_CLICK_UNSUBSCRIBE_PATH || path === ONE_CLICK_FOLLOW_STOP_PATH) &&
    origin === undefined
  )
}

/**
 * Apple's PassKit web service (ADR 042): devices register, unregister and send logs with POST
 * and DELETE, from no page and with no cookies. Its actions read no session and act only for
 * a pass whose token the request carries (or, for logs, only write a log line), so a forged
 * cross-site request can do nothing the token's holder could not. Only below this path, and
 * only without an Origin (a browser that sends one is checked as everywhere else).
 */
export const WALLET_WEB_SERVICE_PREFIX = '/wallet/apple/v1/'

export function isWalletWebService(method: string, path: string, origin: string | undefined) {
  return (
    ['POST', 'DELETE'].includes(method.toUpperCase()) &&
    path.startsWith(WALLET_WEB_SERVICE_PREFIX) &&
    origin === undefined
  )
}

/**
 * Stripe's webhook (ADR 051): Stripe POSTs events from its servers with no Origin and no
 * cookies. The action reads no session and acts only on a body whose Stripe-Signature verifies
 * with the endpoint's secret. Only this exact path, only POST, only without an Origin.
 */
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook'

export function isStripeWebhook(method: string, path: string, origin: string | undefined) {
  return method.toUpperCase() === 'POST' && path === STRIPE_WEBHOOK_PATH && origin === undefined
}

/**
 * A SAML identity provider's answer (ADR 090): the IdP's page posts the signed response to the
 * ACS from the IdP's own origin (the HTTP-POST binding), with any Origin (or "null" from a
 * sandboxed page). The action reads no session: it acts only on a response whose signature,
 * audience, recipient, time window and single use check out, and signs in only the browser
 * whose own flow cookie names the request answered. Only the ACS path, only POST.
 */
const SAML_ACS_PATH = /^\/auth\/sso\/saml\/[0-9a-f-]{36}\/acs$/

export function isSamlAssertionPost(method: string, path: string) {
  return method.toUpperCase() === 'POST' && SAML_ACS_PATH.test(path)
}

/**
 * SCIM 2.0 (ADR 089): an identity provider's servers call /scim/v2/… with POST, PUT, PATCH and
 * DELETE, from no page and with no cookies. The action reads no session and acts only for the
 * agency whose bearer token the request carries (Authorization, which a browser never adds to
 * a cross-site form or a simple request), so a forged cross-site request can do nothing. Only
 * below this path, and only without an Origin (a browser that sends one is checked as everywhere
 * else).
 */
export const SCIM_PREFIX = '/scim/v2/'

export function isScimRequest(method: string, path: string, origin: string | undefined) {
  return (
    ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method.toUpperCase()) &&
    path.startsWith(SCIM_PREFIX) &&
    origin === undefined
  )
}

/**
 * The REST API (ADR 092): an integration's servers call /api/v1/… with POST, PATCH and DELETE,
 * from no page and with no cookies. The action reads no session and acts only for the agency
 * whose API key the request carries (Authorization, which a browser never adds to a cross-site
 * form or a simple request). Only below this path, and only without an Origin.
 */
export const API_PREFIX = '/api/v1/'

export function isApiRequest(method: string, path: string, origin: string | undefined) {
  return (
    ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method.toUpperCase()) &&
    path.startsWith(API_PREFIX) &&
    origin === undefined
  )
}
