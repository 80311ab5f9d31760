// Which languages a host speaks to visitors (ADR 105): the `languages` key of the
// organization's organization_settings preferences (no migration, like the legal links, ADR
// 100). An agency that never chose follows the platform's choice (System Settings); a platform
// that never chose offers every language with English as the default.
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import {
  LANGUAGE_DEFAULTS,
  type LanguageSettings,
  readStoredLanguages,
} from '#app/validation/languages'
import type { Queryable } from '#drizzle/db.server'

/** The organization's own choice, or null when it made none. Inside withTenant for it. */
export async function readLanguageSettings(db: Queryable, organizationId: string) {
  const preferences = await getOrganizationPreferences(db, organizationId)
  return readStoredLanguages(preferences.languages)
}

export async function saveLanguageSettings(
  db: Queryable,
  organizationId: string,
  settings: LanguageSettings,
) {
  await saveOrganizationPreferences(db, organizationId, { languages: settings })
}

/** What a host offers: its own choice, else the platform's, else every language. */
export function languagesFor(
  own: LanguageSettings | null,
  platform: LanguageSettings | null,
): LanguageSettings {
  return own ?? platform ?? LANGUAGE_DEFAULTS
}
