// "Delete my account" (issue 31 point 4, ADR 053): the grace period, the form and the words the
// screen, the action, the emails and the tests share.
import { z } from 'zod'
import { longDate } from './dates'
import { typedPasswordField } from './passwords'

/** Days between the request and the deletion; signing in meanwhile cancels it. */
export const ACCOUNT_DELETION_GRACE_DAYS = 14
const DAY_MS = 86_400_000

/** When a deletion asked for at `now` happens. */
export const deletionDateFrom = (now: Date) =>
  new Date(now.getTime() + ACCOUNT_DELETION_GRACE_DAYS * DAY_MS)

/** A date as the screen and the emails write it (UTC: the job's clock). */
export const deletionDay = longDate

export const PASSWORD_REQUIRED = 'Please enter your password'
export const WRONG_PASSWORD = 'Your password is not right'
export const LAST_SUPER_ADMIN_DELETION =
  'You are the platform’s last super admin. Make another account super admin before deleting yours.'
export const LAST_AGENCY_ADMIN_DELETION =
  'You are this agency’s last admin. Hand the agency over to another agency admin before deleting your account.'
export const DELETION_SCHEDULED = (date: Date) =>
  `Your account will be deleted on ${deletionDay(date)}. Sign in before then to keep it.`
export const DELETION_CANCELLED = 'Your account deletion was cancelled'

export const DeleteAccountSchema = z.object({
  password: typedPasswordField(PASSWORD_REQUIRED),
})

/** The toast of a completed sign-in: "signed in", or the cancelled deletion when there was one. */
export function signedInToast(completion: { deletionCancelled: boolean }) {
  return completion.deletionCancelled
    ? {
        toast: DELETION_CANCELLED,
        description: 'You are signed in, and your account stays as it is.',
      }
    : { toast: 'Signed in successfully!' }
}
