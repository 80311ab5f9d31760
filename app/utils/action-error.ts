// The one refusal (issue 40 point 5): whatever an action's domain code refuses (a value the rules
// refuse, a send limit, an image) is a Refusal with a code from the named list below, a message
// saying what to do, and `field`, when given, the form field it is shown next to (else above the
// form and as a toast). The code fixes the HTTP status. intentAction
// (./intent-action.server) turns it into the reply; nothing is written, since it is thrown
// inside the transaction it refuses. It replaces ActionError(status, message, field),
// RateLimitedError(retryAfterSeconds, message, field) and UploadError(field, message, status).

/** Each code and its status. */
export const REFUSAL_STATUS = {
  /** A value the rules refuse. */
  invalid: 400,
  /** Credentials not accepted. */
  unauthenticated: 401,
  /** Not allowed. */
  forbidden: 403,
  /** Not found, or not yours. */
  not_found: 404,
  /** A conflict with what is stored (taken, past a plan's limit, changed meanwhile). */
  conflict: 409,
  /** A save that failed for a reason the person cannot fix. */
  unprocessable: 422,
  /** Past a send or attempt limit: `retryAfterSeconds` says when to try again. */
  rate_limited: 429,
  /** A provider that did not answer. */
  provider_failed: 502,
  /** An uploaded image refused (not an image, too large, unknown): `field` names its field. */
  image_refused: 400,
  /** An image refused by a storage quota (the image itself was fine). */
  over_quota: 413,
} as const

export type RefusalCode = keyof typeof REFUSAL_STATUS
export type RefusalStatus = (typeof REFUSAL_STATUS)[RefusalCode]

/** The codes of a refused image, which always name the image's field. */
export const IMAGE_REFUSALS = ['image_refused', 'over_quota'] as const
type ImageCode = (typeof IMAGE_REFUSALS)[number]

type Details<C extends RefusalCode> = C extends 'rate_limited'
  ? { field?: string; retryAfterSeconds: number }
  : C extends ImageCode
    ? { field: string }
    : { field?: string }

/** A refusal of one of these codes, with what that code always carries. */
export type RefusalOf<C extends RefusalCode> = C extends RefusalCode
  ? Refusal<C> &
      (C extends 'rate_limited' ? { retryAfterSeconds: number } : unknown) &
      (C extends ImageCode ? { field: string } : unknown)
  : never

export class Refusal<C extends RefusalCode = RefusalCode> extends Error {
  override name = 'Refusal'
  readonly code: C
  readonly status: (typeof REFUSAL_STATUS)[C]
  readonly field?: string
  readonly retryAfterSeconds?: number

  constructor(
    code: C,
    message: string,
    ...[details]: C extends 'rate_limited' | ImageCode ? [Details<C>] : [Details<C>?]
  ) {
    super(message)
    this.code = code
    this.status = REFUSAL_STATUS[code]
    const { field, retryAfterSeconds } = (details ?? {}) as {
      field?: string
      retryAfterSeconds?: number
    }
    if (field !== undefined) this.field = field
    if (retryAfterSeconds !== undefined) this.retryAfterSeconds = retryAfterSeconds
  }
}

/** Whether `error` is a refusal, of one of `codes` when given. */
export function isRefusal<C extends RefusalCode = RefusalCode>(
  error: unknown,
  ...codes: C[]
): error is RefusalOf<C> {
  return (
    error instanceof Refusal &&
    (codes.length === 0 || (codes as RefusalCode[]).includes(error.code))
  )
}
