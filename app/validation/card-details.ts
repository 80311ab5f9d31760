// What a card holds beyond the spec's fields (issue 28): a short bio, pronouns, typed phones, a
// structured address and an ordered list of links. One module for the rules, their limits and
// their messages: the card editor's form (conform) and its action parse with the same schema, and
// the public page and the vCard read the kinds and labels from here.
import { z } from 'zod'
import { plainText } from './text'

export const BIO_MAX_LENGTH = 280
export const PRONOUNS_MAX_LENGTH = 40
export const DEPARTMENT_MAX_LENGTH = 100
export const PHONE_MAX_LENGTH = 50
export const PHONE_TOO_LONG = `Phone must be at most ${PHONE_MAX_LENGTH} characters`
/** A company's name wherever one is typed: a card, a template, a contact, a sign-up, the API. */
export const COMPANY_MAX_LENGTH = 200
export const COMPANY_TOO_LONG = `Company must be at most ${COMPANY_MAX_LENGTH} characters`
export const JOB_TITLE_MAX_LENGTH = 200
export const ADDRESS_LINE_MAX_LENGTH = 200
export const LINKS_MAX = 10
export const LINK_LABEL_MAX_LENGTH = 40
export const LINK_URL_MAX_LENGTH = 500

export const PHONE_TYPES = ['mobile', 'work'] as const
export type PhoneType = (typeof PHONE_TYPES)[number]
export const PHONE_TYPE_LABELS: Record<PhoneType, string> = { mobile: 'Mobile', work: 'Work' }

export const LINK_KINDS = [
  'linkedin',
  'x',
  'instagram',
  'facebook',
  'github',
  'youtube',
  'tiktok',
  'whatsapp',
  'booking',
  'custom',
] as const
export type LinkKind = (typeof LINK_KINDS)[number]

/**
 * Each kind's name and the hosts its address may have (a host or any subdomain of one). A custom
 * link may point anywhere on https; every other kind only at its own service, so a "LinkedIn"
 * icon never leads somewhere else.
 */
export const LINK_KIND_RULES: Record<LinkKind, { name: string; hosts: readonly string[] }> = {
  linkedin: { name: 'LinkedIn', hosts: ['linkedin.com'] },
  x: { name: 'X', hosts: ['x.com', 'twitter.com'] },
  instagram: { name: 'Instagram', hosts: ['instagram.com'] },
  facebook: { name: 'Facebook', hosts: ['facebook.com', 'fb.com', 'fb.me'] },
  github: { name: 'GitHub', hosts: ['github.com'] },
  youtube: { name: 'YouTube', hosts: ['youtube.com', 'youtu.be'] },
  tiktok: { name: 'TikTok', hosts: ['tiktok.com'] },
  whatsapp: { name: 'WhatsApp', hosts: ['wa.me', 'whatsapp.com'] },
  booking: {
    name: 'Booking',
    hosts: [
      'calendly.com',
      'cal.com',
      'savvycal.com',
      'tidycal.com',
      'zcal.co',
      'youcanbook.me',
      'acuityscheduling.com',
      'meetings.hubspot.com',
      'calendar.app.google',
      'outlook.office.com',
    ],
  },
  custom: { name: 'Link', hosts: [] },
}

export const LINK_HTTPS_ONLY = 'Links must start with https://'
export const LINK_INVALID = 'Please enter a valid URL'
export const LINK_LABEL_REQUIRED = 'Please enter a label for this link'
export const LINKS_TOO_MANY = `You can add at most ${LINKS_MAX} links`

/** The message for an address that is not on the kind's service. */
export function linkHostMessage(kind: LinkKind) {
  const rule = LINK_KIND_RULES[kind]
  return `Please enter a ${rule.name} address (${rule.hosts.slice(0, 2).join(' or ')})`
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const UNSAFE_URL_CHARACTERS = /[\s\u0000-\u001f\u007f<>"`\\]/
export const PHONE_CHARACTERS = /^\+?[0-9 ()./-]{4,30}$/

function hostAllowed(host: string, hosts: readonly string[]) {
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))
}

/**
 * A link's address as it is stored, or the message next to its field: https only (a bare
 * address gets https://), no credentials, a real host, on the kind's service. A WhatsApp link may
 * be given as a phone number, which becomes its wa.me address.
 */
export function normalizeLinkUrl(
  kind: LinkKind,
  raw: string,
): { ok: true; url: string } | { ok: false; message: string } {
  const value = raw.trim()
  if (kind === 'whatsapp' && PHONE_CHARACTERS.test(value)) {
    const digits = value.replace(/\D/g, '')
    if (digits.length < 6 || digits.length > 15) return { ok: false, message: LINK_INVALID }
    return { ok: true, url: `https://wa.me/${digits}` }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^https:\/\//i.test(value)) {
    return { ok: false, message: /^http:\/\//i.test(value) ? LINK_HTTPS_ONLY : LINK_INVALID }
  }
  const candidate = /^https:\/\//i.test(value) ? value : `https://${value}`
  // The stored string is judged, not the parsed one: the parser drops tabs and newlines.
  if (UNSAFE_URL_CHARACTERS.test(candidate)) return { ok: false, message: LINK_INVALID }
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return { ok: false, message: LINK_INVALID }
  }
  // A name with a real top-level label: no bare word, no IP address ("https://12" parses as
  // 0.0.0.12), no credentials, no port.
  const topLabel = url.hostname.split('.').at(-1) ?? ''
  if (
    url.username ||
    url.password ||
    url.port ||
    !url.hostname.includes('.') ||
    !/^[a-z][a-z0-9-]*$/i.test(topLabel)
  ) {
    return { ok: false, message: LINK_INVALID }
  }
  const rule = LINK_KIND_RULES[kind]
  if (rule.hosts.length > 0 && !hostAllowed(url.hostname.toLowerCase(), rule.hosts)) {
    return { ok: false, message: linkHostMessage(kind) }
  }
  return { ok: true, url: url.href }
}

