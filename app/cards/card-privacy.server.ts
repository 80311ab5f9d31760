// The card owner's privacy settings (roles-teams-admin.md §2.6) applied wherever a card leaves
// the server for someone else: the public page, its vCard and "save contact".
import { getUserPreferences } from '#app/models/user-settings.server'
import { type PrivacySettings, StoredPrivacySchema } from '#app/validation/settings'
import type { Queryable } from '#drizzle/db.server'

export async function getOwnerPrivacy(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<PrivacySettings> {
  const stored = await getUserPreferences(db, organizationId, userId)
  return StoredPrivacySchema.parse(stored.privacy ?? {})
}

/**
 * 'private' hides the card from everyone but its owner. 'contacts' and 'team' still show it:
 * the public link is how a card reaches contacts, and there is no visitor list to check yet.
 */
export function hiddenFromVisitor(privacy: PrivacySettings, isOwner: boolean) {
  return privacy.visibility === 'private' && !isOwner
}

/** The card's contact fields with the email and phone the owner chose not to show blanked. */
export function withPrivacy<T extends { email: string; workEmail: string; phoneNumber: string }>(
  card: T,
  privacy: PrivacySettings,
): T {
  return {
    ...card,
    ...(privacy.showEmail ? {} : { email: '', workEmail: '' }),
    ...(privacy.showPhone ? {} : { phoneNumber: '' }),
  }
}
