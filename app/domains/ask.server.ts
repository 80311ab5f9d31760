// The TLS proxy's question (Caddy's on-demand TLS `ask`, deploy/Caddyfile): may this host have
// a certificate? Yes exactly when the app would serve it as a site: the root domain, an active
// and approved agency's subdomain, or such an agency's verified custom domain (ADR 016). The
// answer is the tenant resolver's own, from its cache, so it can never disagree with what the
// host then serves, and a change that drops the tenant cache (a domain found misconfigured, an
// agency deactivated) changes it at once.
import { BlockList, isIP } from 'node:net'
import { getEnv } from '#app/env.server'
import { addressLimitKey, assertNotLimited, recordHits } from '#app/rate-limits/rate-limit.server'
import { normalizeHost } from '#app/tenancy/host'
import { cachedTenantResolution, resolveTenant } from '#app/tenancy/tenant.server'

export type AskAnswer = 'allowed' | 'unknown'

/**
 * A bare host name as Caddy sends it (the TLS ClientHello's server name), normalised, or null
 * for anything else: ports, IP literals and paths never get a certificate from us.
 */
export function parseAskedDomain(raw: string | null): string | null {
  if (!raw || raw.includes(':') || raw.includes('[')) return null
  const host = normalizeHost(raw)
  return host && isIP(host) === 0 ? host : null
}

/**
 * Whether the host is served. Only a lookup the cache cannot answer counts against the asking
 * address's limit: a flood of made-up names (anyone can send any SNI) costs the database at
 * most the limit, while the hosts we serve keep answering from memory.
 */
export async function isServedHost(host: string, askerAddress: string): Promise<AskAnswer> {
  const cached = cachedTenantResolution(host)
  if (cached) return cached.status === 'found' ? 'allowed' : 'unknown'
  const limits = [
    { name: 'domainAskIp' as const, key: addressLimitKey('domainAskIp', askerAddress) },
  ]
  await assertNotLimited(limits)
  await recordHits(limits)
  const resolution = await resolveTenant(host)
  return resolution.status === 'found' ? 'allowed' : 'unknown'
}

let allowList: { source: string; list: BlockList | 'anyone' } | undefined

/**
 * Whether a request may ask: its socket peer is in DOMAINS_ASK_ALLOWED_FROM and it was not
 * relayed. The peer of a request a proxy relays for a client is the proxy itself, so an address
 * check alone would let anyone ask through it; the proxy's own ask carries no forwarding headers.
 */
export function mayAsk(peerAddress: string | undefined, relayed: boolean): boolean {
  const source = getEnv().DOMAINS_ASK_ALLOWED_FROM
  if (allowList?.source !== source) allowList = { source, list: buildAllowList(source) }
  if (allowList.list === 'anyone') return true
  if (relayed || !peerAddress) return false
  // A dual-stack socket reports IPv4 peers as IPv4-mapped IPv6 (::ffff:127.0.0.1).
  const address = peerAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
  const family = isIP(address)
  if (!family) return false
  return allowList.list.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

function buildAllowList(source: string): BlockList | 'anyone' {
  if (source === '*') return 'anyone'
  const list = new BlockList()
  for (const entry of source.split(',')) {
    const [address = '', bits] = entry.trim().split('/')
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6'
    if (bits === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(bits), type)
  }
  return list
}
