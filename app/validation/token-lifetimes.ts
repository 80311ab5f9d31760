// How long each emailed link works, one home (issue 40 point 4): the number the model stores as
// the token's expires_at and the words every email and screen says about it come from here, so
// a text cannot promise a lifetime the link does not have. Team invitations have their own home
// (./invitation-lifetime.ts).

type Unit = 'minute' | 'hour' | 'day'
const UNIT_MS: Record<Unit, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }

export type LinkLifetime = {
  /** Milliseconds from the email to the link's expiry. */
  ms: number
  /** The same in words: "7 days", "1 hour". */
  words: string
}

/** A lifetime in whole days, for texts that count it in a language's own plural. */
export const lifetimeDays = (lifetime: LinkLifetime) => Math.round(lifetime.ms / UNIT_MS.day)

/** A lifetime in whole minutes, likewise (the sign-in step's emailed link, ADR 105). */
export const lifetimeMinutes = (lifetime: LinkLifetime) => Math.round(lifetime.ms / UNIT_MS.minute)

const lifetime = (amount: number, unit: Unit): LinkLifetime => ({
  ms: amount * UNIT_MS[unit],
  words: `${amount} ${unit}${amount === 1 ? '' : 's'}`,
})

/**
 * A link to choose one's first password, for an account someone else created (a team member's
 * Add User, an agency's owner, a staff member added without a password): long enough to be read.
 */
export const SET_PASSWORD_LINK = lifetime(7, 'day')
/** "Forgot password": short, since whoever reads the mailbox can use it. */
export const PASSWORD_RESET_LINK = lifetime(1, 'hour')
/** Confirming an email address. */
export const EMAIL_CONFIRMATION_LINK = lifetime(24, 'hour')
/** Confirming "Keep me updated" on a card (ADR 102): a visitor may read it days later. */
export const FOLLOW_CONFIRMATION_LINK = lifetime(7, 'day')
/**
 * Claiming a personal card offered at a seat's hand-over (ADR 103): a departing person reads it
 * in their last days, but their work mailbox may close soon after.
 */
export const PERSONAL_CARD_CLAIM_LINK = lifetime(14, 'day')
/**
 * Editing or removing one's personal card (ADR 106): asked for on the card's page and sent to its
 * personal email, so short, like a password reset.
 */
export const PERSONAL_CARD_MANAGE_LINK = lifetime(1, 'hour')
/** The emailed step before a two-factor enrolment (ADR 054). */
export const TWO_FACTOR_ENROLMENT_LINK = lifetime(30, 'minute')

/** An email's sentence about its single-use link. */
export const linkWorksOnce = (link: LinkLifetime) =>
  `The link works once and expires in ${link.words}.`
