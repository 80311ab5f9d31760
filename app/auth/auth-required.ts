// The answer a protected loader or action gives a client-side data request (Remix's `{path}.data`)
// whose session is missing or expired. A document request is redirected to sign in instead; a
// client navigation cannot follow that redirect without losing where the user was, so the root
// error boundary shows the spec's 'Authentication Issue Detected' panel (spec §2, guard wrapper).

/** `message` is shown as the spec's 'Authentication error: {message}'. */
export type AuthRequiredData = { authRequired: true; message: string }

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.'

export function isAuthRequiredData(data: unknown): data is AuthRequiredData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { authRequired?: unknown }).authRequired === true
  )
}

/** Sign in, then come back to `path` (a same-origin path with its query). */
export function loginPathFor(path: string) {
  return `/auth/login?${new URLSearchParams({ redirectTo: path })}`
}
