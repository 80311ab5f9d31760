// The background re-check of custom domains: at start and then every DOMAIN_RECHECK_SECONDS,
// every domain not checked within that time is looked up again, so a removed record turns a
// verified domain misconfigured and Domain Settings' "Last checked" is never older than one
// interval (issue 41 point 17: the demo showed the seed's date until an hour after start).
import { getEnv } from '#app/env.server'
import { recheckDueDomains } from './custom-domain-verification.server'

let timer: NodeJS.Timeout | undefined
let firstPass: NodeJS.Timeout | undefined

export function startDomainRecheck(log: (message: string) => void) {
  const seconds = getEnv().DOMAIN_RECHECK_SECONDS
  if (seconds === 0 || timer) return
  let running = false
  const pass = async () => {
    // A slow DNS server must not pile passes on top of each other.
    if (running) return
    running = true
    try {
      await recheckDueDomains(new Date(Date.now() - seconds * 1000))
    } catch (error) {
      log(`custom domain re-check failed: ${error instanceof Error ? error.message : error}`)
    } finally {
      running = false
    }
  }
  timer = setInterval(pass, seconds * 1000)
  timer.unref()
  // The first pass once the server is up: a domain last checked before a restart (or seeded)
  // is current within seconds, not an interval later.
  firstPass = setTimeout(pass, 1000)
  firstPass.unref()
}

export function stopDomainRecheck() {
  clearInterval(timer)
  clearTimeout(firstPass)
  timer = undefined
  firstPass = undefined
}
