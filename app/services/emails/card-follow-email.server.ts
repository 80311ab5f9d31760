// The emails of "Keep me updated" (ADR 102): the double opt-in's confirmation, and the digest a
// follower gets when the card changes, with the new vCard attached and the one-click way out
// (RFC 8058) in its headers and body.

import { translator } from '#app/utils/i18n/translate'
import { isLanguage, type Language, SOURCE_LANGUAGE } from '#app/validation/languages'
import { FOLLOW_CONFIRMATION_LINK, lifetimeDays } from '#app/validation/token-lifetimes'
import type { OutboxAttachment } from '#drizzle/schema'
import { type EmailBranding, renderActionEmail, unsubscribeHeaders } from './layout.server'

/** The confirmation: nothing else is ever sent to the address before its link is opened. */
export function followConfirmEmail(options: {
  branding: EmailBranding
  to: string
  ownerName: string
  confirmUrl: string
  language?: Language
}) {
  const { branding, to, ownerName, confirmUrl } = options
  const language = options.language ?? SOURCE_LANGUAGE
  const t = translator(language)
  const { html, text } = renderActionEmail({
    branding,
    language,
    heading: t('followEmail.confirmSubject', { ownerName }),
    paragraphs: [
      t('followEmail.hello'),
      t('followEmail.confirmAsked', { ownerName }),
      t('followEmail.confirmIgnore'),
    ],
    action: { label: t('followEmail.confirmAction'), url: confirmUrl },
    footnote: t('followEmail.confirmFootnote', {
      count: lifetimeDays(FOLLOW_CONFIRMATION_LINK),
    }),
  })
  return { to, subject: t('followEmail.confirmSubject', { ownerName }), html, text }
}

/** What the digest shows of the card now (each row only when the card has it). */
export type DigestDetails = { title: string; company: string; phone: string; email: string }

/** One digest of a card's changes: its details as they are now, and its new vCard. */
export function followDigestEmail(options: {
  branding: EmailBranding
  to: string
  ownerName: string
  details: DigestDetails
  cardUrl: string
  stopUrl: string
  vcard: OutboxAttachment
  language?: string
}) {
  const { branding, to, ownerName, details, cardUrl, stopUrl, vcard } = options
  const language = isLanguage(options.language) ? options.language : SOURCE_LANGUAGE
  const t = translator(language)
  const rows = (
    [
      [t('followEmail.title'), details.title],
      [t('followEmail.company'), details.company],
      [t('followEmail.phone'), details.phone],
      [t('followEmail.email'), details.email],
    ] as const
  )
    .filter(([, value]) => value)
    .map(([label, value]) => ({ label, value }))
  const { html, text } = renderActionEmail({
    branding,
    language,
    heading: t('followEmail.digestSubject', { ownerName }),
    paragraphs: [t('followEmail.hello'), t('followEmail.digestUpdated', { ownerName })],
    ...(rows.length > 0 ? { quoted: { intro: t('followEmail.digestDetails'), rows } } : {}),
    action: { label: t('followEmail.viewCard'), url: cardUrl },
    footnote: t('followEmail.digestFootnote', { ownerName }),
    unsubscribe: { label: t('followEmail.stop'), url: stopUrl },
  })
  return {
    to,
    subject: t('followEmail.digestSubject', { ownerName }),
    html,
    text,
    headers: unsubscribeHeaders(stopUrl),
    attachments: [vcard],
  }
}
