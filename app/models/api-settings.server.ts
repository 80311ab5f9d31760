// A user's CRM settings (spec: api_settings, scoped to the user). The key is stored sealed
// (app/utils/secret-box.server.ts); only its last four characters are ever read back out.
import { and, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { apiSettings } from '#drizzle/schema'

export type ApiSettingsRow = typeof apiSettings.$inferSelect

const owned = (organizationId: string, userId: string) =>
  and(eq(apiSettings.organizationId, organizationId), eq(apiSettings.userId, userId))

export async function findApiSettings(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db.select().from(apiSettings).where(owned(organizationId, userId))
  return row
}

export type ApiSettingsChange = {
  sealedKey: string | null
  keyLast4: string | null
  locationId: string | null
  enabled: boolean
  validatedAt: Date | null
}

export async function saveApiSettings(
  db: Queryable,
  organizationId: string,
  userId: string,
  change: ApiSettingsChange,
) {
  const values = {
    gohighlevelApiKeyEncrypted: change.sealedKey,
    gohighlevelApiKeyLast4: change.keyLast4,
    gohighlevelLocationId: change.locationId,
    enabled: change.enabled,
    validatedAt: change.validatedAt,
    updatedAt: new Date(),
  }
  await db
    .insert(apiSettings)
    .values({ organizationId, userId, ...values })
    .onConflictDoUpdate({ target: [apiSettings.organizationId, apiSettings.userId], set: values })
}

/** Only the switch: the stored key stays as it is. */
export async function setCrmEnabled(
  db: Queryable,
  organizationId: string,
  userId: string,
  enabled: boolean,
) {
  await db
    .update(apiSettings)
    .set({ enabled, updatedAt: new Date() })
    .where(owned(organizationId, userId))
}
