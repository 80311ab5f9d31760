import { eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { organizationSettings } from '#drizzle/schema'

export async function getOrganizationPreferences(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({ preferences: organizationSettings.preferences })
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, organizationId))
  return row?.preferences ?? {}
}

/** Merges the given keys into the organization's preferences (validated by the caller's schema). */
export async function saveOrganizationPreferences(
  db: Queryable,
  organizationId: string,
  values: Record<string, unknown>,
) {
  const preferences = { ...(await getOrganizationPreferences(db, organizationId)), ...values }
  await db
    .insert(organizationSettings)
    .values({ organizationId, preferences })
    .onConflictDoUpdate({
      target: organizationSettings.organizationId,
      set: { preferences, updatedAt: new Date() },
    })
}
