// Values a client chooses (a device's log lines, a path, a header) reach the server's log as
// data, never as lines of their own (issue 39 point 3): one record per event, the values JSON
// strings (CR, LF and every other control character escaped, Unicode line separators too, which
// some log viewers break lines at), each cut to a length, so nobody writes a line that looks like
// the server's own or fills the log with one request.

/** The most characters of one client value the log keeps. */
export const MAX_LOGGED_VALUE = 500

/** The value cut to `max` characters, with a mark saying how much was left out. */
export function cappedValue(value: string, max = MAX_LOGGED_VALUE) {
  return value.length > max ? `${value.slice(0, max)}…[${value.length - max} more]` : value
}

type LoggedData = Record<string, string | number | boolean | null | string[]>

/** One log line: the message (the server's own words), then the client's values as JSON. */
export function clientDataLine(message: string, data: LoggedData) {
  const capped = Object.fromEntries(
    Object.entries(data).map(([name, value]) => [
      name,
      typeof value === 'string'
        ? cappedValue(value)
        : Array.isArray(value)
          ? value.map((item) => cappedValue(item))
          : value,
    ]),
  )
  return `${message} ${JSON.stringify(capped).replace(/[\u2028\u2029\u0085]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`
}
