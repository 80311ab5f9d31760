// The platform settings every request may need (maintenance mode, session timeout), cached in
// process like the tenant lookup: a request pays for the row at most once per TTL, and a save
// on this instance drops the cache at once (other instances follow within the TTL).
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
  cached = null
}
