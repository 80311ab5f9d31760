// The contacts list's filters (issue 41 point 12): read from a URL without ever refusing it, and
// written back into the links of the list's exports and of a contact's page.
import { describe, expect, test } from 'vitest'
import {
  CONTACT_SOURCES,
  ContactIdSchema,
  contactListQuery,
  readContactFilters,
} from '#app/validation/contact-filters'

const read = (query: string) => readContactFilters(new URLSearchParams(query))

describe('readContactFilters', () => {
  test('each source and each kind is read as given', () => {
    for (const source of CONTACT_SOURCES) expect(read(`source=${source}`)).toEqual({ source })
    expect(read('kind=personal')).toEqual({ kind: 'personal' })
    expect(read('kind=company&source=saved')).toEqual({ kind: 'company', source: 'saved' })
  })

  test('anything else is left out, never an error', () => {
    for (const query of ['', 'source=', 'source=Lead', 'source=spam', 'kind=both', 'kind=%00']) {
      expect(read(query), query).toEqual({})
    }
    // The first of repeated params counts, as URLSearchParams.get reads it.
    expect(read('source=lead&source=spam')).toEqual({ source: 'lead' })
  })
})

test('contactListQuery writes the search and filters back, nothing for none', () => {
  expect(contactListQuery('', {})).toBe('')
  expect(contactListQuery('Ann & Co', { source: 'lead', kind: 'personal' })).toBe(
    '?q=Ann+%26+Co&source=lead&kind=personal',
  )
})

test('a contact id is a uuid, so anything else is not looked up', () => {
  expect(ContactIdSchema.safeParse('00000000-0000-4000-8000-000000000000').success).toBe(true)
  expect(ContactIdSchema.safeParse('not-a-uuid').success).toBe(false)
})
