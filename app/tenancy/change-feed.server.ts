// The database's change announcements (migration 0008) applied to this process's caches: the
// page caches, the tenant lookup and the platform settings. Every process listens, so an edit,
// a branding change or a deactivated agency saved through one is seen by all (ADR 021).
import { dropPages } from '#app/cache/page-cache.server'
import { retireSignedInPages } from '#app/cache/signed-in-page-cache.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { clearTenantCache, invalidateTenant } from '#app/tenancy/tenant.server'
import { getDatabaseHandle } from '#drizzle/db.server'

export const CHANGE_CHANNEL = 'brandcard_changes'

/** Drops what this process cached about an organization ('*': about every one). */
export function applyChange(payload: string) {
  dropPages(payload)
  retireSignedInPages(payload)
  if (payload === '*') {
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
  log('listening for changes')
}

export async function stopChangeFeed() {
  const unlisten = stop
  stop = null
  await unlisten?.().catch(() => {})
}
