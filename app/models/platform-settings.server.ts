// The one row of platform-wide settings (no organization: it is read by every host).
import { eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { platformSettings } from '#drizzle/schema'

export type PlatformSettings = {
  platformUrl: string
  maintenanceMode: boolean
  sessionTimeoutMinutes: number
  requireTwoFactorForAdmins: boolean
  passwordRotation: boolean
}

export const PLATFORM_DEFAULTS: PlatformSettings = {
  platformUrl: '',
  maintenanceMode: false,
  sessionTimeoutMinutes: 60,
  requireTwoFactorForAdmins: true,
  passwordRotation: false,
}

export async function getPlatformSettings(db: Queryable): Promise<PlatformSettings> {
  const [row] = await db
    .select({
      platformUrl: platformSettings.platformUrl,
      maintenanceMode: platformSettings.maintenanceMode,
      sessionTimeoutMinutes: platformSettings.sessionTimeoutMinutes,
      requireTwoFactorForAdmins: platformSettings.requireTwoFactorForAdmins,
      passwordRotation: platformSettings.passwordRotation,
    })
    .from(platformSettings)
    .where(eq(platformSettings.id, 1))
  return row ?? PLATFORM_DEFAULTS
}

export async function savePlatformSettings(db: Queryable, values: Partial<PlatformSettings>) {
  await db
    .insert(platformSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: platformSettings.id, set: { ...values, updatedAt: new Date() } })
}
