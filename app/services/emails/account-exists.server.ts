import { type EmailRecipient, personalEmail } from './layout.server'

/**
 * Sent instead of an answer when someone signs up with an email that has an account here: the
 * sign-up form answers the same for every email, so only the owner learns of it.
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
      `Someone, hopefully you, tried to create a new ${branding.name} account with this email address. An account with this email already exists. Please sign in instead.`,
      `Forgot your password? You can reset it at ${resetUrl}`,
    ],
    action: { label: 'Sign in', url: signInUrl },
    footnote: "If this wasn't you, you can ignore this email: nothing was changed.",
  })
}
