// Where an organization's legal and support links live: the `legal` key of its
// organization_settings preferences (no migration; the platform organization's row holds the
// platform's defaults, which the super admin edits in System Settings).
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import { type LegalLinks, StoredLegalSchema } from '#app/validation/legal'
import type { Queryable } from '#drizzle/db.server'

/** Runs inside withTenant for the organization: organization_settings is a tenant table. */
export async function readLegalLinks(db: Queryable, organizationId: string): Promise<LegalLinks> {
  const preferences = await getOrganizationPreferences(db, organizationId)
  return StoredLegalSchema.parse(preferences.legal ?? {})
}

export async function saveLegalLinks(db: Queryable, organizationId: string, legal: LegalLinks) {
  await saveOrganizationPreferences(db, organizationId, { legal })
}
