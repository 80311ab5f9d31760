// The card owner's privacy settings (roles-teams-admin.md §2.6): the rules the card gate
// (card-gate.server.ts) applies wherever a card leaves the server. Nothing else calls them.
// Only a public card may be answered from the page cache: any other answer depends on who asks,
// and a visitor without a session (the only kind the cache serves) never sees one.
import { findContactByEmail } from '#app/models/contacts.server'
import { sharesTeam } from '#app/models/teams.server'
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

/** Who is asking: the signed-in user of this tenant (sessions never cross tenants), or nobody. */
export type CardViewer = { id: string; email: string; emailConfirmedAt: Date | null } | null

/**
 * Whether the viewer may see the owner's card (§2.6 visibility). 'public': anyone with the link.
 * 'team': the owner and signed-in people who share one of the owner's teams. 'contacts': the
 * owner and signed-in people whose account email is in the owner's contacts; the email must be
 * confirmed, since anyone can sign up with an address they do not own. 'private': the owner
 * only. Everyone else is answered as if there were no card, so nothing of it leaks.
 */
export async function mayViewCard(
  db: Queryable,
  organizationId: string,
  ownerId: string,
  privacy: PrivacySettings,
  viewer: CardViewer,
) {
  if (privacy.visibility === 'public') return true
  if (!viewer) return false
  if (viewer.id === ownerId) return true
  switch (privacy.visibility) {
    case 'team':
      return sharesTeam(db, organizationId, ownerId, viewer.id)
    case 'contacts':
      if (!viewer.emailConfirmedAt) return false
      return (await findContactByEmail(db, organizationId, ownerId, viewer.email)) !== undefined
    default:
      return false
  }
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
