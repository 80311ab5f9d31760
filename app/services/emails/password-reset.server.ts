import { PASSWORD_RESET_LINK } from '#app/validation/token-lifetimes'
import { type EmailRecipient, personalEmail } from './layout.server'

export function passwordResetEmail(
  options: EmailRecipient & {
    resetUrl: string
  },
) {
  const { branding, resetUrl } = options
  return personalEmail(options, {
    subject: `Reset your ${branding.name} password`,
    heading: 'Reset your password',
    paragraphs: [
      `We received a request to reset the password of your ${branding.name} account. The link below works once and expires in ${PASSWORD_RESET_LINK.words}.`,
    ],
    action: { label: 'Reset password', url: resetUrl },
    footnote:
      "If you didn't ask for this, you can ignore this email: your password stays the same.",
  })
}
