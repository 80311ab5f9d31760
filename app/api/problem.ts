// RFC 9457 problem details for the REST API (ADR 092): every refusal of /api/v1 is one of these,
// as application/problem+json, never a 500 for what a caller sent.
import type { z } from 'zod'
import { Refusal } from '#app/utils/action-error'
import type { ProblemSchema } from '#app/validation/api'

export type Problem = z.infer<typeof ProblemSchema>

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
}

type ProblemCode =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
const CODE_OF: Partial<Record<number, ProblemCode>> = {
  400: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
}

/**
 * A refusal the API answers as a problem (the one Refusal of app/utils/action-error.ts): thrown in the
 * request's transaction, it rolls back. `answerStatus` is the HTTP status of the answer, which
 * the protocol fixes beyond the refusal codes (405, 413, 415, 422, 429).
 */
export class ApiProblem extends Refusal<ProblemCode> {
  constructor(
    readonly answerStatus: number,
    detail: string,
    readonly extra: Partial<Problem> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(CODE_OF[answerStatus] ?? 'unprocessable', detail)
  }

  get body(): Problem {
    return problemBody(this.answerStatus, this.message, this.extra)
  }
}

export function problemBody(status: number, detail: string, extra: Partial<Problem> = {}): Problem {
  return { type: 'about:blank', title: TITLES[status] ?? 'Error', status, detail, ...extra }
}

export function problemResponse(problem: ApiProblem) {
  return new Response(JSON.stringify(problem.body), {
    status: problem.answerStatus,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      ...problem.headers,
    },
  })
}

/** A zod failure as a 400 problem naming each field by JSON pointer. */
export function invalidProblem(where: 'body' | 'query' | 'path', error: z.ZodError) {
  return new ApiProblem(400, `The request's ${where} is not valid`, {
    errors: error.issues.slice(0, 20).map((issue) => ({
      pointer: `/${issue.path.map(String).join('/')}`,
      detail: issue.message,
    })),
  })
}
