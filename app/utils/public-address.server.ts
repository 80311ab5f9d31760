// Connections to addresses someone else typed (an identity provider's URL, ADR 091; a webhook
// endpoint, ADR 093) reach public addresses only, so an admin's URL cannot reach the server's own
// network (a cloud metadata service, the database, an admin port).
//
// The check is made on the address the connection actually uses: the dispatcher below resolves
// the name itself and refuses before connecting, so a name that resolves to a public address when
// checked and a private one when fetched (DNS rebinding) is refused too, and so is an address
// literal (no lookup happens for one), on every connection including a redirect's.
//
// Each user of the module says which exceptions it allows (tests' local servers on loopback, a
// development machine's private network) through a policy read at every connection, so a change
// of the environment (tests switching production rules on) applies to the next connection.
import { type LookupAddress, lookup } from 'node:dns'
import ipaddr from 'ipaddr.js'
import type { Agent, buildConnector } from 'undici'

/** Which non-public addresses a user of the module may reach besides public unicast ones. */
export type AddressPolicy = {
  /** This machine's loopback (127.0.0.0/8, ::1). */
  loopback: boolean
  /** Private, link-local, carrier-grade NAT and unique-local ranges (a development network). */
  private: boolean
}

/** The connection was refused before it was made: the name leads into a private network. */
export class PrivateAddressError extends Error {
  constructor(readonly address: string) {
    super(`refused to connect to a non-public address (${address})`)
    this.name = 'PrivateAddressError'
  }
}

const PRIVATE_RANGES = new Set(['private', 'linkLocal', 'carrierGradeNat', 'uniqueLocal'])

/** Whether the server may connect to this IP address under the policy. */
export function isAllowedAddress(address: string, policy: AddressPolicy) {
  if (!ipaddr.isValid(address)) return false
  let ip = ipaddr.parse(address)
  // ::ffff:10.0.0.1 is 10.0.0.1.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address()
  }
  const range = ip.range()
  if (range === 'unicast') return true
  if (range === 'loopback') return policy.loopback
  return policy.private && PRIVATE_RANGES.has(range)
}

/** The hostname as an IP address when the URL names one (IPv6 between brackets), else null. */
export function addressLiteral(hostname: string) {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  return ipaddr.isValid(bare) ? bare : null
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** dns.lookup, answering only when every address the name has is one the policy allows. */
function guardedLookup(policyOf: () => AddressPolicy) {
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: LookupCallback,
  ) => {
    const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : options.family
    lookup(hostname, { family: (family as 0 | 4 | 6) ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const policy = policyOf()
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, policy))
      if (refused) return callback(new PrivateAddressError(refused.address), [])
      if (options.all) return callback(null, addresses)
      const [first] = addresses
      if (!first) return callback(new PrivateAddressError(hostname), [])
      callback(null, first.address, first.family)
    })
  }
}

/**
 * A connection pool (fetch's `dispatcher`) that connects only to addresses the policy allows,
 * checked after resolution on every connection. One per purpose: make it once and keep it.
 * `keepAlive: false` opens a connection (and so checks the address) for every request.
 */
export async function publicAddressDispatcher(
  policyOf: () => AddressPolicy,
  { keepAlive = true }: { keepAlive?: boolean } = {},
): Promise<Agent> {
  // Loaded by the first outside call that needs it, not with the server: otherwise every
  // process would hold the undici package in its heap (ADR 114).
  const { Agent, buildConnector } = await import('undici')
  const connectByName = buildConnector({ lookup: guardedLookup(policyOf) as never })
  const connect: buildConnector.connector = (options, callback) => {
    const literal = addressLiteral(options.hostname)
    if (literal && !isAllowedAddress(literal, policyOf())) {
      return callback(new PrivateAddressError(literal), null)
    }
    return connectByName(options, callback)
  }
  // undici: pipelining 0 closes each connection after its request.
  return new Agent({ connect, ...(keepAlive ? {} : { pipelining: 0 }) })
}

/** Whether a failed fetch was refused by the address check (the cause of fetch's TypeError). */
export function isPrivateAddressRefusal(error: unknown): boolean {
  return privateAddressRefusal(error) !== null
}

/** The refusal behind a failed fetch, if the address check refused it. */
export function privateAddressRefusal(error: unknown): PrivateAddressError | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof PrivateAddressError) return cause
  }
  return null
}
