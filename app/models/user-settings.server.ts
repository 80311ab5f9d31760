import { and, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { userSettings } from '#drizzle/schema'

export async function getUserPreferences(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select({ preferences: userSettings.preferences })
    .from(userSettings)
    .where(and(eq(userSettings.organizationId, organizationId), eq(userSettings.userId, userId)))
  return row?.preferences ?? {}
}

/** Merges one key into the user's preferences (values are validated by the caller's schema). */
export async function setUserPreference(
  db: Queryable,
  organizationId: string,
  userId: string,
  key: string,
  value: unknown,
) {
  const current = await getUserPreferences(db, organizationId, userId)
  const preferences = { ...current, [key]: value }
  if (value === undefined) delete preferences[key]
  await db
    .insert(userSettings)
    .values({ organizationId, userId, preferences })
    .onConflictDoUpdate({
      target: [userSettings.organizationId, userSettings.userId],
      set: { preferences, updatedAt: new Date() },
    })
}
