// The steps a sign-in may still owe after the password (ADR 045), in the order they are asked:
// the second factor (a code, a recovery code, or enrolment when it is required and missing),
// then a new password once rotation is on and the password is older than 90 days. The one guard
// (app/auth/guards.server.ts) asks this for every signed-in request, so no page or action is
// reachable past a pending step.
import type { User } from '#app/models/users.server'
import { cachedPlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { PASSWORD_MAX_AGE_DAYS, SIGN_IN_STEP_PATHS, type SignInStep } from './sign-in-steps'

const DAY_MS = 86_400_000

/** Whether rotation asks this user for a new password now. */
export async function passwordExpired(user: Pick<User, 'passwordChangedAt'>, now = Date.now()) {
  const { passwordRotation } = await cachedPlatformSettings()
  return (
    passwordRotation && now - user.passwordChangedAt.getTime() >= PASSWORD_MAX_AGE_DAYS * DAY_MS
  )
}

/** The step this session still owes, or null when it is fully signed in. */
export async function pendingSignInStep(session: {
  user: Pick<User, 'passwordChangedAt'>
  twoFactorVerified: boolean
}): Promise<SignInStep | null> {
  if (!session.twoFactorVerified) return 'two-factor'
  if (await passwordExpired(session.user)) return 'new-password'
  return null
}

export { SIGN_IN_STEP_PATHS }
