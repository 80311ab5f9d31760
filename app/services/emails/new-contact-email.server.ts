import { type EmailBranding, renderActionEmail } from './layout.server'

export type NewContactKind = 'connect' | 'lead'

/**
 * Sent to a card owner when someone connects with them (a signed-in user) or leaves their
 * details on the card (a lead); `kind` picks the wording. Carries the one-click unsubscribe
 * headers (RFC 8058) that large mailbox providers require of notification senders.
 */
export function newContactEmail(options: {
  branding: EmailBranding
  kind: NewContactKind
  to: string
  ownerFirstName: string
  contact: { fullName: string; email: string; company?: string }
  contactsUrl: string
  unsubscribeUrl: string
}) {
  const { branding, kind, to, ownerFirstName, contact, contactsUrl, unsubscribeUrl } = options
  const who = contact.fullName || contact.email || 'Someone'
  const details = [contact.email, contact.company].filter(Boolean).join(', ')
  const named = details ? `${who} (${details})` : who
  const lead = kind === 'lead'
  const { html, text } = renderActionEmail({
    branding,
    heading: lead ? 'New lead from your card' : 'New contact',
    paragraphs: [
      `Hi ${ownerFirstName || 'there'},`,
      lead
        ? `${named} left their details on your digital card. They are now in your contacts.`
        : `${named} connected with you through your digital card. They are now in your contacts.`,
    ],
    action: { label: 'View your contacts', url: contactsUrl },
    footnote:
      'You receive this email because notifications are on in your profile. You can turn them off there or with the link below.',
    unsubscribe: { label: 'Unsubscribe from these notifications', url: unsubscribeUrl },
  })
  return {
    to,
    subject: lead
      ? `New lead: ${who} left their details on ${branding.name}`
      : `${who} connected with you on ${branding.name}`,
    html,
    text,
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}
