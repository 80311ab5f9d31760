// The contacts list's filters (issue 41 point 12), read from the GET form's params by the list,
// its exports and the tests alike, so a link to a filtered list exports what it shows.
import { z } from 'zod'

/** How a contact came to the list, in the words the list shows (the `contact_source` enum). */
export const CONTACT_SOURCE_LABELS = {
  connect: 'Connected',
  lead: 'Left details',
  saved: 'Saved',
  manual: 'Added',
  scan: 'Scanned',
} as const

export type ContactSource = keyof typeof CONTACT_SOURCE_LABELS

export const CONTACT_SOURCES = Object.keys(CONTACT_SOURCE_LABELS) as [
  ContactSource,
  ...ContactSource[],
]

/** Personal or the company's (ADR 049), as the filter names them. */
export const CONTACT_KIND_LABELS = {
  personal: 'Personal',
  company: 'Company',
} as const

export type ContactKind = keyof typeof CONTACT_KIND_LABELS

/**
 * What "Personal" means, said beside the switch and the filter: the hand-over of a seat (ADR 049)
 * is the only thing it changes.
 */
export const PERSONAL_MEANING =
  'Personal contacts stay with you if you leave your company. The others are company contacts: they pass to whoever takes over your seat.'

const ContactFiltersSchema = z.object({
  source: z.enum(CONTACT_SOURCES),
  kind: z.enum(['personal', 'company']),
})

/** The answer for a contact that is not the user's: one text for unknown and another's. */
export const CONTACT_NOT_FOUND = 'Contact not found'

/** A contact's page's id: anything else is not looked up (the page is not found). */
export const ContactIdSchema = z.uuid()

export type ContactFilters = { source?: ContactSource; kind?: ContactKind }

/**
 * The filters of a list's URL. A value that is not one of the choices (a hand-edited or old link)
 * is left out, so the list shows all for that filter, as its select then says; never an error.
 */
export function readContactFilters(params: URLSearchParams): ContactFilters {
  const source = ContactFiltersSchema.shape.source.safeParse(params.get('source'))
  const kind = ContactFiltersSchema.shape.kind.safeParse(params.get('kind'))
  return {
    ...(source.success ? { source: source.data } : {}),
    ...(kind.success ? { kind: kind.data } : {}),
  }
}

/** The query string of a list (and its exports) with these search and filters; '' for none. */
export function contactListQuery(q: string, filters: ContactFilters) {
  const params = new URLSearchParams()
  if (q) params.set('q', q)
  if (filters.source) params.set('source', filters.source)
  if (filters.kind) params.set('kind', filters.kind)
  const query = params.toString()
  return query ? `?${query}` : ''
}