const optional = (max: number, tooLong: string) => plainText(max, tooLong).optional().default('')

const optionalPhone = (label: string) =>
  optional(PHONE_MAX_LENGTH, `${label} must be at most ${PHONE_MAX_LENGTH} characters`).refine(
    (v) => v === '' || PHONE_CHARACTERS.test(v),
    'Please enter a valid phone number',
  )

/**
 * One row of the links list. A row left without an address is an unused row of the form and is
 * dropped; its index stays, so a message lands next to the row it is about.
 */
export const CardLinkInputSchema = z
  .object({
    kind: z.enum(LINK_KINDS, { error: 'Please choose a kind of link' }),
    label: optional(
      LINK_LABEL_MAX_LENGTH,
      `Label must be at most ${LINK_LABEL_MAX_LENGTH} characters`,
    ),
    url: z
      .string()
      .trim()
      .max(LINK_URL_MAX_LENGTH, `Links must be at most ${LINK_URL_MAX_LENGTH} characters`)
      .optional()
      .default(''),
  })
  .transform((link, ctx) => {
    if (link.url === '') return null
    const checked = normalizeLinkUrl(link.kind, link.url)
    if (!checked.ok) {
      ctx.addIssue({ code: 'custom', message: checked.message, path: ['url'] })
      return z.NEVER
    }
    if (link.kind === 'custom' && link.label === '') {
      ctx.addIssue({ code: 'custom', message: LINK_LABEL_REQUIRED, path: ['label'] })
      return z.NEVER
    }
    return { kind: link.kind, label: link.kind === 'custom' ? link.label : '', url: checked.url }
  })

export type CardLinkInput = { kind: LinkKind; label: string; url: string }

export const CardExtrasSchema = z.object({
  bio: optional(BIO_MAX_LENGTH, `Bio must be at most ${BIO_MAX_LENGTH} characters`),
  department: optional(
    DEPARTMENT_MAX_LENGTH,
    `Department must be at most ${DEPARTMENT_MAX_LENGTH} characters`,
  ),
  pronouns: optional(
    PRONOUNS_MAX_LENGTH,
    `Pronouns must be at most ${PRONOUNS_MAX_LENGTH} characters`,
  ),
  phoneType: z.enum(PHONE_TYPES).optional().default('mobile'),
  phone2: optionalPhone('Second phone'),
  phone2Type: z.enum(PHONE_TYPES).optional().default('work'),
  addressStreet: optional(ADDRESS_LINE_MAX_LENGTH, 'Street must be at most 200 characters'),
  addressCity: optional(100, 'City must be at most 100 characters'),
  addressRegion: optional(100, 'Region must be at most 100 characters'),
  addressPostalCode: optional(20, 'Postal code must be at most 20 characters'),
  addressCountry: optional(100, 'Country must be at most 100 characters'),
  links: z
    .array(CardLinkInputSchema)
    .max(LINKS_MAX, LINKS_TOO_MANY)
    .optional()
    .default([])
    .transform((rows) => rows.filter((row): row is CardLinkInput => row !== null)),
})
export type CardExtras = z.output<typeof CardExtrasSchema>

/** A card's extras with nothing filled in: what a new card's columns hold. */
export const EMPTY_CARD_EXTRAS: Omit<CardExtras, 'links'> = {
  bio: '',
  department: '',
  pronouns: '',
  phoneType: 'mobile',
  phone2: '',
  phone2Type: 'work',
  addressStreet: '',
  addressCity: '',
  addressRegion: '',
  addressPostalCode: '',
  addressCountry: '',
}

/** The address as one line, the way a maps search reads it. */
export function addressLine(address: {
  addressStreet: string
  addressCity: string
  addressRegion: string
  addressPostalCode: string
  addressCountry: string
}) {
  const cityLine = [address.addressPostalCode, address.addressCity].filter(Boolean).join(' ')
  return [address.addressStreet, cityLine, address.addressRegion, address.addressCountry]
    .filter(Boolean)
    .join(', ')
}

/** Directions to an address: a maps search any phone opens in its maps app or the browser. */
export function directionsUrl(line: string) {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(line)}`
}

/** A dialable number for tel: and sms: (digits and a leading +): the card's and the signature's. */
export function dialable(phone: string) {
  const digits = phone.replace(/[^\d+]/g, '')
  return digits.startsWith('+')
    ? `+${digits.slice(1).replace(/\+/g, '')}`
    : digits.replace(/\+/g, '')
}

/** A link's visible name: a custom link's label, otherwise its service's name. */
export function linkName(link: { kind: LinkKind; label: string }) {
  return link.kind === 'custom' ? link.label || 'Link' : LINK_KIND_RULES[link.kind].name
}

/**
 * The addresses a card shows, each once and in order: a work email that is the account's own
 * address (any case, any spaces around it) is one address, not two lines (issue 41 point 14).
 */
export function distinctEmails(emails: readonly (string | null | undefined)[]): string[] {
  const seen = new Set<string>()
  const shown: string[] = []
  for (const email of emails) {
    const address = email?.trim()
    if (!address || seen.has(address.toLowerCase())) continue
    seen.add(address.toLowerCase())
    shown.push(address)
  }
  return shown
}
