// Host handling. Pure functions: no database, safe to unit test exhaustively.

import { RESERVED_SUBDOMAINS } from '#app/validation/agency-slug'
import { trustedForwardedValue } from '#app/validation/trusted-proxy'

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/

/**
 * Normalises a raw Host header value: lower case, no port, no trailing dot.
 * Returns null for anything that is not a plain host name or address
 * (`new URL('http://' + host)` would accept `evil.test/x` or `user@evil.test`).
 */
export function normalizeHost(raw: string | null | undefined): string | null {
  if (!raw) return null
  let host = raw.trim().toLowerCase()
  if (host.length === 0 || host.length > 260) return null
  if (host.startsWith('[')) {
    // IPv6 literal, optionally with a port: accepted as a host, never a tenant.
    const end = host.indexOf(']')
    if (end < 0) return null
    const rest = host.slice(end + 1)
    if (rest && !/^:\d{1,5}$/.test(rest)) return null
    const address = host.slice(1, end)
    return /^[0-9a-f:.]+$/.test(address) ? `[${address}]` : null
  }
  const colon = host.indexOf(':')
  if (colon >= 0) {
    if (!/^\d{1,5}$/.test(host.slice(colon + 1))) return null
    host = host.slice(0, colon)
  }
  if (host.endsWith('.')) host = host.slice(0, -1)
  if (host.length === 0 || host.length > 253) return null
  const labels = host.split('.')
  if (!labels.every((label) => LABEL.test(label))) return null
  return host
}

export function isIpAddress(host: string): boolean {
  return host.startsWith('[') || IPV4.test(host)
}

export type HostMatch =
  | { kind: 'platform' }
  | { kind: 'subdomain'; slug: string }
  | { kind: 'custom-domain'; domain: string }
  | { kind: 'none' }

/** Maps a normalised host to what it may name, relative to the root domain. */
export function classifyHost(host: string | null, rootDomain: string): HostMatch {
  if (!host || isIpAddress(host)) return { kind: 'none' }
  const root = rootDomain.toLowerCase()
  if (host === root || host === `www.${root}`) return { kind: 'platform' }
  const suffix = `.${root}`
  if (host.endsWith(suffix)) {
    const sub = host.slice(0, -suffix.length)
    // One label only names an agency, and reserved names never do. A deeper name (a.b.root) is
    // never a subdomain; it can only be a verified custom domain, which the Branding form refuses
    // under the root, so only the operator has one: the demo's cards.acme.localhost, which
    // resolves to the machine with no /etc/hosts entry.
    if (sub.includes('.')) return { kind: 'custom-domain', domain: host }
    if (RESERVED_SUBDOMAINS.has(sub)) return { kind: 'none' }
    return { kind: 'subdomain', slug: sub }
  }
  // A custom domain has at least two labels (no bare intranet names).
  if (!host.includes('.')) return { kind: 'none' }
  return { kind: 'custom-domain', domain: host }
}

/**
 * The host of a request as the server saw it. `X-Forwarded-Host` counts only behind trusted
 * proxies (TRUST_PROXY): the entry the outermost one wrote (app/validation/trusted-proxy.ts).
 */
export function requestHost(
  headers: { host?: string | string[]; 'x-forwarded-host'?: string | string[] },
  trustedHops: number,
): string | null {
  const forwarded = trustedForwardedValue(headers['x-forwarded-host'], trustedHops)
  const host = Array.isArray(headers.host) ? headers.host[0] : headers.host
  return normalizeHost(forwarded ?? host?.split(',')[0])
}

/** How a client reached the app: the scheme and port its links must use. */
export type PublicAddress = { scheme: 'http' | 'https'; port: string | null }

/**
 * The scheme and port the client used, as trusted proxies report them (TRUST_PROXY and
 * `X-Forwarded-Proto`, the entry the outermost trusted proxy wrote): a proxy terminating TLS
 * reaches the app over plain http on its own port, so neither the socket nor PORT says how links
 * must start. The port is the one in the client-facing host (the trusted X-Forwarded-Host, else
 * Host, which Caddy passes through), else the scheme's default (null). X-Forwarded-Port is never
 * read: Caddy does not set it, so it would be the client's own word.
 * Null without a trusted proxy's word: links then follow PUBLIC_URL_SCHEME/PORT and their
 * defaults (tenantOrigin).
 */
export function forwardedPublicAddress(
  headers: {
    host?: string | string[]
    'x-forwarded-host'?: string | string[]
    'x-forwarded-proto'?: string | string[]
  },
  trustedHops: number,
): PublicAddress | null {
  const proto = trustedForwardedValue(headers['x-forwarded-proto'], trustedHops)?.toLowerCase()
  if (proto !== 'http' && proto !== 'https') return null
  const defaultPort = proto === 'https' ? '443' : '80'
  const host = Array.isArray(headers.host) ? headers.host[0] : headers.host
  const clientFacing = trustedForwardedValue(headers['x-forwarded-host'], trustedHops) ?? host
  const port = clientFacing?.trim().match(/:(\d{1,5})$/)?.[1]
  return { scheme: proto, port: port && port !== defaultPort ? port : null }
}

/** Whether trusted proxies say the client reached them over TLS. */
export function forwardedProtoIsHttps(
  forwardedProto: string | string[] | undefined,
  trustedHops: number,
): boolean {
  return trustedForwardedValue(forwardedProto, trustedHops)?.toLowerCase() === 'https'
}
