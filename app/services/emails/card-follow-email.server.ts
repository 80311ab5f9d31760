// The emails of "Keep me updated" (ADR 102): the double opt-in's confirmation, and the digest a
// follower gets when the card changes, with the new vCard attached and the one-click way out
// (RFC 8058) in its headers and body.
import { FOLLOW_CONFIRMATION_LINK } from '#app/validation/token-lifetimes'
import type { OutboxAttachment } from '#drizzle/schema'
import { type EmailBranding, renderActionEmail } from './layout.server'

/** The confirmation: nothing else is ever sent to the address before its link is opened. */
export function followConfirmEmail(options: {
  branding: EmailBranding
  to: string
  ownerName: string
  confirmUrl: string
}) {
  const { branding, to, ownerName, confirmUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: `Confirm updates from ${ownerName}`,
    paragraphs: [
      'Hello,',
      `Someone asked, on ${ownerName}'s digital card, to send this address an email when ${ownerName}'s contact details change.`,
      'Confirm with the button below. If it was not you, ignore this email: nothing more will be sent.',
    ],
    action: { label: 'Keep me updated', url: confirmUrl },
    footnote: `The link works for ${FOLLOW_CONFIRMATION_LINK.words}. Every update carries a link to stop them.`,
  })
  return { to, subject: `Confirm updates from ${ownerName}`, html, text }
}

/** One digest of a card's changes: its details as they are now, and its new vCard. */
export function followDigestEmail(options: {
  branding: EmailBranding
  to: string
  ownerName: string
  details: { label: string; value: string }[]
  cardUrl: string
  stopUrl: string
  vcard: OutboxAttachment
}) {
  const { branding, to, ownerName, details, cardUrl, stopUrl, vcard } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: `${ownerName}'s contact details changed`,
    paragraphs: [
      'Hello,',
      `${ownerName} updated their digital card. Their new contact card is attached: open it to update the contact on your device.`,
    ],
    ...(details.length > 0 ? { quoted: { intro: 'Their details now:', rows: details } } : {}),
    action: { label: 'View the card', url: cardUrl },
    footnote: `You receive this email because you asked to be told when ${ownerName}'s card changes. At most one a day.`,
    unsubscribe: { label: 'Stop these updates', url: stopUrl },
  })
  return {
    to,
    subject: `${ownerName}'s contact details changed`,
    html,
    text,
    headers: {
      'List-Unsubscribe': `<${stopUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    attachments: [vcard],
  }
}
