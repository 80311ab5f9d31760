import { type EmailBranding, renderActionEmail } from './layout.server'

/**
 * Sent to a visitor who left their details on a card with the agency's consent box ticked
 * (ADR 050): what they agreed to, and the link to see or delete what is stored about them.
 */
export function leadReceiptEmail(options: {
  branding: EmailBranding
  to: string
  leadName: string
  ownerName: string
  consentText: string
  consentVersion: number
  givenAt: Date
  dataUrl: string
}) {
  const { branding, to, leadName, ownerName, consentText, consentVersion, givenAt, dataUrl } =
    options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Your details were shared',
    paragraphs: [
      // The name is the visitor's own words, and this email may reach any address they typed:
      // it is quoted below as what was entered, never part of the agency's greeting.
      'Hello,',
      `You shared your details with ${ownerName} on ${givenAt.toUTCString()} and agreed to this (version ${consentVersion}):`,
      consentText,
      'You can see what is stored about you, or delete it, at any time with the link below.',
    ],
    ...(leadName
      ? {
          quoted: {
            intro: 'The name entered with these details, as it was typed:',
            rows: [{ label: 'Name', value: leadName }],
          },
        }
      : {}),
    action: { label: 'See or delete your data', url: dataUrl },
    footnote:
      'You receive this email once, as a receipt of your consent. Keep it: the link is the way to your data.',
  })
  return { to, subject: `Your details were shared with ${ownerName}`, html, text }
}
