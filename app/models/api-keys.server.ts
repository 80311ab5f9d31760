// The REST API's keys and idempotency answers (issue 43, ADR 092). Keys are looked up by their
// SHA-256 inside the host's agency (withTenant), so another agency's key is simply not found;
// they belong to the organization, the creator is only remembered.
import { and, desc, eq, gte, isNull, lt, or } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { apiIdempotencyKeys, apiKeys } from '#drizzle/schema'

export type ApiKey = typeof apiKeys.$inferSelect

export async function insertApiKey(
  db: Queryable,
  organizationId: string,
  input: {
    name: string
    scopes: string[]
    keyHash: string
    lastFour: string
    expiresAt: Date | null
    createdByUserId: string | null
  },
) {
  const [row] = await db
    .insert(apiKeys)
    .values({ organizationId, ...input })
    .returning()
  if (!row) throw new Error('api key insert returned nothing')
  return row
}

/** The organization's keys, newest first, revoked ones included (the admin's list). */
export function listApiKeys(db: Queryable, organizationId: string) {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, organizationId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
}

/** A key of the organization by hash that is neither revoked nor past its expiry. */
export async function findUsableApiKey(
  db: Queryable,
  organizationId: string,
  keyHash: string,
  now = new Date(),
) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.organizationId, organizationId),
        eq(apiKeys.keyHash, keyHash),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gte(apiKeys.expiresAt, now)),
      ),
    )
  return row
}

/** The key's last use: when and from which address (shown in the admin's list). */
export async function markApiKeyUsed(
  db: Queryable,
  organizationId: string,
  keyId: string,
  address: string,
) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(), lastUsedIp: address || null })
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, keyId)))
}

/** Revokes a live key at once; the row after, or undefined when the id names no live key. */
export async function revokeApiKeyRow(db: Queryable, organizationId: string, keyId: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(apiKeys.organizationId, organizationId),
        eq(apiKeys.id, keyId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning()
  return row
}

export type IdempotentAnswer = typeof apiIdempotencyKeys.$inferSelect

/** How long an answer is kept under its key (ADR 092): a resend follows a lost answer closely. */
export const IDEMPOTENT_ANSWER_KEPT_MS = 24 * 60 * 60_000

export async function findIdempotentAnswer(
  db: Queryable,
  organizationId: string,
  idempotencyKey: string,
) {
  const [row] = await db
    .select()
    .from(apiIdempotencyKeys)
    .where(
      and(
        eq(apiIdempotencyKeys.organizationId, organizationId),
        eq(apiIdempotencyKeys.idempotencyKey, idempotencyKey),
      ),
    )
  return row
}

/**
 * Keeps the first answer to a create under its idempotency key; false when a concurrent request
 * with the same key saved one first (the caller's transaction then rolls back its create).
 */
export async function saveIdempotentAnswer(
  db: Queryable,
  organizationId: string,
  answer: Omit<IdempotentAnswer, 'organizationId' | 'createdAt'>,
) {
  const saved = await db
    .insert(apiIdempotencyKeys)
    .values({ organizationId, ...answer })
    .onConflictDoNothing()
    .returning({ key: apiIdempotencyKeys.idempotencyKey })
  return saved.length > 0
}

/** Forgets the organization's idempotency answers older than `before` (kept a day, ADR 092). */
export async function deleteIdempotentAnswersBefore(
  db: Queryable,
  organizationId: string,
  before: Date,
) {
  await db
    .delete(apiIdempotencyKeys)
    .where(
      and(
        eq(apiIdempotencyKeys.organizationId, organizationId),
        lt(apiIdempotencyKeys.createdAt, before),
      ),
    )
}
