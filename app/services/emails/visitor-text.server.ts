// A visitor's words inside an email the agency sends (issue 39 point 3): a lead's name, email and
// company reach the card owner's notification, and the lead's name its receipt. They are data,
// never the sender's prose: one line each (whatever an old row or another path stored), shown in
// quotes under a label, and never a link. Mail clients turn anything that looks like an address
// ("www.example.com", "https://…", "name@example.com") into a link of their own; a zero-width
// non-joiner after each dot, colon, slash and at sign keeps the text as typed on screen while no
// linkifier recognises it, so a visitor cannot put a clickable link in the agency's email.

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is folded
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g
const LINK_PUNCTUATION = /([.:/@\\])/g
const ZWNJ = '\u200c'

/** The most of a visitor's value an email shows. */
export const VISITOR_TEXT_MAX = 200

/** One line of a visitor's text, cut to VISITOR_TEXT_MAX, that no mail client makes a link. */
export function visitorText(value: string) {
  const line = value.replace(BREAKS, ' ').replace(/\s+/g, ' ').trim()
  const cut = line.length > VISITOR_TEXT_MAX ? `${line.slice(0, VISITOR_TEXT_MAX - 1)}…` : line
  return cut.replace(LINK_PUNCTUATION, `$1${ZWNJ}`)
}

/** The same in quotation marks: how a visitor's value reads inside a sentence or a subject. */
export const quotedVisitorText = (value: string) => `“${visitorText(value)}”`

/** Labelled values a visitor typed, for renderActionEmail's `quoted` block. */
export type QuotedData = {
  /** The agency's sentence that introduces the values as the visitor's. */
  intro: string
  rows: { label: string; value: string }[]
}
