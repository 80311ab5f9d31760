// The card owner's privacy settings (roles-teams-admin.md §2.6) as the card gate
// (card-gate.server.ts) applies them wherever a card leaves the server; who may see a card is
// card-visibility.ts's rule. Nothing but the gate calls these.
// Only a public card may be answered from the page cache: any other answer depends on who asks,
// and a visitor without a session (the only kind the cache serves) never sees one.
import { visibilityVerdict } from '#app/cards/card-visibility'
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
 * Whether the viewer may see the owner's card: the rule is card-visibility.ts's; this runs the
 * lookup it names (a shared team, a contact with the viewer's email). Everyone refused is
 * answered as if there were no card, so nothing of it leaks.
 */
export async function mayViewCard(
  db: Queryable,
  organizationId: string,
  ownerId: string,
  privacy: PrivacySettings,
  viewer: CardViewer,
) {
  const verdict = visibilityVerdict(
    privacy.visibility,
    viewer && { isOwner: viewer.id === ownerId, emailConfirmed: Boolean(viewer.emailConfirmedAt) },
  )
  if (typeof verdict === 'boolean' || !viewer) return verdict === true
  if (verdict === 'if-teammate') return sharesTeam(db, organizationId, ownerId, viewer.id)
  return (await findContactByEmail(db, organizationId, ownerId, viewer.email)) !== undefined
}

/**
 * The card's contact fields with the email and phones the owner chose not to show blanked. "Show
 * phone" covers both phones (issue 28); the bio, pronouns and address have no switch of their own
 * and follow the card's visibility alone.
 */
export function withPrivacy<
  T extends { email: string; workEmail: string; phoneNumber: string; phone2: string },
>(card: T, privacy: PrivacySettings): T {
  return {
    ...card,
    ...(privacy.showEmail ? {} : { email: '', workEmail: '' }),
    ...(privacy.showPhone ? {} : { phoneNumber: '', phone2: '' }),
  }
}

/** The card's links as shown: a WhatsApp link is a phone number, so "show phone" covers it too. */
export function visibleLinks<T extends { kind: string }>(
  links: T[],
  privacy: PrivacySettings,
): T[] {
  return privacy.showPhone ? links : links.filter((link) => link.kind !== 'whatsapp')
}
