// Password lengths, one home (issue 40 point 4): every form that takes a password builds its
// field from here, in the browser (conform) and on the server, so the numbers and their messages
// cannot drift apart. The spec's minima: 6 for an account's own password (sign-in, sign-up,
// reset, change: accounts-cards-sharing.md §5, "Password minimum 6 characters") and 8 for a
// password an admin types for a team member (roles-teams-admin.md §8, "password minimum 8").
// The maximum is ours: argon2 hashes anything, but a megabyte password is an attack, not a
// password.
import { z } from 'zod'

export const PASSWORD_MIN_LENGTH = 6
export const STAFF_PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 200

/**
 * The length messages with their plural (ADR 105: the English catalogue's, which the sign-in
 * pages translate); `{count}` is the number.
 */
export const PASSWORD_TOO_SHORT_MESSAGE = {
  one: 'Password must be at least {count} character',
  other: 'Password must be at least {count} characters',
} as const
export const PASSWORD_TOO_LONG_MESSAGE = {
  one: 'Password must be at most {count} character',
  other: 'Password must be at most {count} characters',
} as const
/** A length message as the schemas write it: `least` or `most`, and the number. */
export const PASSWORD_LENGTH_PATTERN = /^Password must be at (least|most) (\d+) characters$/

export const passwordTooShort = (min: number) =>
  PASSWORD_TOO_SHORT_MESSAGE.other.replace('{count}', String(min))
export const PASSWORD_TOO_SHORT = passwordTooShort(PASSWORD_MIN_LENGTH)
export const STAFF_PASSWORD_TOO_SHORT = passwordTooShort(STAFF_PASSWORD_MIN_LENGTH)
export const PASSWORD_TOO_LONG = PASSWORD_TOO_LONG_MESSAGE.other.replace(
  '{count}',
  String(PASSWORD_MAX_LENGTH),
)
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match'

/**
 * A password being chosen (or, at sign-in, typed against the same rule): at least `min`
 * characters, at most the maximum; an absent field gets the too-short message.
 */
export const passwordField = (min = PASSWORD_MIN_LENGTH) =>
  z
    .string({ error: passwordTooShort(min) })
    .min(min, passwordTooShort(min))
    .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)

/** A team member's password typed by an admin (spec: at least 8). */
export const staffPasswordField = () => passwordField(STAFF_PASSWORD_MIN_LENGTH)

/**
 * A password typed to prove who one is (the current one, a deletion's): any length up to the
 * maximum, `missing` when empty or absent.
 */
export const typedPasswordField = (missing: string) =>
  z.string({ error: missing }).min(1, missing).max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)

/** The second typing of a new password; the form's refine says whether the two match. */
export const confirmPasswordField = () =>
  z.string({ error: PASSWORDS_DO_NOT_MATCH }).max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)
