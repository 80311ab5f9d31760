// "Delete my account" (issue 31 point 4, ADR 053): the grace period, the form and the words the
// screen, the action, the emails and the tests share.
import { z } from 'zod'
import { longDate } from './dates'
import { typedPasswordField } from './passwords'

/** Days between the request and the deletion; the person may keep the account meanwhile. */
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
  `Your account will be deleted on ${deletionDay(date)}. Sign in before then to download your data or keep your account.`
export const DELETION_CANCELLED = 'Your account deletion was cancelled'
/** The banner of a signed-in person whose deletion is scheduled (ADR 081). */
export const DELETION_PENDING = (date: Date) =>
  `Your account will be deleted on ${deletionDay(date)}.`
export const KEEP_ACCOUNT = 'Keep my account'

export const DeleteAccountSchema = z.object({
  password: typedPasswordField(PASSWORD_REQUIRED),
})

/** "Keep my account": where the banner was, to go back to (checked as a local path). */
export const KeepAccountSchema = z.object({
  redirectTo: z.string().max(2000).optional(),
})

/**
 * The toast of a completed sign-in: "signed in", or the deletion still scheduled (ADR 081: the
 * sign-in no longer cancels it; the banner offers to).
 */
export function signedInToast(completion: { deletionPending: Date | string | null }) {
  return completion.deletionPending
    ? {
        toast: DELETION_PENDING(new Date(completion.deletionPending)),
        description: `It stays scheduled: download your data first if you want it, or choose ${KEEP_ACCOUNT} in the banner.`,
        type: 'info' as const,
      }
    : { toast: 'Signed in successfully!' }
}
