// A sign-in is complete when its session owes no second step: right after the password for most
// accounts, after the code, recovery code, passkey or enrolment for the others (ADR 045). A
// pending "Delete my account" is no longer cancelled then (issue 41 point 16, ADR 081): the
// person may have signed in to download their data first, so the sign-in says the date and the
// banner offers to keep the account.

import { findAccountDeletion } from '#app/models/account-deletions.server'
import { markSessionTwoFactorVerified } from '#app/models/authenticators.server'
import type { Transaction } from '#drizzle/db.server'

/** What a completed sign-in tells the person besides "signed in". */
export type SignInCompletion = { deletionPending: Date | null }

/** The account's pending deletion, if any: the date the sign-in's toast names. */
export async function pendingDeletionAtSignIn(
  tx: Transaction,
  organizationId: string,
  userId: string,
) {
  return (await findAccountDeletion(tx, organizationId, userId))?.scheduledFor ?? null
}

/** The session passed its second step: it is complete, and the sign-in's effects apply. */
export async function completeSecondStep(
  tx: Transaction,
  organizationId: string,
  userId: string,
  sessionId: string,
): Promise<SignInCompletion> {
  await markSessionTwoFactorVerified(tx, organizationId, sessionId)
  return { deletionPending: await pendingDeletionAtSignIn(tx, organizationId, userId) }
}
