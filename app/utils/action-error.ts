// The one refusal an action's domain code throws: the status says what kind (400 a value the
// rules refuse, 401 credentials not accepted, 403 not allowed, 404 not found or not yours, 409 a
// conflict with what is stored, 422 a save that failed for a reason the person cannot fix, 502 a
// provider that did not answer), the message what to do, and `field`, when given, the form field
// it is shown next to (else above the form and as a toast). intentAction
// (./intent-action.server) turns it into the reply; nothing is written, since it is thrown
// inside the transaction it refuses.
export type ActionErrorStatus = 400 | 401 | 403 | 404 | 409 | 422 | 502

export class ActionError extends Error {
  override name = 'ActionError'

  constructor(
    readonly status: ActionErrorStatus,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}
