import { and, eq, gt, isNull } from 'drizzle-orm'
import { PASSWORD_RESET_LINK } from '#app/validation/token-lifetimes'
import type { Queryable } from '#drizzle/db.server'
import { passwordResetTokens } from '#drizzle/schema'

/** Stores a new reset token (hashed) and retires the user's earlier unused ones. */
export async function insertPasswordResetToken(
  db: Queryable,
  organizationId: string,
  userId: string,
  tokenHash: string,
  /** A set-password link for an account someone else created lasts longer than a reset. */
  ttlMs = PASSWORD_RESET_LINK.ms,
) {
  await db
    .delete(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.organizationId, organizationId),
        eq(passwordResetTokens.userId, userId),
        isNull(passwordResetTokens.usedAt),
      ),
    )
  await db.insert(passwordResetTokens).values({
    organizationId,
    userId,
    tokenHash,
    expiresAt: new Date(Date.now() + ttlMs),
  })
}

const usable = (organizationId: string, tokenHash: string) =>
  and(
    eq(passwordResetTokens.organizationId, organizationId),
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, new Date()),
  )

export async function findUsableResetToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(usable(organizationId, tokenHash))
    .limit(1)
  return row ?? null
}

/** Marks the token used and returns its user, in one statement: a token works once. */
export async function consumeResetToken(db: Queryable, organizationId: string, tokenHash: string) {
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(usable(organizationId, tokenHash))
    .returning({ userId: passwordResetTokens.userId })
  return row ?? null
}
