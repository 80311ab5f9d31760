// Database errors as logs may carry them: without the values a query was sent with. Drizzle's
// DrizzleQueryError puts every parameter in its message ("Failed query: … params: …") and PGlite
// keeps them on its error (`params`, `queryOptions`): a failed batch of card views logged 75 KB
// lines, with visitor hashes, tokens' hashes or emails in them (issue 26 point 13).

const VALUE_FIELDS = ['params', 'parameters', 'queryOptions', 'args'] as const
const MAX_SQL = 160

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)

/** Strips parameter values from an error and the errors it wraps, in place; returns it. */
export function redactDatabaseError<T>(error: T): T {
  let current: unknown = error
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    redactOne(current as Record<string, unknown>)
    current = (current as { cause?: unknown }).cause
  }
  return error
}

function redactOne(error: Record<string, unknown>) {
  for (const field of VALUE_FIELDS) {
    if (Object.hasOwn(error, field)) {
      try {
        delete error[field]
      } catch {
        // A non-configurable field (postgres.js) is also not enumerable: no logger prints it.
      }
    }
  }
  if (typeof error.query === 'string') {
    try {
      error.query = clip(error.query, MAX_SQL)
    } catch {}
  }
  if (!(error instanceof Error) || !error.message.startsWith('Failed query: ')) return
  const statement = error.message.slice('Failed query: '.length).split('\nparams: ')[0] ?? ''
  error.message = `Failed query: ${clip(statement, MAX_SQL)}`
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '))
  error.stack = [`${error.name}: ${error.message}`, ...frames].join('\n')
}

/**
 * One short line for a log: the SQLSTATE (or driver code) and the database's own message, e.g.
 * `53100 could not write to file "pg_wal/xlogtemp.42": No space left on device`.
 */
export function databaseErrorSummary(error: unknown): string {
  if (error instanceof Response)
    return `${error.status} ${error.statusText || 'database unavailable'}`
  let code: string | undefined
  let message: string | undefined
  let current: unknown = error
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof candidate.code === 'string') code = candidate.code
    if (typeof candidate.message === 'string' && !candidate.message.startsWith('Failed query'))
      message = candidate.message
    current = candidate.cause
  }
  message ??= error instanceof Error ? redactDatabaseError(error).message : String(error)
  return clip(`${code ?? 'no code'} ${message.split('\n')[0]}`, 240)
}
