// Telling "the database cannot be reached" and "the disk is full" apart from every other error,
// so a request answers 503 (the spec's database warning, or its "Saving is paused") instead of a
// 500, and the process stays up.
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

/** The spec's words for a write the disk cannot take (ADR 033): one text for every answer. */
export const SAVING_PAUSED_MESSAGE =
  'Saving is paused: the server is short of disk space. Nothing was changed; please try again later.'

// SQLSTATE 53100 (disk_full: PGlite's and Postgres's "could not extend file", "could not write
// to file … No space left on device"); Node's ENOSPC and EDQUOT for files written beside the
// database. The text for errors that lost their code on the way (PGlite's WASM file system).
const DISK_FULL_CODES = new Set(['53100', 'ENOSPC', 'EDQUOT'])
const DISK_FULL_TEXT = /could not extend file|no space left on device|disk quota exceeded/i

/**
 * The one test of "the disk is full" (issue 39 point 4): whatever the driver, a wrapped error
 * (Drizzle's DrizzleQueryError keeps the driver's as its cause) or a bare message. An error
 * that carries a code is judged by its code alone, and the text is read only from the innermost
 * error of a chain in which nothing has a code: a wrapper's message quotes the query's
 * parameters, and a driver's message for another SQLSTATE may echo the input, so a visitor
 * typing "no space left on device" must not pause saving.
 */
export function isDiskFull(error: unknown): boolean {
  let innermost: unknown = error
  let coded = false
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code } = current as { code?: unknown }
    if (typeof code === 'string' && code !== '') {
      if (DISK_FULL_CODES.has(code)) return true
      coded = true
    }
    if (current instanceof AggregateError && current.errors.some(isDiskFull)) return true
    innermost = current
    current = (current as { cause?: unknown }).cause
  }
  if (coded) return false
  const { message } = (innermost ?? {}) as { message?: unknown }
  return typeof message === 'string' && DISK_FULL_TEXT.test(message)
}

/**
 * Thrown from the data layer for a write the disk could not take: the same 503 and words as
 * the disk-space gate's (app/storage/disk-space.server.ts), which the error boundaries show.
 */
export function diskFullResponse() {
  const response = new Response(JSON.stringify({ diskFull: true, error: SAVING_PAUSED_MESSAGE }), {
    status: 503,
    // Logs name it (databaseErrorSummary) without reading the body.
    statusText: 'Saving is paused',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'Retry-After': '60',
    },
  })
  diskFullAnswers.add(response)
  return response
}

const diskFullAnswers = new WeakSet<Response>()

/** The data layer's answer for a write the disk could not take (diskFullResponse). */
export function isDiskFullResponse(error: unknown): boolean {
  return error instanceof Response && diskFullAnswers.has(error)
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
    if (isDiskFull(error)) throw diskFullResponse()
    throw redactDatabaseError(error)
  }
}

/**
 * A unit of database work failed because the database could not be reached: the driver's error,
 * or the 503 the data layer already turned it into (not a full disk's: reads go on then).
 * Caches serve what they last read then.
 */
export function isOutage(error: unknown): boolean {
  if (isDiskFullResponse(error)) return false
  return (error instanceof Response && error.status === 503) || isDatabaseUnavailable(error)
}
