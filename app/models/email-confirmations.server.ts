import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { EMAIL_CONFIRMATION_LINK } from '#app/validation/token-lifetimes'
import type { Queryable } from '#drizzle/db.server'
import { emailConfirmationTokens, users } from '#drizzle/schema'

/** Stores a new confirmation token (hashed) for `email` and retires the user's unused ones. */
export async function insertEmailConfirmationToken(
  db: Queryable,
  organizationId: string,
  userId: string,
  email: string,
  tokenHash: string,
) {
  await retireEmailConfirmationTokens(db, organizationId, userId)
  await db.insert(emailConfirmationTokens).values({
    organizationId,
    userId,
    email,
    tokenHash,
    expiresAt: new Date(Date.now() + EMAIL_CONFIRMATION_LINK.ms),
  })
}

/** Deletes the user's unused tokens: after a resend or an email change, older links confirm nothing. */
export async function retireEmailConfirmationTokens(
  db: Queryable,
  organizationId: string,
  userId: string,
) {
  await db
    .delete(emailConfirmationTokens)
    .where(
      and(
        eq(emailConfirmationTokens.organizationId, organizationId),
        eq(emailConfirmationTokens.userId, userId),
        isNull(emailConfirmationTokens.usedAt),
      ),
    )
}

// Usable: this tenant's, unused, unexpired, and for the address the account still has (a link
// sent to an earlier address must not confirm a later one).
const usable = (organizationId: string, tokenHash: string) =>
  and(
    eq(emailConfirmationTokens.organizationId, organizationId),
    eq(emailConfirmationTokens.tokenHash, tokenHash),
    isNull(emailConfirmationTokens.usedAt),
    gt(emailConfirmationTokens.expiresAt, new Date()),
    sql`exists (select 1 from ${users} where ${users.organizationId} = ${emailConfirmationTokens.organizationId}
      and ${users.id} = ${emailConfirmationTokens.userId} and ${users.email} = ${emailConfirmationTokens.email})`,
  )

export async function findUsableConfirmationToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .select({ userId: emailConfirmationTokens.userId, email: emailConfirmationTokens.email })
    .from(emailConfirmationTokens)
    .where(usable(organizationId, tokenHash))
    .limit(1)
  return row ?? null
}

/** Marks the token used and returns its user and address, in one statement: a token works once. */
export async function consumeConfirmationToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .update(emailConfirmationTokens)
    .set({ usedAt: new Date() })
    .where(usable(organizationId, tokenHash))
    .returning({ userId: emailConfirmationTokens.userId, email: emailConfirmationTokens.email })
  return row ?? null
}
