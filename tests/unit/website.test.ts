import { expect, test } from 'vitest'
import { websiteSchema } from '#app/validation/profile'

test.each([
  ['example.com', 'https://example.com'],
  ['  http://example.com/a?b=c  ', 'http://example.com/a?b=c'],
  ['', ''],
])('accepts %j as %j', (input, stored) => {
  expect(websiteSchema.parse(input)).toBe(stored)
})

test.each([
  // The URL parser strips these, so the parsed URL looks fine while the stored value keeps them.
  ['https://example.com\n/evil'],
  ['https://exa\nmple.com'],
  ['https://example.com/\r\nSet-Cookie: x=1'],
  ['https://example.com/\ttab'],
  ['https://example.com/a b'],
  ['https://example.com/\u0000'],
  ['javascript:alert(1)'],
  ['localhost'],
])('refuses %j', (input) => {
  const result = websiteSchema.safeParse(input)
  expect(result.success).toBe(false)
  expect(result.error?.issues[0]?.message).toBe('Please enter a valid URL')
})
