// vCard 3.0 (RFC 2426): escaped values, lines folded at 75 octets, CRLF line endings, empty
// fields omitted.
import { type ViewSource, withSource } from '#app/utils/view-sources'
import { distinctEmails } from '#app/validation/card-details'
import sharp from './sharp.server'

/** Escapes a text value: backslash, comma, semicolon and newlines. */
export function escapeVCardText(value: string) {
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll(',', '\\,')
    .replaceAll(';', '\\;')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** Folds a content line at 75 octets (continuations start with a space), never inside a UTF-8 character. */
export function foldLine(line: string) {
  const parts: string[] = []
  let current = ''
  let size = 0
  for (const char of line) {
    const bytes = Buffer.byteLength(char)
    const limit = parts.length === 0 ? 75 : 74 // continuation lines carry a leading space
    if (size + bytes > limit) {
      parts.push(current)
      current = ''
      size = 0
    }
    current += char
    size += bytes
  }
  parts.push(current)
  return parts.join('\r\n ')
}

export type VCardPhone = { number: string; type: 'mobile' | 'work' }
export type VCardAddress = {
  street: string
  city: string
  region: string
  postalCode: string
  country: string
}
export type VCardLink = { kind: string; label: string; url: string }

export type VCardInput = {
  firstName: string
  lastName: string
  company?: string
  /** ORG's second component: the unit within the company (RFC 2426 §3.5.5). */
  department?: string
  jobTitle?: string
  email?: string
  workEmail?: string
  /** One phone of unknown kind (a saved contact's): a mobile number, as before issue 28. */
  phoneNumber?: string
  /** A card's typed phones (issue 28), after `phoneNumber`. */
  phones?: VCardPhone[]
  website?: string
  cardUrl?: string
  /** The channel the card link is marked with (ADR 039): vcard unless the NFC tag's. */
  cardUrlSource?: ViewSource
  note?: string
  pronouns?: string
  address?: VCardAddress | null
  links?: VCardLink[]
  photoJpeg?: Buffer | null
}

/** The card columns a vCard is made of (a digital card row, or the gate's view of one). */
export type VCardCardFields = {
  firstName: string
  lastName: string
  company: string
  department: string
  jobTitle: string
  email: string
  workEmail: string
  phoneNumber: string
  phoneType: VCardPhone['type']
  phone2: string
  phone2Type: VCardPhone['type']
  website: string
  bio: string
  pronouns: string
  addressStreet: string
  addressCity: string
  addressRegion: string
  addressPostalCode: string
  addressCountry: string
}

/** A card's vCard: the one mapping of a card's columns to the vCard's fields. */
/** A card's address columns as a contact file's address parts (the data export's too). */
export function vcardAddressOf(
  card: Pick<
    VCardCardFields,
    'addressStreet' | 'addressCity' | 'addressRegion' | 'addressPostalCode' | 'addressCountry'
  >,
): VCardAddress {
  return {
    street: card.addressStreet,
    city: card.addressCity,
    region: card.addressRegion,
    postalCode: card.addressPostalCode,
    country: card.addressCountry,
  }
}

export function buildCardVCard(
  card: VCardCardFields,
  extra: Pick<VCardInput, 'cardUrl' | 'cardUrlSource' | 'links' | 'photoJpeg'>,
) {
  return buildVCard({
    firstName: card.firstName,
    lastName: card.lastName,
    company: card.company,
    department: card.department,
    jobTitle: card.jobTitle,
    email: card.email,
    workEmail: card.workEmail,
    phones: [
      { number: card.phoneNumber, type: card.phoneType },
      { number: card.phone2, type: card.phone2Type },
    ],
    website: card.website,
    note: card.bio,
    pronouns: card.pronouns,
    address: vcardAddressOf(card),
    ...extra,
  })
}

const TEL_TYPES: Record<VCardPhone['type'], string> = { mobile: 'CELL', work: 'WORK' }

/** A parameter value: only letters, digits and hyphens, so no quoting is needed. */
const paramValue = (value: string) => value.replace(/[^A-Za-z0-9-]/g, '').toLowerCase() || 'other'

export function buildVCard(input: VCardInput) {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0']
  const first = escapeVCardText(input.firstName)
  const last = escapeVCardText(input.lastName)
  lines.push(`N:${last};${first};;;`)
  lines.push(`FN:${escapeVCardText(`${input.firstName} ${input.lastName}`.trim())}`)
  const phones: [string, string | undefined][] = (input.phones ?? []).map((phone) => [
    `TEL;TYPE=${TEL_TYPES[phone.type]}`,
    phone.number,
  ])
  const work = input.workEmail?.trim()
  const optional: [string, string | undefined][] = [
    ['TITLE', input.jobTitle],
    // One address typed as both is one EMAIL line, the work one (issue 41 point 14).
    ['EMAIL;TYPE=INTERNET,HOME', distinctEmails([work, input.email]).find((a) => a !== work)],
    ['EMAIL;TYPE=INTERNET,WORK', work],
    ['TEL;TYPE=CELL', input.phoneNumber],
    ...phones,
    ['NOTE', input.note],
    // No 3.0 property for pronouns (RFC 9554 adds one to 4.0): an extension importers may keep.
    ['X-PRONOUNS', input.pronouns],
  ]
  // ORG is structured: the company, then the unit within it.
  const org = [input.company?.trim() ?? '', input.department?.trim() ?? '']
  if (org.some(Boolean)) {
    lines.push(`ORG:${org.map(escapeVCardText).join(';').replace(/;$/, '')}`)
  }
  for (const [name, value] of optional) {
    if (value?.trim()) lines.push(`${name}:${escapeVCardText(value.trim())}`)
  }
  // Addresses are of the uri value type (RFC 2426 §5.8.4), which has no escapes: written as they
  // are, without line breaks (the validation refuses whitespace in them).
  const uris: [string, string | undefined][] = [
    ['URL', input.website],
    ['URL;TYPE=CARD', input.cardUrl && withSource(input.cardUrl, input.cardUrlSource ?? 'vcard')],
  ]
  for (const [name, value] of uris) {
    const uri = value?.replace(/[\r\n]/g, '').trim()
    if (uri) lines.push(`${name}:${uri}`)
  }
  const address = input.address
  if (address && Object.values(address).some((part) => part.trim())) {
    const parts = [
      '',
      '',
      address.street,
      address.city,
      address.region,
      address.postalCode,
      address.country,
    ]
    lines.push(`ADR;TYPE=WORK:${parts.map((part) => escapeVCardText(part.trim())).join(';')}`)
  }
  // Each link twice: URL is what Android's importer keeps, X-SOCIALPROFILE what iOS and macOS
  // show as a profile of that service.
  for (const link of input.links ?? []) {
    const type = paramValue(link.kind)
    const uri = link.url.replace(/[\r\n]/g, '').trim()
    if (!uri) continue
    lines.push(`URL;TYPE=${type}:${uri}`)
    lines.push(`X-SOCIALPROFILE;TYPE=${type}:${uri}`)
  }
  if (input.photoJpeg?.length) {
    lines.push(`PHOTO;ENCODING=b;TYPE=JPEG:${input.photoJpeg.toString('base64')}`)
  }
  lines.push('END:VCARD')
  return `${lines.map(foldLine).join('\r\n')}\r\n`
}

/**
 * The photo a vCard carries: a small JPEG (256 px, quality 70), since Android's importer refuses
 * large ones and every contact file carries it inline. Null when the image cannot be read.
 */
export async function vcardPhoto(bytes: Uint8Array | null | undefined): Promise<Buffer | null> {
  if (!bytes?.length) return null
  try {
    return await sharp(bytes)
      .rotate()
      .resize(256, 256, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 70 })
      .toBuffer()
  } catch {
    return null
  }
}

/** `{first}_{last}.vcf`, safe as a file name. */
export function vcardFileName(firstName: string, lastName: string) {
  const clean = (v: string) => v.trim().replace(/[^\p{L}\p{N}-]+/gu, '_') || 'contact'
  return `${clean(firstName)}_${clean(lastName)}.vcf`
}
