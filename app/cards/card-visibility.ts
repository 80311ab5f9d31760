// Who may see a card (roles-teams-admin.md §2.6 visibility): the rule's one home. The card gate
// (card-gate.server.ts, through card-privacy.server.ts) applies it on every surface that shows
// or encodes a card, and the page cache's "public" comes from it too. It needs no database: where
// the answer depends on the owner's teams or contacts it names the lookup, and the gate runs it.
import type { Visibility } from '#app/validation/settings'

/** Who asks, as the rule sees them: signed out (null), or signed in and whether they own the card. */
export type CardViewerRelation = { isOwner: boolean; emailConfirmed: boolean } | null

/**
 * Shown or not when the visibility decides alone; otherwise the lookup that decides:
 * 'if-teammate' (the viewer shares one of the owner's teams), 'if-contact' (the viewer's
 * account email is in the owner's contacts).
 */
export type VisibilityVerdict = boolean | 'if-teammate' | 'if-contact'

/**
 * A card anyone with its link may see. Only such a card may be offered to the page cache or any
 * shared cache: every other answer depends on who asks.
 */
export function isPublicCard(visibility: Visibility) {
  return visibility === 'public'
}

/**
 * 'public': anyone with the link. 'team': the owner and signed-in people who share one of the
 * owner's teams. 'contacts': the owner and signed-in people whose account email is in the
 * owner's contacts; the email must be confirmed, since anyone can sign up with an address they
 * do not own. 'private': the owner only. Everyone else is answered as if there were no card.
 */
export function visibilityVerdict(
  visibility: Visibility,
  viewer: CardViewerRelation,
): VisibilityVerdict {
  if (isPublicCard(visibility)) return true
  if (!viewer) return false
  if (viewer.isOwner) return true
  switch (visibility) {
    case 'team':
      return 'if-teammate'
    case 'contacts':
      return viewer.emailConfirmed ? 'if-contact' : false
    default:
      return false
  }
}
