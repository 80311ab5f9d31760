import { ACCOUNT_EXISTS_MESSAGE } from '#app/validation/auth'
import { type EmailRecipient, personalEmail } from './layout.server'

/**
 * Sent when someone signs up with an email that has an account here: the form tells them to sign
 * in, and the owner learns of the attempt, which may not have been theirs.
 */
export function accountExistsEmail(
  options: EmailRecipient & {
    signInUrl: string
    resetUrl: string
  },
) {
  const { branding, signInUrl, resetUrl } = options
  return personalEmail(options, {
    subject: `Your ${branding.name} account`,
    heading: 'Someone tried to sign up with your email',
    paragraphs: [
      `Someone, hopefully you, tried to create a new ${branding.name} account with this email address. ${ACCOUNT_EXISTS_MESSAGE}`,
      `Forgot your password? You can reset it at ${resetUrl}`,
    ],
    action: { label: 'Sign in', url: signInUrl },
    footnote: "If this wasn't you, you can ignore this email: nothing was changed.",
  })
}
