import { type EmailRecipient, personalEmail } from './layout.server'

/** Sent to the old address when an account's sign-in email changes. */
export function emailChangedEmail(
  options: EmailRecipient & {
    newEmail: string
    signInUrl: string
  },
) {
  const { branding, to, newEmail, signInUrl } = options
  return personalEmail(options, {
    subject: `Your ${branding.name} email address was changed`,
    heading: 'Your email address was changed',
    paragraphs: [
      `The sign-in email of your ${branding.name} account was changed from ${to} to ${newEmail}. Every other session of your account was signed out.`,
      `If you made this change, there is nothing more to do. If you did not, contact your ${branding.name} administrator right away.`,
    ],
    action: { label: 'Sign in', url: signInUrl },
    footnote:
      'You receive this email at your previous address so that a change you did not make does not go unnoticed.',
  })
}
