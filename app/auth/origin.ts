/**
 * CSRF defence for state-changing requests: the browser's Origin must be this very origin,
 * scheme included (an `https://` page must not post to the `http://` site, nor the reverse).
 * SameSite=Lax is not enough, because sibling tenant subdomains are the same site.
 * Requests without an Origin are refused too (browsers send one on every POST).
 */
export function isSameOriginMutation(
  method: string,
  origin: string | undefined,
  rawHost: string | undefined,
  scheme: 'http' | 'https',
) {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return true
  if (!origin || !rawHost || origin === 'null') return false
  try {
    // Both sides through the URL parser: case, default ports (:80, :443) and IDNA folded alike.
    return new URL(origin).origin === new URL(`${scheme}://${rawHost.trim()}`).origin
  } catch {
    return false
  }
}
