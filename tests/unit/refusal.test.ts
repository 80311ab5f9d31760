// One refusal type with named codes (issue 40 point 5): what ActionError(status, message, field),
// RateLimitedError(retryAfterSeconds, message, field) and UploadError(field, message, status)
// said, each with its arguments in its own order, is one Refusal(code, message, details). How
// intentAction answers each code is in intent-action.test.ts.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { IMAGE_REFUSALS, isRefusal, REFUSAL_STATUS, Refusal } from '#app/utils/action-error'

test('each code has its status, the ones the three classes used', () => {
  expect(REFUSAL_STATUS).toEqual({
    invalid: 400,
    unauthenticated: 401,
    forbidden: 403,
    not_found: 404,
    conflict: 409,
    unprocessable: 422,
    rate_limited: 429,
    provider_failed: 502,
    image_refused: 400,
    over_quota: 413,
  })
  const taken = new Refusal('conflict', 'This name is already taken', { field: 'name' })
  expect(taken).toMatchObject({
    name: 'Refusal',
    code: 'conflict',
    status: 409,
    message: 'This name is already taken',
    field: 'name',
  })
  expect(new Refusal('not_found', 'Thing not found').field).toBeUndefined()
  const limited = new Refusal('rate_limited', 'Slow down', { retryAfterSeconds: 60 })
  expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 60 })
})

test('isRefusal tells refusals apart by code', () => {
  const image = new Refusal('over_quota', 'Full', { field: 'logo' })
  const limited = new Refusal('rate_limited', 'Slow down', { retryAfterSeconds: 60 })
  expect(isRefusal(image)).toBe(true)
  expect(isRefusal(image, ...IMAGE_REFUSALS)).toBe(true)
  expect(isRefusal(limited, ...IMAGE_REFUSALS)).toBe(false)
  expect(isRefusal(limited, 'rate_limited')).toBe(true)
  expect(isRefusal(new Error('boom'))).toBe(false)
  expect(isRefusal(new Response('no', { status: 400 }))).toBe(false)
})

test('no other error class of app/ carries a refusal (a status, a field or a wait)', () => {
  const sources = readdirSync('app', { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
  const classes = sources.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(/class (\w+) extends Error \{([\s\S]*?)\n\}/g)]
      .filter(
        ([, name, body]) =>
          name !== 'Refusal' && /\b(field|retryAfterSeconds|status)\b/.test(body ?? ''),
      )
      .map(([, name]) => `${file}: ${name}`)
  })
  expect(classes).toEqual([])
})
