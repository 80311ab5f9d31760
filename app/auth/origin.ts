/**
 * CSRF defence for state-changing requests: the browser's Origin must be this very host.
 * SameSite=Lax is not enough, because sibling tenant subdomains are the same site.
 * Requests without an Origin are refused too (browsers send one on every POST).
 */
export function isSameOriginMutation(
  method: string,
  origin: string | undefined,
  rawHost: string | undefined,
) {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return true
  if (!origin || !rawHost || origin === 'null') return false
  try {
    return new URL(origin).host === rawHost.trim().toLowerCase()
  } catch {
    return false
  }
}
