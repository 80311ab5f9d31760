import { linkWorksOnce, SET_PASSWORD_LINK } from '#app/validation/token-lifetimes'
import { type EmailBranding, renderActionEmail } from './layout.server'

/** To someone whose account another person created: set a password to sign in. */
export function accountCreatedEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  createdBy: string
  setPasswordUrl: string
}) {
  const { branding, to, firstName, createdBy, setPasswordUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Your account is ready',
    paragraphs: [
      `Hi ${firstName || 'there'},`,
      `${createdBy} created a ${branding.name} account for you (${to}). Choose a password to sign in and build your digital business card.`,
    ],
    action: { label: 'Set your password', url: setPasswordUrl },
    footnote: `${linkWorksOnce(SET_PASSWORD_LINK)} After that, use "Forgot password" on the sign-in page.`,
  })
  return { to, subject: `Your ${branding.name} account is ready`, html, text }
}
