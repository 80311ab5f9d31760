// Passkeys (WebAuthn), a second way to pass the sign-in's second step (ADR 045, Passkeys), and
// the challenge of a passkey ceremony, kept on the session that asked for it.
import { and, asc, eq, gt, type SQL, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { passkeys, sessions } from '#drizzle/schema'

export type Passkey = typeof passkeys.$inferSelect

/** The user's passkeys in the organization, narrowed by `more` (one of them). */
const passkeysOf = (organizationId: string, userId: string, ...more: SQL[]) =>
  and(eq(passkeys.organizationId, organizationId), eq(passkeys.userId, userId), ...more)

export async function listPasskeys(db: Queryable, organizationId: string, userId: string) {
  return db
    .select()
    .from(passkeys)
    .where(passkeysOf(organizationId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id))
}

export async function insertPasskey(
  db: Queryable,
  organizationId: string,
  userId: string,
  values: {
    credentialId: string
    publicKey: Buffer
    counter: number
    transports: string[]
    name: string
  },
) {
  const [row] = await db
    .insert(passkeys)
    .values({ organizationId, userId, ...values })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

export async function findUserPasskey(
  db: Queryable,
  organizationId: string,
  userId: string,
  credentialId: string,
) {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(passkeysOf(organizationId, userId, eq(passkeys.credentialId, credentialId)))
  return row ?? null
}

/** After a passed sign-in: the authenticator's new signature counter and when. */
export async function recordPasskeyUse(
  db: Queryable,
  organizationId: string,
  passkeyId: string,
  counter: number,
) {
  await db
    .update(passkeys)
    .set({ counter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.organizationId, organizationId), eq(passkeys.id, passkeyId)))
}

export async function renamePasskey(
  db: Queryable,
  organizationId: string,
  userId: string,
  passkeyId: string,
  name: string,
) {
  const rows = await db
    .update(passkeys)
    .set({ name })
    .where(passkeysOf(organizationId, userId, eq(passkeys.id, passkeyId)))
    .returning({ id: passkeys.id })
  return rows.length > 0
}

export async function deletePasskey(
  db: Queryable,
  organizationId: string,
  userId: string,
  passkeyId: string,
) {
  const rows = await db
    .delete(passkeys)
    .where(passkeysOf(organizationId, userId, eq(passkeys.id, passkeyId)))
    .returning({ name: passkeys.name })
  return rows[0] ?? null
}

/** Keeps a ceremony's challenge on the session (one at a time: a new one replaces the last). */
export async function setSessionChallenge(
  db: Queryable,
  organizationId: string,
  sessionId: string,
  challenge: string,
  expiresAt: Date,
) {
  await db
    .update(sessions)
    .set({ webauthnChallenge: challenge, webauthnChallengeExpiresAt: expiresAt })
    .where(and(eq(sessions.organizationId, organizationId), eq(sessions.id, sessionId)))
}

/**
 * Uses the session's challenge: clears it in the one statement that finds it unexpired and equal
 * to `challenge`, so it works once even for two racing requests. True when it was there.
 */
export async function consumeSessionChallenge(
  db: Queryable,
  organizationId: string,
  sessionId: string,
  challenge: string,
) {
  const rows = await db
    .update(sessions)
    .set({ webauthnChallenge: null, webauthnChallengeExpiresAt: null })
    .where(
      and(
        eq(sessions.organizationId, organizationId),
        eq(sessions.id, sessionId),
        eq(sessions.webauthnChallenge, challenge),
        gt(sessions.webauthnChallengeExpiresAt, sql`now()`),
      ),
    )
    .returning({ id: sessions.id })
  return rows.length > 0
}

/**
 * The session's challenge while an emailed enrolment link waits (ADR 054): the token's hash,
 * marked so no passkey ceremony's challenge is ever one.
 */
export const enrolmentLinkChallenge = (tokenHash: string) => `email:${tokenHash}`

/** Whether some session of the organization holds this unexpired challenge (the outbox page). */
export async function isSessionChallengeLive(
  db: Queryable,
  organizationId: string,
  challenge: string,
) {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.organizationId, organizationId),
        eq(sessions.webauthnChallenge, challenge),
        gt(sessions.webauthnChallengeExpiresAt, sql`now()`),
      ),
    )
    .limit(1)
  return rows.length > 0
}
