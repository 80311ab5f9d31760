import { z } from 'zod'

// Postgres cannot store NUL in text, and other control characters have no place in names,
// titles or notes (newlines and tabs excepted).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/**
 * A trimmed string of at most `max` characters without control characters. `missing` is the
 * message when the field is absent (conform sends an emptied field as absent).
 */
export function plainText(
  max: number,
  tooLong = `Must be at most ${max} characters`,
  missing?: string,
) {
  return z
    .string(missing ? { error: missing } : undefined)
    .trim()
    .max(max, tooLong)
    .refine((value) => !CONTROL.test(value), 'Please remove unsupported characters')
}

/**
 * A full name from one field split for the account: the first word is the first name, the rest
 * the last name ("Ludwig van Beethoven" → "Ludwig", "van Beethoven"); one word is a first name.
 */
export function splitName(full: string) {
  const [first = '', ...rest] = full.trim().split(/\s+/)
  return { firstName: first, lastName: rest.join(' ') }
}
