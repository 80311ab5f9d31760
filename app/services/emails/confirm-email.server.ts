import { EMAIL_CONFIRMATION_LINK } from '#app/validation/token-lifetimes'
import { type EmailRecipient, personalEmail } from './layout.server'

/** Sent after sign-up, on a resend and to the new address after an email change. */
export function confirmEmailEmail(
  options: EmailRecipient & {
    confirmUrl: string
  },
) {
  const { branding, to, confirmUrl } = options
  return personalEmail(options, {
    subject: `Confirm your email for ${branding.name}`,
    heading: 'Confirm your email address',
    paragraphs: [
      `Please confirm that ${to} is the email address of your ${branding.name} account. The link below works once and expires in ${EMAIL_CONFIRMATION_LINK.words}.`,
    ],
    action: { label: 'Confirm email', url: confirmUrl },
    footnote:
      "If you didn't create an account or change your email, you can ignore this email: nothing is confirmed without the link.",
  })
}
