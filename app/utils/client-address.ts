import { isIP } from 'node:net'

import { trustedForwardedValue } from '#app/validation/trusted-proxy'

// The client's address, the one rule for rate limits and view counting: the socket's, or behind
// `trustedHops` trusted proxies (TRUST_PROXY) the X-Forwarded-For entry the outermost of them
// appended (app/validation/trusted-proxy.ts), as Express's req.ip reads it with 'trust proxy' = hops.
export function clientAddress(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  trustedHops: number,
): string {
  return trustedForwardedValue(forwardedFor, trustedHops) || socketAddress || 'unknown'
}

/**
 * What a per-address limit counts: an IPv4 address, or an IPv6 client's /64. One IPv6 host is
 * usually given a whole /64 (SLAAC, RFC 7421) and can pick any of its 2^64 addresses, so counting
 * full addresses would let it never meet a limit. IPv4-mapped IPv6 (a dual-stack socket's
 * `::ffff:192.0.2.1`) counts as the IPv4 address; anything unparseable counts as itself.
 */
export function addressBucket(address: string): string {
  const bare = address.trim().toLowerCase().replace(/%.*$/, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1]
  if (mapped && isIP(mapped) === 4) return mapped
  if (isIP(bare) !== 6) return address
  const groups = ipv6Groups(bare)
  return `${groups.slice(0, 4).join(':')}::/64`
}

/** The eight 16-bit groups of a valid IPv6 address, without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address
  // A trailing dotted quad (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const missing = tail === undefined ? 0 : 8 - left.length - right.length
  return [...left, ...Array(missing).fill('0'), ...right].map((group) =>
    Number.parseInt(group, 16).toString(16),
  )
}
