// The request log (pino-http in server.ts): one line per request with its route, never the
// secrets a URL carries. Links in emails put single-use tokens in the path
// (`/invitations/{token}`) and in query strings (`?token=` of reset, confirmation and unsubscribe
// links), and log files outlive them and travel further than the database (issue 26 point 3).
// So every query value is replaced (its name stays, which is what tells routes apart) and so is
// every path segment that is a token. Headers are not logged, Referer included: it repeats the
// previous page's URL.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Writable } from 'node:stream'
import type { DestinationStream, Logger } from 'pino'
import { pinoHttp } from 'pino-http'
import { cappedValue } from './client-data-log'

/** Path prefixes whose next segment is a token (route files named `$token`). */
const TOKEN_SEGMENT = /^(\/invitations\/)[^/?#]+/
/** Query parameters that only steer Remix and never carry anything of a person's. */
const PLAIN_PARAMETERS = new Set(['_data', '_routes', 'index'])
export const REDACTED = '[redacted]'

/** The URL as the log records it. */
export function loggedUrl(url: string) {
  const queryAt = url.indexOf('?')
  const path = queryAt === -1 ? url : url.slice(0, queryAt)
  const query = queryAt === -1 ? null : url.slice(queryAt + 1)
  const loggedPath = path.replace(TOKEN_SEGMENT, `$1${REDACTED}`)
  if (query === null) return loggedPath
  const parameters = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [name = ''] = pair.split('=', 1)
      let decoded = name
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '))
      } catch {}
      return PLAIN_PARAMETERS.has(decoded) ? pair : `${name}=${REDACTED}`
    })
  return `${loggedPath}?${parameters.join('&')}`
}

/** The most characters of a URL and a Host the log keeps: both are the client's to choose. */
const MAX_LOGGED_URL = 2_048
const MAX_LOGGED_HOST = 255

export const requestLogSerializers = {
  req: (req: { method?: string; url?: string; headers?: Record<string, unknown> }) => ({
    method: req.method,
    url: cappedValue(loggedUrl(req.url ?? ''), MAX_LOGGED_URL),
    host:
      typeof req.headers?.host === 'string'
        ? cappedValue(req.headers.host, MAX_LOGGED_HOST)
        : undefined,
  }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
}

/** The middleware server.ts logs requests with. */
export function requestLogger(logger: Logger) {
  return pinoHttp<IncomingMessage, ServerResponse>({
    logger,
    autoLogging: { ignore: (req) => req.url?.startsWith('/assets/') ?? false },
    serializers: requestLogSerializers,
  })
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
}

type LogRecord = {
  level?: number
  time?: number
  msg?: string
  req?: { method?: string; url?: string; host?: string }
  res?: { statusCode?: number }
  responseTime?: number
  err?: { stack?: string; message?: string }
}

/**
 * One line as `npm run dev` prints it: `12:04:31 GET /dashboard 200 14ms acme.localhost` for a
 * request, `12:04:31 INFO message` for the rest. Made from the record pino wrote, after the
 * serializers above: what a line can show is what the JSON line would have shown, never more.
 */
export function readableLine(json: string) {
  let record: LogRecord
  try {
    record = JSON.parse(json) as LogRecord
  } catch {
    return json
  }
  const time = new Date(record.time ?? Date.now()).toTimeString().slice(0, 8)
  const level = LEVELS[record.level ?? 30] ?? String(record.level)
  if (record.req && record.res) {
    const { method = '?', url = '', host = '' } = record.req
    const ms = Math.round(record.responseTime ?? 0)
    const failed = record.err ? ` ${record.err.message ?? ''}` : ''
    return `${time} ${method} ${url} ${record.res.statusCode ?? '-'} ${ms}ms ${host}${failed}`.trimEnd()
  }
  const stack = record.err?.stack ? `\n${record.err.stack}` : ''
  return `${time} ${level} ${record.msg ?? ''}${stack}`
}

/** The destination the development server logs to: readable lines instead of JSON. */
export function readableLog(out: NodeJS.WritableStream = process.stdout): DestinationStream {
  return new Writable({
    write(chunk, _encoding, done) {
      const lines = String(chunk).split('\n').filter(Boolean)
      out.write(lines.map((line) => `${readableLine(line)}\n`).join(''))
      done()
    },
  })
}
