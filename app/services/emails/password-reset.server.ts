import { PASSWORD_RESET_LINK } from '#app/validation/token-lifetimes'
import { type EmailBranding, renderActionEmail } from './layout.server'

export function passwordResetEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  resetUrl: string
}) {
  const { branding, to, firstName, resetUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Reset your password',
    paragraphs: [
      `Hi ${firstName || 'there'},`,
      `We received a request to reset the password of your ${branding.name} account. The link below works once and expires in ${PASSWORD_RESET_LINK.words}.`,
    ],
    action: { label: 'Reset password', url: resetUrl },
    footnote:
      "If you didn't ask for this, you can ignore this email: your password stays the same.",
  })
  return { to, subject: `Reset your ${branding.name} password`, html, text }
}
