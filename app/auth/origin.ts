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

export function isOneClickUnsubscribe(method: string, path: string, origin: string | undefined) {
  return (
    method.toUpperCase() === 'POST' && path === ONE_CLICK_UNSUBSCRIBE_PATH && origin === undefined
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
