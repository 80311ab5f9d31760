// vCard 3.0 (RFC 2426): escaped values, lines folded at 75 octets, empty fields omitted.
import { type ViewSource, withSource } from '#app/utils/view-sources'

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

export type VCardInput = {
  firstName: string
  lastName: string
  company?: string
  jobTitle?: string
  email?: string
  workEmail?: string
  phoneNumber?: string
  website?: string
  cardUrl?: string
  /** The channel the card link is marked with (ADR 039): vcard unless the NFC tag's. */
  cardUrlSource?: ViewSource
  note?: string
  photoJpeg?: Buffer | null
}

export function buildVCard(input: VCardInput) {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0']
  const first = escapeVCardText(input.firstName)
  const last = escapeVCardText(input.lastName)
  lines.push(`N:${last};${first};;;`)
  lines.push(`FN:${escapeVCardText(`${input.firstName} ${input.lastName}`.trim())}`)
  const optional: [string, string | undefined][] = [
    ['ORG', input.company],
    ['TITLE', input.jobTitle],
    ['EMAIL;TYPE=INTERNET,HOME', input.email],
    ['EMAIL;TYPE=INTERNET,WORK', input.workEmail],
    ['TEL;TYPE=CELL', input.phoneNumber],
    ['URL', input.website],
    ['URL;TYPE=CARD', input.cardUrl && withSource(input.cardUrl, input.cardUrlSource ?? 'vcard')],
    ['NOTE', input.note],
  ]
  for (const [name, value] of optional) {
    if (value?.trim()) lines.push(`${name}:${escapeVCardText(value.trim())}`)
  }
  if (input.photoJpeg?.length) {
    lines.push(`PHOTO;ENCODING=b;TYPE=JPEG:${input.photoJpeg.toString('base64')}`)
  }
  lines.push('END:VCARD')
  return `${lines.map(foldLine).join('\r\n')}\r\n`
}

/** `{first}_{last}.vcf`, safe as a file name. */
export function vcardFileName(firstName: string, lastName: string) {
  const clean = (v: string) => v.trim().replace(/[^\p{L}\p{N}-]+/gu, '_') || 'contact'
  return `${clean(firstName)}_${clean(lastName)}.vcf`
}
