// An email signature's HTML and plain text (issue 29 point 3, ADR 044). Mail clients keep little
// of the web: Gmail drops <style>, classes, SVG and data: images, Outlook lays out with Word's
// engine (tables, and widths on cells and images). So the HTML is tables and inline styles only,
// images by absolute URL, and every colour and size spelled out on the element that shows it.
import { escapeHtml } from '#app/services/emails/layout.server'
import { brandTextOnWhite } from '#app/validation/color'
import type { SignatureLayout } from '#app/validation/email-signature'

export type SignatureContent = {
  name: string
  jobTitle: string
  company: string
  /** Shown phones only (the gate blanked the hidden ones), each with its label. */
  phones: { label: string; number: string; dial: string }[]
  website: string
  links: { name: string; url: string }[]
  /** The card's short link marked as the signature's (`?s=e`). */
  cardUrl: string
  /** Absolute URLs on the tenant's host, or null. */
  photoUrl: string | null
  logoUrl: string | null
  qrUrl: string
  primaryColor: string
}

const FONT = 'font-family:Arial,Helvetica,sans-serif'
const TEXT = '#1f2937'
const MUTED = '#4b5563'

const e = escapeHtml

function attributes(values: Record<string, string | number>) {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${e(String(value))}"`)
    .join('')
}

const tag = (name: string, attrs: Record<string, string | number>, inner: string) =>
  `<${name}${attributes(attrs)}>${inner}</${name}>`

const img = (src: string, alt: string, width: number, height: number, style = '') =>
  `<img${attributes({
    src,
    alt,
    width,
    height,
    style: `display:block;border:0;outline:none;width:${width}px;height:${height}px;${style}`,
  })}>`

const link = (href: string, text: string, color: string, style = '') =>
  tag('a', { href, style: `color:${color};text-decoration:none;${style}` }, e(text))

/** A one-row table with no spacing: the block every client lays out the same. */
const table = (rows: string, style = '') =>
  tag(
    'table',
    {
      cellpadding: 0,
      cellspacing: 0,
      border: 0,
      role: 'presentation',
      style: `border-collapse:collapse;${FONT};font-size:13px;line-height:1.4;color:${TEXT};${style}`,
    },
    `<tbody>${rows}</tbody>`,
  )

const cell = (inner: string, style = '', extra: Record<string, string | number> = {}) =>
  tag('td', { ...extra, style: `vertical-align:top;${style}` }, inner)

/** The name, title and company, then a line per kind of detail. */
function details(content: SignatureContent, accent: string, compact: boolean) {
  const role = [content.jobTitle, content.company].filter(Boolean).map(e).join(' · ')
  const name = tag(
    'span',
    { style: `font-size:${compact ? 14 : 16}px;font-weight:bold;color:#111827` },
    e(content.name),
  )
  const contact = [
    ...content.phones.map(
      (phone) =>
        `${tag('span', { style: `color:${MUTED}` }, e(phone.label))} ${link(`tel:${phone.dial}`, phone.number, TEXT)}`,
    ),
    ...(content.website ? [link(content.website, displayUrl(content.website), accent)] : []),
  ]
  const links = content.links.map((item) => link(item.url, item.name, accent))
  const lines = compact
    ? [
        role ? `${name} ${tag('span', { style: `color:${MUTED}` }, `| ${role}`)}` : name,
        [...contact, ...links, saveLink(content, accent)].join(' · '),
      ]
    : [
        name,
        role ? tag('span', { style: `color:${MUTED}` }, role) : '',
        contact.join(' · '),
        links.join(' · '),
      ]
  return lines.filter(Boolean).join('<br>')
}

const saveLink = (content: SignatureContent, accent: string) =>
  link(content.cardUrl, 'Save my contact', accent, 'font-weight:bold')

/** The QR code of the card above "Save my contact", both leading to the card. */
function saveBadge(content: SignatureContent, accent: string, size: number) {
  return `${tag(
    'a',
    { href: content.cardUrl, style: 'text-decoration:none' },
    img(content.qrUrl, `QR code: save ${content.name}'s contact`, size, size),
  )}${tag('span', { style: 'font-size:11px' }, saveLink(content, accent))}`
}

const displayUrl = (url: string) => url.replace(/^https?:\/\//, '').replace(/\/$/, '')

export function renderSignatureHtml(content: SignatureContent, layout: SignatureLayout) {
  const accent = brandTextOnWhite(content.primaryColor)
  if (layout === 'compact') {
    return table(`<tr>${cell(details(content, accent, true))}</tr>`)
  }
  const badge = cell(saveBadge(content, accent, 72), 'padding:0 0 0 16px;text-align:center')
  const body = cell(
    details(content, accent, false),
    `padding:0 0 0 14px;border-left:3px solid ${content.primaryColor}`,
  )
  if (layout === 'classic') {
    const photo = content.photoUrl
      ? cell(
          tag(
            'a',
            { href: content.cardUrl, style: 'text-decoration:none' },
            img(content.photoUrl, content.name, 80, 80, 'border-radius:40px'),
          ),
          'padding:0 14px 0 0',
        )
      : ''
    return table(`<tr>${photo}${body}${badge}</tr>`)
  }
  // banner: the logo (else the company's name) above a rule of the agency's colour. On white, not
  // on the colour: logos are made for white, and one in the brand's colour would vanish on it.
  // The logo's own proportions: its height only (Outlook scales the width with it).
  const band = content.logoUrl
    ? `<img${attributes({
        src: content.logoUrl,
        alt: content.company || content.name,
        height: 32,
        style: 'display:block;border:0;outline:none;height:32px;width:auto',
      })}>`
    : tag(
        'span',
        { style: `font-size:15px;font-weight:bold;color:${accent}` },
        e(content.company || content.name),
      )
  return table(
    `<tr>${cell(band, `padding:0 12px 8px 12px;border-bottom:3px solid ${content.primaryColor}`, { colspan: 2 })}</tr><tr>${cell(details(content, accent, false), 'padding:10px 12px 0 12px')}${cell(saveBadge(content, accent, 72), 'padding:10px 12px 0 0;text-align:center')}</tr>`,
    'min-width:320px',
  )
}

export function renderSignatureText(content: SignatureContent) {
  const role = [content.jobTitle, content.company].filter(Boolean).join(', ')
  return [
    '-- ',
    content.name,
    role,
    ...content.phones.map((phone) => `${phone.label} ${phone.number}`),
    content.website,
    ...content.links.map((item) => `${item.name}: ${item.url}`),
    `Save my contact: ${content.cardUrl}`,
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n')
}
