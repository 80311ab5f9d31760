// The background re-check of custom domains: every DOMAIN_RECHECK_SECONDS the oldest-checked
// domains are looked up again, so a removed record turns a verified domain misconfigured.
import { getEnv } from '#app/env.server'
import { recheckOldestDomains } from './custom-domain-verification.server'

let timer: NodeJS.Timeout | undefined

export function startDomainRecheck(log: (message: string) => void) {
  const seconds = getEnv().DOMAIN_RECHECK_SECONDS
  if (seconds === 0 || timer) return
  let running = false
  timer = setInterval(async () => {
    // A slow DNS server must not pile passes on top of each other.
    if (running) return
    running = true
    try {
      await recheckOldestDomains()
    } catch (error) {
      log(`custom domain re-check failed: ${error instanceof Error ? error.message : error}`)
    } finally {
      running = false
    }
  }, seconds * 1000)
  timer.unref()
}

export function stopDomainRecheck() {
  clearInterval(timer)
  timer = undefined
}
