// Saving which languages a host's visitor pages speak (ADR 105): an agency on its Branding
// screen, the super admin for the platform (and every agency that never chose) in System
// Settings. Audited like the other settings; the cached tenants and pages drop at once.
import type { SignedIn } from '#app/auth/guards.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import { readLanguageSettings, saveLanguageSettings } from '#app/tenancy/languages.server'
import { clearTenantCache, invalidateTenant } from '#app/tenancy/tenant.server'
import { LANGUAGES_SAVED, type LanguageSettings } from '#app/validation/languages'
import { withTenant } from '#drizzle/db.server'

export async function saveHostLanguages(
  { tenant, user }: SignedIn,
  value: LanguageSettings,
): Promise<string> {
  const settings = { defaultLanguage: value.defaultLanguage, languages: value.languages }
  await withTenant(tenant.id, async (tx) => {
    const before = await readLanguageSettings(tx, tenant.id)
    await saveLanguageSettings(tx, tenant.id, settings)
    await recordOrganizationAudit(tx, tenant.id, user.id, 'languages.updated', {
      from: before,
      to: settings,
    })
  })
  // The platform's choice is every undecided agency's too: all cached tenants go.
  if (tenant.kind === 'platform') clearTenantCache()
  else invalidateTenant(tenant.id)
  return LANGUAGES_SAVED
}
