// What every CRM client shares (ADR 094): the failures the forwarding tells apart, and one JSON
// exchange within CRM_TIMEOUT_MS, cancelled at shutdown, that never follows a redirect. The
// clients (gohighlevel, hubspot, salesforce) map each CRM's statuses and error bodies onto these.
import { getEnv } from '#app/env.server'
import { callOutside, OutsideCallError } from '#app/utils/outside-call.server'

/** The CRM refused the key, token or credentials (401/403): no retry will change that. */
export class CrmKeyRejectedError extends Error {
  override name = 'CrmKeyRejectedError'
}
/** Anything else: a timeout, a network error, a 5xx, an answer we cannot read. */
export class CrmUnavailableError extends Error {
  override name = 'CrmUnavailableError'
}
/** The CRM has no such record (a contact deleted there already). */
export class CrmNotFoundError extends Error {
  override name = 'CrmNotFoundError'
}
/**
 * The CRM refused the record itself (a field it does not have, a value it does not take): the
 * same request would be refused again, so it is a failure to show, not one to retry.
 */
export class CrmRecordRefusedError extends Error {
  override name = 'CrmRecordRefusedError'
}

export type CrmAnswer = { status: number; body: unknown }

/**
 * `work` within CRM_TIMEOUT_MS, cancelled at shutdown; either end is the CRM unavailable, like any
 * other call that got no answer.
 */
export function withinCrmDeadline<T>(
  what: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadlineMs = getEnv().CRM_TIMEOUT_MS
  return callOutside(what, work, { deadlineMs }).catch((error: unknown) => {
    if (!(error instanceof OutsideCallError)) throw error
    throw new CrmUnavailableError(
      error.reason === 'deadline' ? `no answer within ${deadlineMs} ms` : error.message,
    )
  })
}

/**
 * One request to a CRM named `what` (its words appear in errors the user reads). Answers every
 * status with its body read (JSON when it is JSON, else null); throws CrmUnavailableError when
 * no answer came.
 */
export function exchangeWithCrm(
  what: string,
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<CrmAnswer> {
  return withinCrmDeadline(what, async (signal) => {
    let response: Response
    try {
      response = await fetch(url, { ...init, signal, redirect: 'error' })
    } catch {
      if (signal.aborted) throw signal.reason
      throw new CrmUnavailableError(`could not reach ${what}`)
    }
    let text: string
    try {
      text = await response.text()
    } catch {
      if (signal.aborted) throw signal.reason
      throw new CrmUnavailableError(`${what} did not finish its answer`)
    }
    let body: unknown = null
    if (text) {
      try {
        body = JSON.parse(text)
      } catch {
        body = null
      }
    }
    return { status: response.status, body }
  })
}

/** A JSON request with an OAuth access token, as HubSpot's and Salesforce's REST APIs take it. */
export function exchangeJsonWithCrm(
  what: string,
  url: URL,
  accessToken: string,
  method: string,
  body?: unknown,
): Promise<CrmAnswer> {
  return exchangeWithCrm(what, url, {
    method,
    headers: {
      Authorization: `Bearer ${accessToken}`,
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
}

/**
 * The body of a REST CRM's answer, once the client has read the statuses it treats its own way
 * (401, 403): 404 is no such record, 5xx worth a retry, any other 4xx the `record` refused, with
 * the CRM's `message` from the error body.
 */
export function bodyOfCrmAnswer(what: string, record: string, answer: CrmAnswer, message: unknown) {
  const { status } = answer
  if (status === 404) throw new CrmNotFoundError(`${what} has no such record`)
  if (status >= 500) throw new CrmUnavailableError(`${what} answered ${status}`)
  if (status >= 400) {
    throw new CrmRecordRefusedError(
      `${what} refused the ${record}: ${crmMessage(message, `status ${status}`)}`,
    )
  }
  return answer.body
}

/** The part of a CRM's error body worth showing: its message, shortened, never the request. */
export function crmMessage(text: unknown, fallback: string) {
  if (typeof text !== 'string' || !text.trim()) return fallback
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine
}

/**
 * A call on a record the CRM may have deleted since: `{ answer }` when it went through, `null`
 * when the CRM has no such record, so that an update can fall back to a create and a delete of
 * a record already gone counts as done.
 */
export async function unlessGone<T>(call: () => Promise<T>): Promise<{ answer: T } | null> {
  try {
    return { answer: await call() }
  } catch (error) {
    if (error instanceof CrmNotFoundError) return null
    throw error
  }
}

/** The id the CRM gave the record it saved; without one, the save cannot be trusted. */
export function savedId(id: unknown, what: string, record: string): string {
  if (typeof id !== 'string' || !id) {
    throw new CrmUnavailableError(`${what} did not return the ${record} it saved`)
  }
  return id
}
