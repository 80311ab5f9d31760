// The account's second factor (ADR 045): its sealed TOTP key and the hashes of its unused
// recovery codes live on the user row; whether a session passed the second step, on the session.
import { and, eq, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { sessions, users } from '#drizzle/schema'

/** Stores the authenticator's sealed key and a fresh set of recovery code hashes. */
export async function setTwoFactor(
  db: Queryable,
  organizationId: string,
  userId: string,
  values: { totpKeySealed: string; recoveryCodeHashes: string[] },
) {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
}

/** Replaces every recovery code (the old ones stop working). */
export async function setRecoveryCodes(
  db: Queryable,
  organizationId: string,
  userId: string,
  recoveryCodeHashes: string[],
) {
  await db
    .update(users)
    .set({ recoveryCodeHashes, updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
}

/** Turns the authenticator off: no key, no recovery codes. */
export async function clearTwoFactor(db: Queryable, organizationId: string, userId: string) {
  await db
    .update(users)
    .set({ totpKeySealed: null, recoveryCodeHashes: [], updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
}

/**
 * Uses a recovery code: removes its hash in the one statement that finds it, so two requests
 * with the same code cannot both pass (the second finds nothing). True when it was there.
 */
export async function consumeRecoveryCode(
  db: Queryable,
  organizationId: string,
  userId: string,
  codeHash: string,
) {
  const rows = await db
    .update(users)
    .set({ recoveryCodeHashes: sql`array_remove(${users.recoveryCodeHashes}, ${codeHash})` })
    .where(
      and(
        eq(users.organizationId, organizationId),
        eq(users.id, userId),
        sql`${codeHash} = any(${users.recoveryCodeHashes})`,
      ),
    )
    .returning({ id: users.id })
  return rows.length > 0
}

/** Records that this session passed the sign-in's second step. */
export async function markSessionTwoFactorVerified(
  db: Queryable,
  organizationId: string,
  sessionId: string,
) {
  await db
    .update(sessions)
    .set({ twoFactorVerified: true })
    .where(and(eq(sessions.organizationId, organizationId), eq(sessions.id, sessionId)))
}

/** Records that this session opened the emailed link that lets it enrol (ADR 054). */
export async function markSessionEnrolmentEmailConfirmed(
  db: Queryable,
  organizationId: string,
  sessionId: string,
) {
  await db
    .update(sessions)
    .set({ enrolmentEmailConfirmed: true })
    .where(and(eq(sessions.organizationId, organizationId), eq(sessions.id, sessionId)))
}
