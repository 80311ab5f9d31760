// "Your data is ready" (issue 31 point 4, ADR 052). The link opens the person's profile, where
// the download is: it grants nothing by itself, downloading needs the owner's session.
import { type EmailBranding, renderActionEmail } from './layout.server'

const day = (date: Date) =>
  date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  })

export function dataExportReadyEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  expiresAt: Date
  profileUrl: string
}) {
  const { branding, to, firstName, expiresAt, profileUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Your data is ready',
    paragraphs: [
      `Hi ${firstName || 'there'},`,
      `The copy of your ${branding.name} data you asked for is ready: your profile, settings, cards, contacts, leads, view counts and activity, with your cards as contact files and your images.`,
      `Sign in and download it from your profile until ${day(expiresAt)}; after that it is deleted.`,
    ],
    action: { label: 'Download my data', url: profileUrl },
    footnote:
      'You receive this email because you asked for a copy of your data. If you did not, change your password.',
  })
  return { to, subject: `Your ${branding.name} data is ready`, html, text }
}
