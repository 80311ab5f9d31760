// "Your data is ready" (issue 31 point 4, ADR 052). The link opens the person's profile, where
// the download is: it grants nothing by itself, downloading needs the owner's session.
import { longDate } from '#app/validation/dates'
import { type EmailRecipient, personalEmail } from './layout.server'

export function dataExportReadyEmail(
  options: EmailRecipient & {
    expiresAt: Date
    profileUrl: string
  },
) {
  const { branding, expiresAt, profileUrl } = options
  return personalEmail(options, {
    subject: `Your ${branding.name} data is ready`,
    heading: 'Your data is ready',
    paragraphs: [
      `The copy of your ${branding.name} data you asked for is ready: your profile, settings, cards, contacts, leads, view counts and activity, with your cards as contact files and your images.`,
      `Sign in and download it from your profile until ${longDate(expiresAt)}; after that it is deleted.`,
    ],
    action: { label: 'Download my data', url: profileUrl },
    footnote:
      'You receive this email because you asked for a copy of your data. If you did not, change your password.',
  })
}
