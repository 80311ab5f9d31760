// Where an organization's legal and support links live: the `legal` key of its
// organization_settings preferences (no migration; the platform organization's row holds the
// platform's defaults, which the super admin edits in System Settings).
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import {
  type LegalLinks,
  StoredGetYourOwnCardUrlSchema,
  StoredLegalSchema,
} from '#app/validation/legal'
import type { Queryable } from '#drizzle/db.server'

/** Runs inside withTenant for the organization: organization_settings is a tenant table. */
export async function readLegalLinks(db: Queryable, organizationId: string): Promise<LegalLinks> {
  const preferences = await getOrganizationPreferences(db, organizationId)
  return StoredLegalSchema.parse(preferences.legal ?? {})
}

export async function saveLegalLinks(db: Queryable, organizationId: string, legal: LegalLinks) {
  await saveOrganizationPreferences(db, organizationId, { legal })
}

/**
 * The agency's address for the card page footer's "Get your own card" (ADR 083), '' when it
 * chose none: the `cardPage` key of the same preferences, beside the legal links it is edited with.
 */
export async function readGetYourOwnCardUrl(db: Queryable, organizationId: string) {
  const preferences = await getOrganizationPreferences(db, organizationId)
  const cardPage = preferences.cardPage as { getYourOwnCardUrl?: unknown } | undefined
  return StoredGetYourOwnCardUrlSchema.parse(cardPage?.getYourOwnCardUrl ?? '')
}

export async function saveGetYourOwnCardUrl(db: Queryable, organizationId: string, url: string) {
  await saveOrganizationPreferences(db, organizationId, { cardPage: { getYourOwnCardUrl: url } })
}
