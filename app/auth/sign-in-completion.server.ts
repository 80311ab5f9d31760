// A sign-in is complete when its session owes no second step: right after the password for most
// accounts, after the code, recovery code, passkey or enrolment for the others (ADR 045). That is
// when a pending "Delete my account" is cancelled (ADR 053), on every path alike, in the
// transaction that completes the session.

import { cancelAccountDeletion } from '#app/models/account-deletions.server'
import { recordAccountAudit } from '#app/models/audit.server'
import { markSessionTwoFactorVerified } from '#app/models/authenticators.server'
import type { Transaction } from '#drizzle/db.server'

/** What a completed sign-in tells the person besides "signed in". */
export type SignInCompletion = { deletionCancelled: boolean }

/**
 * Cancels the account's pending deletion, if any (audited). True when there was one: the sign-in
 * then says "Your account deletion was cancelled".
 */
export async function cancelDeletionAtSignIn(
  tx: Transaction,
  organizationId: string,
  userId: string,
) {
  const cancelled = await cancelAccountDeletion(tx, organizationId, userId)
  if (!cancelled) return false
  await recordAccountAudit(tx, organizationId, userId, 'account.deletion_cancelled', {
    reason: 'sign-in',
    scheduledFor: cancelled.scheduledFor.toISOString(),
  })
  return true
}

/** The session passed its second step: it is complete, and the sign-in's effects apply. */
export async function completeSecondStep(
  tx: Transaction,
  organizationId: string,
  userId: string,
  sessionId: string,
): Promise<SignInCompletion> {
  await markSessionTwoFactorVerified(tx, organizationId, sessionId)
  return { deletionCancelled: await cancelDeletionAtSignIn(tx, organizationId, userId) }
}
