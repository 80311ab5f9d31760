// The platform settings every request may need (maintenance mode, session timeout), cached in
// process like the tenant lookup: a request pays for the row at most once per TTL, and a save
// drops the cache at once, on this instance directly and on the others through the database's
// change announcements (app/cache/change-feed.server.ts).
import { dropPages } from '#app/cache/page-cache.server'
import { getPlatformSettings, type PlatformSettings } from '#app/models/platform-settings.server'
import { withDatabase } from '#drizzle/db.server'

const TTL_MS = 30_000
let cached: { settings: PlatformSettings; until: number } | null = null
let pending: Promise<PlatformSettings> | null = null

export async function cachedPlatformSettings(): Promise<PlatformSettings> {
  if (cached && cached.until > Date.now()) return cached.settings
  pending ??= withDatabase((tx) => getPlatformSettings(tx))
    .then((settings) => {
      cached = { settings, until: Date.now() + TTL_MS }
      return settings
    })
    .finally(() => {
      pending = null
    })
  return pending
}

export function invalidatePlatformSettings() {
  // Maintenance mode and the platform's name show on every page: none stays cached.
  dropPages('*')
  cached = null
}
