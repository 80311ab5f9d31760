import { linkWorksOnce, SET_PASSWORD_LINK } from '#app/validation/token-lifetimes'
import { type EmailRecipient, personalEmail } from './layout.server'

/** To someone whose account another person created: set a password to sign in. */
export function accountCreatedEmail(
  options: EmailRecipient & {
    createdBy: string
    setPasswordUrl: string
  },
) {
  const { branding, to, createdBy, setPasswordUrl } = options
  return personalEmail(options, {
    subject: `Your ${branding.name} account is ready`,
    heading: 'Your account is ready',
    paragraphs: [
      `${createdBy} created a ${branding.name} account for you (${to}). Choose a password to sign in and build your digital business card.`,
    ],
    action: { label: 'Set your password', url: setPasswordUrl },
    footnote: `${linkWorksOnce(SET_PASSWORD_LINK)} After that, use "Forgot password" on the sign-in page.`,
  })
}
