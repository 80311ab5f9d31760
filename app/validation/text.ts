import { z } from 'zod'

// Postgres cannot store NUL in text, and other control characters have no place in names,
// titles or notes (newlines and tabs excepted).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/**
 * A field's rule: a trimmed string of at most `max` characters (`tooLong` otherwise) that passes
 * `allowed` (`refused` otherwise). `missing` is the message when the field is absent (conform
 * sends an emptied field as absent).
 */
function trimmedText(allowed: (value: string) => boolean, refused: string) {
  return (max: number, tooLong = `Must be at most ${max} characters`, missing?: string) =>
    z
      .string(missing ? { error: missing } : undefined)
      .trim()
      .max(max, tooLong)
      .refine(allowed, refused)
}

/** A trimmed string of at most `max` characters without control characters. */
export const UNSUPPORTED_CHARACTERS_MESSAGE = 'Please remove unsupported characters'

export const plainText = trimmedText(
  (value) => !CONTROL.test(value),
  UNSUPPORTED_CHARACTERS_MESSAGE,
)

// What a single-line field refuses on top: line breaks of every kind (CR, LF, NEL, the Unicode
// line and paragraph separators), tabs, and the bidirectional controls that make a line read in
// another order than it is stored. A visitor's name or company shown in an email or a list must
// stay one line of their own, never a second line that reads as someone else's words.
const LINE_BREAKING =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/

export const SINGLE_LINE_MESSAGE =
  'Please keep this to one line, without line breaks or special characters'

/** Whether `value` holds nothing a single line refuses. */
export const isSingleLine = (value: string) => !LINE_BREAKING.test(value)

/**
 * Like `plainText`, for a field that is one line (a lead's name, company, phone): a line break,
 * tab or bidirectional control inside it is refused with SINGLE_LINE_MESSAGE.
 */
export const singleLineText = trimmedText(isSingleLine, SINGLE_LINE_MESSAGE)

/**
 * A full name from one field split for the account: the first word is the first name, the rest
 * the last name ("Ludwig van Beethoven" → "Ludwig", "van Beethoven"); one word is a first name.
 */
export function splitName(full: string) {
  const [first = '', ...rest] = full.trim().split(/\s+/)
  return { firstName: first, lastName: rest.join(' ') }
}
