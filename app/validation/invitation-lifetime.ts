// How long a team invitation stays valid (roles-teams-admin.md §7 "expires_at 7 days ahead",
// §9 "Invitation validity: 7 days"): the number and every text derived from it, one home for
// the model that stores expires_at, the email and the screens.

export const INVITATION_LIFETIME_DAYS = 7
export const INVITATION_TTL_MS = INVITATION_LIFETIME_DAYS * 24 * 60 * 60 * 1000

const days = `${INVITATION_LIFETIME_DAYS} days`

/** The expired-invitation screen's description. */
export const INVITATIONS_VALID_FOR = `Invitations are valid for ${days}.`
/** The invite dialog's description: everyone is invited and joins by accepting (ADR 058). */
export const INVITE_DIALOG_DESCRIPTION = `Everyone gets an email invitation valid for ${days} and joins when they accept it.`
/** The invitation email's last sentence. */
export const INVITATION_EXPIRES_IN = `The invitation expires in ${days}.`
