import { type EmailBranding, renderActionEmail, unsubscribeHeaders } from './layout.server'

/** The body's lines as paragraphs: plain text, each non-empty line its own (escaped) paragraph. */
export function announcementParagraphs(body: string) {
  return body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
}

/**
 * An agency's announcement to one of its end users (ADR 046), in the agency's branding. Only
 * those who turned Marketing Communications on get it, so it carries the one-click unsubscribe
 * of that switch (RFC 8058): the List-Unsubscribe headers and the same link in the body.
 */
export function announcementEmail(options: {
  branding: EmailBranding
  to: string
  subject: string
  body: string
  unsubscribeUrl: string
}) {
  const { branding, to, subject, body, unsubscribeUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: subject,
    paragraphs: announcementParagraphs(body),
    action: { label: `Open ${branding.name}`, url: branding.origin },
    footnote: `You receive this announcement from ${branding.name} because Marketing Communications are on in your notification settings.`,
    unsubscribe: { label: 'Unsubscribe from announcements', url: unsubscribeUrl },
  })
  return {
    to,
    subject,
    html,
    text,
    headers: unsubscribeHeaders(unsubscribeUrl),
  }
}
