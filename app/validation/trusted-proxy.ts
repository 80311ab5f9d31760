// Which forwarded headers to believe. TRUST_PROXY is the number of proxies in front of the app
// (0 or unset: none, the socket is the client; `1`/`true`: one, e.g. Caddy on the same machine).
// Each proxy appends what it saw to X-Forwarded-For (and to -Host/-Proto when it relays them),
// so only the right-most `hops` entries were written by proxies we trust; whatever is left of
// them is the client's own word (a client can send `X-Forwarded-For: 1.2.3.4` through any proxy
// that appends). Headers no proxy of ours sets are never believed (X-Forwarded-Port: Caddy
// passes a client's through untouched).

export const MAX_TRUSTED_HOPS = 10

/** TRUST_PROXY as a hop count; null for a value that is neither a count nor a boolean word. */
export function parseTrustedHops(value: string | undefined): number | null {
  const text = (value ?? '').trim().toLowerCase()
  if (text === '' || text === 'false') return 0
  if (text === 'true') return 1
  if (!/^\d{1,2}$/.test(text)) return null
  const hops = Number(text)
  return hops <= MAX_TRUSTED_HOPS ? hops : null
}

/**
 * The entry of a forwarded header that the outermost trusted proxy wrote: the `hops`-th from
 * the right. With fewer entries than hops (a request that came through fewer proxies), the
 * left-most, which a trusted proxy wrote too. Undefined without trusted hops or a value.
 */
export function trustedForwardedValue(
  value: string | string[] | undefined,
  hops: number,
): string | undefined {
  if (hops <= 0 || value === undefined) return undefined
  const entries = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length === 0) return undefined
  return entries[Math.max(0, entries.length - hops)]
}
