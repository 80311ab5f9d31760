// Forms of the email confirmation (issue 12): the link's page and the banner's buttons.
import { z } from 'zod'

export const INVALID_CONFIRMATION_MESSAGE = 'This confirmation link is invalid or has expired.'
export const EMAIL_CONFIRMED_MESSAGE = 'Your email address has been confirmed.'
export const CONFIRMATION_SENT_MESSAGE = 'Confirmation email sent! Please check your email.'
export const ALREADY_CONFIRMED_MESSAGE = 'Your email address is already confirmed.'

// The token is the form's one hidden field: whatever is wrong with it (missing, malformed,
// used up) is refused by the action with one message above the form, which no field shows.
export const ConfirmEmailSchema = z.object({ token: z.string().max(200).catch('') })

export const EmailConfirmationIntentSchema = z.object({
  intent: z.enum(['resend', 'dismiss'], {
    error: 'Unknown request: the intent must be "resend" or "dismiss".',
  }),
  redirectTo: z.string().max(2000, 'The return address is too long.').optional(),
})
