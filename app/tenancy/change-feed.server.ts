// The database's change announcements (migration 0008) applied to this process's caches: the
// page caches, the tenant lookup and the platform settings. Every process listens, so an edit,
// a branding change or a deactivated agency saved through one is seen by all (ADR 021).
import { dropPages } from '#app/cache/page-cache.server'
import {
  forgetAllSessions,
  forgetPersonSessions,
  setSessionMemory,
} from '#app/cache/session-cache.server'
import { retireSignedInPages } from '#app/cache/signed-in-page-cache.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { clearTenantCache, invalidateTenant } from '#app/tenancy/tenant.server'
import { getDatabaseHandle } from '#drizzle/db.server'

export const CHANGE_CHANNEL = 'brandcard_changes'
const PERSON_PREFIX = 'user:'

/**
 * Drops what this process cached about an organization ('*': about every one), or, for a
 * person's data version (`user:{organization}:{user}`, migration 0055), their sessions.
 */
export function applyChange(payload: string) {
  if (payload.startsWith(PERSON_PREFIX)) {
    const [organizationId = '', userId = ''] = payload.slice(PERSON_PREFIX.length).split(':')
    forgetPersonSessions(organizationId, userId)
    return
  }
  dropPages(payload)
  retireSignedInPages(payload)
  if (payload === '*') {
    forgetAllSessions()
    clearTenantCache()
    invalidatePlatformSettings()
  } else {
    invalidateTenant(payload)
  }
}

let stop: (() => Promise<void>) | null = null

export async function startChangeFeed(log: (message: string) => void) {
  stop = await getDatabaseHandle().listen(CHANGE_CHANNEL, applyChange, () => {
    // (Re)connected: whatever was announced while away is unknown, so nothing cached is kept.
    applyChange('*')
  })
  // Sessions are remembered only while their changes are heard (app/cache/session-cache.server.ts).
  setSessionMemory(true)
  log('listening for changes')
}

export async function stopChangeFeed() {
  const unlisten = stop
  stop = null
  setSessionMemory(false)
  await unlisten?.().catch(() => {})
}
