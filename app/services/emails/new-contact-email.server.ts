import { type EmailBranding, renderActionEmail, unsubscribeHeaders } from './layout.server'
import { quotedVisitorText } from './visitor-text.server'

export type NewContactKind = 'connect' | 'lead'

const FOOTNOTE =
  'You receive this email because notifications are on in your profile. You can turn them off there or with the link below.'

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
  const lead = kind === 'lead'
  if (lead) {
    // A lead is whatever a visitor typed: quoted data under the agency's own sentence, never a
    // line or a link of theirs (issue 39 point 3).
    const { html, text } = renderActionEmail({
      branding,
      heading: 'New lead from your card',
      paragraphs: [
        `Hi ${ownerFirstName || 'there'},`,
        'Someone left their details on your digital card. They are now in your contacts.',
      ],
      quoted: {
        intro: 'What they entered, as they typed it:',
        rows: [
          { label: 'Name', value: contact.fullName },
          { label: 'Email', value: contact.email },
          ...(contact.company ? [{ label: 'Company', value: contact.company }] : []),
        ],
      },
      action: { label: 'View your contacts', url: contactsUrl },
      footnote: FOOTNOTE,
      unsubscribe: { label: 'Unsubscribe from these notifications', url: unsubscribeUrl },
    })
    const who = contact.fullName || contact.email || 'Someone'
    return withHeaders({
      to,
      subject: `New lead: ${quotedVisitorText(who)} left their details on ${branding.name}`,
      html,
      text,
    })
  }
  // A connect comes from a signed-in account: its name is the account's, kept to one line.
  const who = contact.fullName || contact.email || 'Someone'
  const details = [contact.email, contact.company].filter(Boolean).join(', ')
  const named = details ? `${who} (${details})` : who
  const { html, text } = renderActionEmail({
    branding,
    heading: 'New contact',
    paragraphs: [
      `Hi ${ownerFirstName || 'there'},`,
      `${named} connected with you through your digital card. They are now in your contacts.`,
    ],
    action: { label: 'View your contacts', url: contactsUrl },
    footnote: FOOTNOTE,
    unsubscribe: { label: 'Unsubscribe from these notifications', url: unsubscribeUrl },
  })
  return withHeaders({ to, subject: `${who} connected with you on ${branding.name}`, html, text })

  function withHeaders(email: { to: string; subject: string; html: string; text: string }) {
    return {
      ...email,
      headers: unsubscribeHeaders(unsubscribeUrl),
    }
  }
}
