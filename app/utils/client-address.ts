// The client's address, the one rule for rate limits and view counting: the socket's, or
// behind a trusted proxy (TRUST_PROXY=1) the first X-Forwarded-For entry (the address the
// proxy saw, as Express's req.ip reads it with 'trust proxy' on).
export function clientAddress(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor
  const first = trustProxy ? header?.split(',')[0]?.trim() : undefined
  return first || socketAddress || 'unknown'
}
