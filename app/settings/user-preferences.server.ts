// A person's stored privacy and appearance choices, read back through their `Stored*` schemas:
// the settings pages show them, and every page's root loader applies the appearance.
import { getUserPreferences } from '#app/models/user-settings.server'
import { StoredAppearanceSchema, StoredPrivacySchema } from '#app/validation/settings'
import type { Transaction } from '#drizzle/db.server'

export async function readPrivacy(tx: Transaction, organizationId: string, userId: string) {
  const stored = await getUserPreferences(tx, organizationId, userId)
  return StoredPrivacySchema.parse(stored.privacy ?? {})
}

export async function readAppearance(tx: Transaction, organizationId: string, userId: string) {
  return appearanceOf(await getUserPreferences(tx, organizationId, userId))
}

/** The appearance within preferences already read (the session's frame carries them). */
export function appearanceOf(stored: Record<string, unknown>) {
  return StoredAppearanceSchema.parse(stored.appearance ?? {})
}
