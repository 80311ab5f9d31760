// A branded, table-based email layout (email clients ignore most CSS) with a text part.

import { translator } from '#app/utils/i18n/translate'
import { readableTextColor, safeHexColor } from '#app/validation/color'
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'
import type { LegalLinks } from '#app/validation/legal'
import { type QuotedData, quotedVisitorText } from './visitor-text.server'

export type EmailBranding = {
  name: string
  primaryColor: string
  logoUrl: string | null
  origin: string
  /** The support email and policy links of the footer line (empty ones are left out). */
  legal: LegalLinks
}

/** The footer line's parts, in the order every email shows them, in the email's language. */
function legalParts(legal: LegalLinks, language: Language) {
  const t = translator(language)
  return [
    legal.supportEmail
      ? {
          label: `${t('frame.support')} ${legal.supportEmail}`,
          url: `mailto:${legal.supportEmail}`,
        }
      : null,
    legal.privacyPolicyUrl ? { label: t('frame.privacy'), url: legal.privacyPolicyUrl } : null,
    legal.termsOfServiceUrl ? { label: t('frame.terms'), url: legal.termsOfServiceUrl } : null,
  ].filter((part) => part !== null)
}

export function escapeHtml(value: string) {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

const quotedTextLine = (row: QuotedData['rows'][number]) =>
  `> ${row.label}: ${quotedVisitorText(row.value)}`

function quotedHtml(quoted: QuotedData) {
  const rows = quoted.rows
    .map(
      (row) =>
        `<tr><td style="padding:2px 12px 2px 0;color:#6b7280;vertical-align:top">${escapeHtml(row.label)}</td><td style="padding:2px 0;font-family:Menlo,Consolas,monospace">${escapeHtml(quotedVisitorText(row.value))}</td></tr>`,
    )
    .join('')
  return `<p style="margin:0 0 8px;line-height:1.5">${escapeHtml(quoted.intro)}</p>
<blockquote style="margin:0 0 12px;padding:8px 12px;border-left:4px solid #d1d5db;background:#f9fafb"><table role="presentation" cellpadding="0" cellspacing="0">${rows}</table></blockquote>`
}

type ActionEmail = {
  branding: EmailBranding
  heading: string
  paragraphs: string[]
  action: { label: string; url: string }
  footnote: string
  /** A second, plain link under the button (an invitation's "Decline"). */
  secondaryAction?: { label: string; url: string }
  /** Notifications only: a visible way out beside the List-Unsubscribe header. */
  unsubscribe?: { label: string; url: string }
  /**
   * What a visitor typed, after the paragraphs: set apart as a quotation (a bordered block in
   * HTML, "> " lines in text), each value in quotation marks and never a link.
   */
  quoted?: QuotedData
  /** The language it is written in (ADR 105): the visitor's for a receipt, else English. */
  language?: Language
}

/** RFC 8058's one-click unsubscribe headers, which every notification email carries. */
export const unsubscribeHeaders = (url: string) => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
})

/**
 * A Team Updates notification (roles-teams-admin.md §2.6): the action email with the footnote
 * and unsubscribe link those carry, and RFC 8058's headers.
 */
export function teamUpdatesEmail(
  message: { to: string; subject: string; unsubscribeUrl: string },
  email: Omit<ActionEmail, 'footnote' | 'unsubscribe'>,
) {
  const { to, subject, unsubscribeUrl } = message
  const { html, text } = renderActionEmail({
    ...email,
    footnote:
      'You receive this email because Team Updates are on in your settings. You can turn them off there or all notifications with the link below.',
    unsubscribe: { label: 'Unsubscribe from these notifications', url: unsubscribeUrl },
  })
  return { to, subject, html, text, headers: unsubscribeHeaders(unsubscribeUrl) }
}

export function renderActionEmail(options: ActionEmail) {
  const { branding, heading, paragraphs, action, footnote, secondaryAction, unsubscribe, quoted } =
    options
  const color = safeHexColor(branding.primaryColor, '#3b82f6')
  const textColor = readableTextColor(color)
  const language = options.language ?? SOURCE_LANGUAGE
  const legal = legalParts(branding.legal, language)
  const logo = branding.logoUrl
    ? `<img src="${escapeHtml(branding.origin + branding.logoUrl)}" alt="${escapeHtml(branding.name)}" style="max-height:48px;max-width:180px">`
    : `<strong style="font-size:20px">${escapeHtml(branding.name)}</strong>`
  const html = `<!doctype html>
<html lang="${language}"><body style="margin:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="padding:20px 24px;border-bottom:4px solid ${color}">${logo}</td></tr>
<tr><td style="padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(heading)}</h1>
${paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${quoted ? quotedHtml(quoted) : ''}
<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:${color};color:${textColor};padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block;font-weight:bold">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 12px;font-size:13px;color:#6b7280;word-break:break-all">${escapeHtml(action.url)}</p>
${secondaryAction ? `<p style="margin:0 0 12px;font-size:14px"><a href="${escapeHtml(secondaryAction.url)}" style="color:${color}">${escapeHtml(secondaryAction.label)}</a></p>` : ''}
<p style="margin:0;font-size:13px;color:#6b7280">${escapeHtml(footnote)}</p>
${unsubscribe ? `<p style="margin:12px 0 0;font-size:13px"><a href="${escapeHtml(unsubscribe.url)}" style="color:#6b7280">${escapeHtml(unsubscribe.label)}</a></p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#9ca3af">${escapeHtml(branding.name)}${legal.length > 0 ? `<br>${legal.map((part) => `<a href="${escapeHtml(part.url)}" style="color:#6b7280">${escapeHtml(part.label)}</a>`).join(' · ')}` : ''}</td></tr>
</table></td></tr></table></body></html>`
  const text = [
    branding.name,
    '',
    heading,
    '',
    ...paragraphs,
    ...(quoted ? ['', quoted.intro, ...quoted.rows.map(quotedTextLine)] : []),
    '',
    `${action.label}: ${action.url}`,
    ...(secondaryAction ? [`${secondaryAction.label}: ${secondaryAction.url}`] : []),
    '',
    footnote,
    ...(unsubscribe ? ['', `${unsubscribe.label}: ${unsubscribe.url}`] : []),
    ...(legal.length > 0
      ? [
          '',
          ...legal.map((part) =>
            part.url.startsWith('mailto:') ? part.label : `${part.label}: ${part.url}`,
          ),
        ]
      : []),
  ].join('\n')
  return { html, text }
}

/** Whom a personal email goes to, in whose branding, and the name it greets them by. */
export type EmailRecipient = { branding: EmailBranding; to: string; firstName: string }

/**
 * An email to one person: "Hi {first name}," (or "Hi there,") above the paragraphs, in the
 * layout above, with its address and subject.
 */
export function personalEmail(
  recipient: EmailRecipient,
  email: Omit<ActionEmail, 'branding'> & { subject: string },
) {
  const { subject, paragraphs, ...layout } = email
  const { html, text } = renderActionEmail({
    ...layout,
    branding: recipient.branding,
    paragraphs: [`Hi ${recipient.firstName || 'there'},`, ...paragraphs],
  })
  return { to: recipient.to, subject, html, text }
}
