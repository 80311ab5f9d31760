// Issue 28's card details: each kind of link takes only its own service's https addresses, with
// the message next to the field that is wrong; the limits say what they are.
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import {
  addressLine,
  BIO_MAX_LENGTH,
  CardExtrasSchema,
  directionsUrl,
  LINK_HTTPS_ONLY,
  LINK_INVALID,
  LINK_KINDS,
  LINK_LABEL_REQUIRED,
  LINKS_MAX,
  LINKS_TOO_MANY,
  linkHostMessage,
  normalizeLinkUrl,
} from '#app/validation/card-details'
import { CardDetailsSchema } from '#app/validation/profile'
import { cardLinkKind, phoneType } from '#drizzle/schema'

/** A form post as the editor sends it, parsed as the action parses it. */
function submit(fields: Record<string, string>) {
  const form = new FormData()
  form.set('title', 'Work')
  form.set('firstName', 'Ada')
  form.set('lastName', 'Lovelace')
  for (const [key, value] of Object.entries(fields)) form.set(key, value)
  const submission = parseWithZod(form, { schema: CardDetailsSchema })
  return {
    status: submission.status,
    error: submission.status === 'error' ? submission.error : undefined,
    value: submission.status === 'success' ? submission.value : undefined,
  }
}

describe('links, per kind', () => {
  const accepted: [string, string, string][] = [
    ['linkedin', 'https://www.linkedin.com/in/ada', 'https://www.linkedin.com/in/ada'],
    ['linkedin', 'linkedin.com/in/ada', 'https://linkedin.com/in/ada'],
    ['x', 'https://x.com/ada', 'https://x.com/ada'],
    ['x', 'twitter.com/ada', 'https://twitter.com/ada'],
    ['instagram', 'https://instagram.com/ada', 'https://instagram.com/ada'],
    ['facebook', 'https://m.facebook.com/ada', 'https://m.facebook.com/ada'],
    ['github', 'github.com/ada', 'https://github.com/ada'],
    ['youtube', 'https://youtu.be/abc', 'https://youtu.be/abc'],
    ['tiktok', 'https://www.tiktok.com/@ada', 'https://www.tiktok.com/@ada'],
    ['whatsapp', '+44 7700 900123', 'https://wa.me/447700900123'],
    ['whatsapp', 'https://wa.me/447700900123', 'https://wa.me/447700900123'],
    ['booking', 'https://calendly.com/ada/30min', 'https://calendly.com/ada/30min'],
    ['custom', 'https://ada.example.test/blog', 'https://ada.example.test/blog'],
  ]
  test.each(accepted)('%s takes %s', (kind, raw, stored) => {
    expect(normalizeLinkUrl(kind as never, raw)).toEqual({ ok: true, url: stored })
  })

  const refused: [string, string, string][] = [
    ['linkedin', 'https://evil.example.test/in/ada', linkHostMessage('linkedin')],
    ['linkedin', 'https://linkedin.com.evil.test/x', linkHostMessage('linkedin')],
    ['x', 'https://notx.com/ada', linkHostMessage('x')],
    ['github', 'http://github.com/ada', LINK_HTTPS_ONLY],
    ['custom', 'javascript:alert(1)', LINK_INVALID],
    ['custom', 'data:text/html,hi', LINK_INVALID],
    ['custom', 'https://user:pw@example.test', LINK_INVALID],
    ['custom', 'https://example.test/a b', LINK_INVALID],
    ['custom', 'https://localhost/x', LINK_INVALID],
    ['custom', 'https://example.test:8080/', LINK_INVALID],
    ['whatsapp', '12', LINK_INVALID],
    ['custom', 'https://127.0.0.1/x', LINK_INVALID],
    ['booking', 'https://example.test/book', linkHostMessage('booking')],
  ]
  test.each(refused)('%s refuses %s', (kind, raw, message) => {
    expect(normalizeLinkUrl(kind as never, raw)).toEqual({ ok: false, message })
  })

  test("a wrong address is refused next to its own row's field", () => {
    const result = submit({
      'links[0].kind': 'github',
      'links[0].url': 'github.com/ada',
      'links[1].kind': 'linkedin',
      'links[1].url': 'https://github.com/ada',
    })
    expect(result.status).toBe('error')
    expect(result.error).toEqual({ 'links[1].url': [linkHostMessage('linkedin')] })
  })

  test('a custom link needs a label, said next to the label', () => {
    const result = submit({ 'links[0].kind': 'custom', 'links[0].url': 'https://a.example.test' })
    expect(result.error).toEqual({ 'links[0].label': [LINK_LABEL_REQUIRED] })
  })

  test('rows without an address are dropped; the order of the rest is kept', () => {
    const result = submit({
      'links[0].kind': 'github',
      'links[0].url': 'github.com/ada',
      'links[1].kind': 'custom',
      'links[1].label': 'Left empty',
      'links[2].kind': 'x',
      'links[2].url': 'x.com/ada',
    })
    expect(result.status).toBe('success')
    expect(result.value?.links).toEqual([
      { kind: 'github', label: '', url: 'https://github.com/ada' },
      { kind: 'x', label: '', url: 'https://x.com/ada' },
    ])
  })

  test(`at most ${LINKS_MAX} links`, () => {
    const fields: Record<string, string> = {}
    for (let i = 0; i <= LINKS_MAX; i += 1) {
      fields[`links[${i}].kind`] = 'github'
      fields[`links[${i}].url`] = `github.com/ada${i}`
    }
    expect(submit(fields).error).toEqual({ links: [LINKS_TOO_MANY] })
  })

  test('an unknown kind is refused next to its field', () => {
    const result = submit({ 'links[0].kind': 'myspace', 'links[0].url': 'https://a.example.test' })
    expect(Object.keys(result.error ?? {})).toEqual(['links[0].kind'])
  })

  test("the database's kinds and phone types are these", () => {
    expect(cardLinkKind.enumValues).toEqual([...LINK_KINDS])
    expect(phoneType.enumValues).toEqual(['mobile', 'work'])
  })
})

describe('the other details', () => {
  test('limits and phone numbers say what is wrong, next to the field', () => {
    const result = submit({
      bio: 'x'.repeat(BIO_MAX_LENGTH + 1),
      pronouns: 'p'.repeat(41),
      phone2: 'call me maybe',
      phone2Type: 'fax',
      addressPostalCode: '1'.repeat(21),
    })
    expect(result.error).toMatchObject({
      bio: [`Bio must be at most ${BIO_MAX_LENGTH} characters`],
      pronouns: ['Pronouns must be at most 40 characters'],
      phone2: ['Please enter a valid phone number'],
      addressPostalCode: ['Postal code must be at most 20 characters'],
    })
    expect(result.error?.phone2Type).toHaveLength(1)
  })

  test('everything is optional, with the phones typed mobile and work by default', () => {
    const parsed = CardExtrasSchema.parse({})
    expect(parsed).toMatchObject({ bio: '', phoneType: 'mobile', phone2Type: 'work', links: [] })
  })

  test('the address reads as one line, and directions search for it', () => {
    const line = addressLine({
      addressStreet: '12 St James Square',
      addressCity: 'London',
      addressRegion: '',
      addressPostalCode: 'SW1Y 4JH',
      addressCountry: 'United Kingdom',
    })
    expect(line).toBe('12 St James Square, SW1Y 4JH London, United Kingdom')
    expect(directionsUrl(line)).toBe(
      'https://www.google.com/maps/search/?api=1&query=12%20St%20James%20Square%2C%20SW1Y%204JH%20London%2C%20United%20Kingdom',
    )
  })
})
