// TXT lookups for custom domain verification through node:dns. DNS_RESOLVER points them at a
// chosen server (tests run a local one); unset, the system's resolvers answer.
import { Resolver } from 'node:dns/promises'
import { getEnv } from '#app/env.server'
import { callOutside, OutsideCallError } from '#app/utils/outside-call.server'

/** The DNS server could not answer (timeout, refused, server failure): try again later. */
export class DnsLookupError extends Error {}

// "No such record" answers: the record is simply not there (yet).
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN'])

function resolver(): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  const server = getEnv().DNS_RESOLVER
  if (server) resolver.setServers([server])
  return resolver
}

/**
 * The TXT records at `name`, each record's chunks joined (a long value arrives as several
 * strings of at most 255 bytes). An absent name or record is an empty list, not an error.
 */
export async function lookupTxt(name: string): Promise<string[]> {
  try {
    // Its own retries (3 s, twice) are bounded by the outside-call deadline, and shutdown
    // cancels the lookup like any other outside call.
    const records = await callOutside('DNS', (signal) => {
      const lookup = resolver()
      signal.addEventListener('abort', () => lookup.cancel(), { once: true })
      return lookup.resolveTxt(name)
    })
    return records.map((chunks) => chunks.join(''))
  } catch (error) {
    if (error instanceof OutsideCallError) throw new DnsLookupError(error.message)
    const code = (error as NodeJS.ErrnoException).code ?? ''
    if (ABSENT.has(code)) return []
    throw new DnsLookupError(code || 'DNS lookup failed')
  }
}
