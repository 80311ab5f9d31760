// Issue 26 point 3: the request log records the route, never a token of an emailed link. The
// requests go through the middleware server.ts logs with (pino-http and its serializers) and the
// test reads what pino wrote.
import { readdirSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  loggedUrl,
  readableLine,
  readableLog,
  requestLogger,
  requestLogSerializers,
} from '#app/utils/request-log'

const lines: string[] = []
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk))
    done()
  },
})
const log = requestLogger(pino({ level: 'info' }, sink))
// The development server's log (npm run dev): readable lines made from the same records.
const readable: string[] = []
const readableSink = new Writable({
  write(chunk, _encoding, done) {
    readable.push(...String(chunk).split('\n').filter(Boolean))
    done()
  },
})
const devLog = requestLogger(pino({ level: 'info' }, readableLog(readableSink)))
const server = createServer((req, res) => {
  ;(req.headers['x-log'] === 'dev' ? devLog : log)(req, res)
  res.statusCode = 200
  res.end('ok')
})
let origin = ''

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

// Shaped like the real ones: a link token (52 base32 characters) and an unsubscribe token.
const LINK_TOKEN = 'abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst'
const UNSUBSCRIBE_TOKEN =
  'b3JnOnVzZXI6bm90aWZpY2F0aW9ucw.AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK'

test('reset, confirmation, invitation, unsubscribe and lead data links are logged by route, without their token', async () => {
  const paths = [
    `/auth/reset-password?token=${LINK_TOKEN}`,
    `/auth/reset-password?_data=routes%2Fauth.reset-password&token=${LINK_TOKEN}`,
    `/auth/confirm-email?token=${LINK_TOKEN}`,
    `/invitations/${LINK_TOKEN}`,
    `/invitations/${LINK_TOKEN}/decline?_data=routes%2Finvitations.%24token_.decline`,
    `/email/unsubscribe?token=${UNSUBSCRIBE_TOKEN}`,
    `/email/unsubscribe?foo=1&token=${encodeURIComponent(UNSUBSCRIBE_TOKEN)}`,
    // A lead's receipt link (ADR 050).
    `/lead-data?token=${LINK_TOKEN}`,
  ]
  lines.length = 0
  for (const path of paths) {
    const response = await fetch(`${origin}${path}`, {
      headers: { Referer: `http://acme.localhost/auth/reset-password?token=${LINK_TOKEN}` },
    })
    expect(response.status).toBe(200)
  }
  const output = lines.join('')
  expect(lines).toHaveLength(paths.length)
  expect(output).not.toContain(LINK_TOKEN)
  expect(output).not.toContain(UNSUBSCRIBE_TOKEN.split('.')[1])
  expect(output).not.toContain(UNSUBSCRIBE_TOKEN.split('.')[0])
  const urls = lines.map((line) => (JSON.parse(line) as { req: { url: string } }).req.url)
  expect(urls).toEqual([
    '/auth/reset-password?token=[redacted]',
    '/auth/reset-password?_data=routes%2Fauth.reset-password&token=[redacted]',
    '/auth/confirm-email?token=[redacted]',
    '/invitations/[redacted]',
    '/invitations/[redacted]/decline?_data=routes%2Finvitations.%24token_.decline',
    '/email/unsubscribe?token=[redacted]',
    '/email/unsubscribe?foo=[redacted]&token=[redacted]',
    '/lead-data?token=[redacted]',
  ])
})

test('in development each request is one readable line (time, method, path, status, ms, host), tokens redacted the same way', async () => {
  readable.length = 0
  const paths = [
    '/dashboard',
    `/auth/reset-password?token=${LINK_TOKEN}`,
    `/invitations/${LINK_TOKEN}/decline`,
    `/email/unsubscribe?token=${UNSUBSCRIBE_TOKEN}`,
  ]
  for (const path of paths) {
    const response = await fetch(`${origin}${path}`, { headers: { 'X-Log': 'dev' } })
    expect(response.status).toBe(200)
  }
  const host = new URL(origin).host
  expect(readable).toHaveLength(paths.length)
  const output = readable.join('\n')
  expect(output).not.toContain(LINK_TOKEN)
  expect(output).not.toContain(UNSUBSCRIBE_TOKEN.split('.')[1])
  expect(output).not.toContain('{')
  const pattern = (path: string) =>
    new RegExp(`^\\d\\d:\\d\\d:\\d\\d GET ${path.replace(/[?[\]]/g, '\\$&')} 200 \\d+ms ${host}$`)
  expect(readable[0]).toMatch(pattern('/dashboard'))
  expect(readable[1]).toMatch(pattern('/auth/reset-password?token=[redacted]'))
  expect(readable[2]).toMatch(pattern('/invitations/[redacted]/decline'))
  expect(readable[3]).toMatch(pattern('/email/unsubscribe?token=[redacted]'))
})

test('in development other lines read as level and message, an error with its stack', () => {
  const time = new Date(2026, 10, 26, 9, 5, 7).getTime()
  expect(readableLine(JSON.stringify({ level: 30, time, msg: 'Brandcard listening' }))).toBe(
    '09:05:07 INFO Brandcard listening',
  )
  expect(
    readableLine(
      JSON.stringify({
        level: 50,
        time,
        msg: 'boom',
        err: { message: 'boom', stack: 'Error: boom\n    at x' },
      }),
    ),
  ).toBe('09:05:07 ERROR boom\nError: boom\n    at x')
  expect(readableLine('not json')).toBe('not json')
})

test('every route with a token in its path is logged without it', () => {
  // A new route file taking a `$token` fails here until the log knows its path.
  const routes = readdirSync('app/routes').filter((file) => file.includes('$token'))
  expect(routes.length).toBeGreaterThan(0)
  for (const file of routes) {
    const path = `/${file
      .replace(/\.tsx?$/, '')
      .split('.')
      .map((part) => (part.startsWith('$') ? LINK_TOKEN : part.replace(/_$/, '')))
      .join('/')}`
    expect(path).toContain(LINK_TOKEN)
    expect(loggedUrl(path), file).not.toContain(LINK_TOKEN)
  }
})

test('the URL and Host a client chooses are logged cut to a length (issue 39 point 3)', () => {
  const long = `/card/${'a'.repeat(5_000)}`
  const record = requestLogSerializers.req({
    method: 'GET',
    url: long,
    headers: { host: `${'h'.repeat(1_000)}.localhost` },
  })
  expect(record.url.length).toBeLessThan(2_100)
  expect(record.url.startsWith('/card/aaa')).toBe(true)
  expect(record.host?.length).toBeLessThan(300)
})
