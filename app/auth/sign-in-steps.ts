// Shared by the guard, the step pages and the route tests (ADR 045).
export type SignInStep = 'two-factor' | 'new-password'

/** Where each pending step is passed; the only signed-in pages a pending session may open. */
export const SIGN_IN_STEP_PATHS: Record<SignInStep, string> = {
  'two-factor': '/auth/two-factor',
  'new-password': '/auth/new-password',
}

/** Password rotation's age limit (Super Admin Settings → Security). */
export const PASSWORD_MAX_AGE_DAYS = 90

/** How many recovery codes an account gets at enrolment and each regeneration. */
export const RECOVERY_CODE_COUNT = 10
