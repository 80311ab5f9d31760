// Telling "the database cannot be reached" apart from every other error, so a request answers
// 503 with the spec's database warning instead of a 500, and the process stays up.
import { redactDatabaseError } from './redact.server'

// postgres.js and Node socket codes, and SQLSTATE classes 08 (connection exception) and
// 57P01–57P03 (server shutting down, crashed, or not yet accepting connections).
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // Ours: a unit of work that did not settle within its time bound (drizzle/db.server.ts).
  'DATABASE_WORK_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
])

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps driver errors (DrizzleQueryError) with the driver's error as the cause.
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) {
      return true
    }
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** Thrown from the data layer; Remix passes a thrown Response through as the answer. */
export function databaseUnavailableResponse() {
  return new Response(JSON.stringify({ databaseError: true }), {
    status: 503,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'Retry-After': '5',
    },
  })
}

/**
 * Every unit of database work passes here, so this is where an error loses the values its query
 * was sent with, before anything above can log it (drizzle/redact.server.ts).
 */
export async function answeringUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw databaseUnavailableResponse()
    throw redactDatabaseError(error)
  }
}

/**
 * A unit of database work failed because the database could not be reached: the driver's error,
 * or the 503 the data layer already turned it into. Caches serve what they last read then.
 */
export function isOutage(error: unknown): boolean {
  return (error instanceof Response && error.status === 503) || isDatabaseUnavailable(error)
}
