import { TWO_FACTOR_ENROLMENT_LINK } from '#app/validation/token-lifetimes'
import { type EmailRecipient, personalEmail } from './layout.server'

/**
 * Sent when a sign-in must set up a first second factor (ADR 054): the link lets the session
 * that asked do it, so a password alone never picks the second factor.
 */
export function twoFactorEnrolmentEmail(
  options: EmailRecipient & {
    confirmUrl: string
  },
) {
  const { branding, confirmUrl } = options
  return personalEmail(options, {
    subject: `Set up two-factor authentication for ${branding.name}`,
    heading: 'Set up two-factor authentication',
    paragraphs: [
      `Someone signed in to your ${branding.name} account with your password and is about to set up its two-factor authentication. If that is you, open the link below in the browser where you signed in. It works once and expires in ${TWO_FACTOR_ENROLMENT_LINK.words}.`,
    ],
    action: { label: 'Continue the set-up', url: confirmUrl },
    footnote:
      "If this wasn't you, don't open the link and change your password: without it, no second factor can be set up.",
  })
}
