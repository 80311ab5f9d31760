// The platform settings every request may need (maintenance mode, session timeout), cached in
// process like the tenant lookup: a request pays for the row at most once per TTL, and a save
// drops the cache at once, on this instance directly and on the others through the database's
// change announcements (app/tenancy/change-feed.server.ts).
import { dropPages } from '#app/cache/page-cache.server'
import { getEnv } from '#app/env.server'
import { getPlatformSettings, type PlatformSettings } from '#app/models/platform-settings.server'
import { withDatabase } from '#drizzle/db.server'
import { isOutage } from '#drizzle/unavailable.server'

let cached: { settings: PlatformSettings; until: number } | null = null
let pending: Promise<PlatformSettings> | null = null

/**
 * The settings, read again once TENANT_CACHE_TTL_MS has passed. While the database cannot be
 * reached the last ones read keep serving, however old: every request reads them (maintenance
 * mode, session timeout), and an outage must not turn each into a failure (ADR 032).
 */
export async function cachedPlatformSettings(): Promise<PlatformSettings> {
  if (cached && cached.until > Date.now()) return cached.settings
  const stale = cached
  pending ??= withDatabase((tx) => getPlatformSettings(tx))
    .then((settings) => {
      cached = { settings, until: Date.now() + getEnv().TENANT_CACHE_TTL_MS }
      return settings
    })
    .finally(() => {
      pending = null
    })
  try {
    return await pending
  } catch (error) {
    if (stale && isOutage(error)) return stale.settings
    throw error
  }
}

export function invalidatePlatformSettings() {
  // Maintenance mode and the platform's name show on every page: none stays cached.
  dropPages('*')
  cached = null
}
