import { formatDateTime, translator } from '#app/utils/i18n/translate'
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'
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
  /** The language of the card page the visitor sent the form from (ADR 105). */
  language?: Language
}) {
  const { branding, to, leadName, ownerName, consentText, consentVersion, givenAt, dataUrl } =
    options
  const language = options.language ?? SOURCE_LANGUAGE
  const t = translator(language)
  const { html, text } = renderActionEmail({
    branding,
    language,
    heading: t('receipt.heading'),
    paragraphs: [
      // The name is the visitor's own words, and this email may reach any address they typed:
      // it is quoted below as what was entered, never part of the agency's greeting.
      t('receipt.hello'),
      t('receipt.agreed', {
        ownerName,
        date: formatDateTime(givenAt, language),
        version: String(consentVersion),
      }),
      // The agency's consent text stays as it wrote it: the words the visitor agreed to.
      consentText,
      t('receipt.seeOrDelete'),
    ],
    ...(leadName
      ? {
          quoted: {
            intro: t('receipt.quotedIntro'),
            rows: [{ label: t('receipt.name'), value: leadName }],
          },
        }
      : {}),
    action: { label: t('receipt.action'), url: dataUrl },
    footnote: t('receipt.footnote'),
  })
  return { to, subject: t('receipt.subject', { ownerName }), html, text }
}
