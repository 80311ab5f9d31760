// SCIM directory sync (issue 42 point 2, ADR 089): the agency's bearer tokens and its
// provisioning log. Tokens are looked up by their SHA-256 inside the agency's own organization,
// so a token of another agency is simply not found.
import { and, count, desc, eq, gte, isNull, lt, or, type SQL } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { scimEvents, scimTokens } from '#drizzle/schema'

export type ScimToken = typeof scimTokens.$inferSelect
export type ScimEvent = typeof scimEvents.$inferSelect

export async function insertScimToken(
  db: Queryable,
  organizationId: string,
  input: { name: string; tokenHash: string; lastFour: string; createdByUserId: string | null },
) {
  const [row] = await db
    .insert(scimTokens)
    .values({ organizationId, ...input })
    .returning()
  if (!row) throw new Error('scim token insert returned nothing')
  return row
}

/** The organization's tokens, newest first, revoked ones included (the admin's list). */
export function listScimTokens(db: Queryable, organizationId: string) {
  return db
    .select()
    .from(scimTokens)
    .where(eq(scimTokens.organizationId, organizationId))
    .orderBy(desc(scimTokens.createdAt), desc(scimTokens.id))
}

export async function findScimToken(db: Queryable, organizationId: string, tokenId: string) {
  const [row] = await db
    .select()
    .from(scimTokens)
    .where(and(eq(scimTokens.organizationId, organizationId), eq(scimTokens.id, tokenId)))
  return row
}

/** A token of the organization by hash that is neither revoked nor past its expiry. */
export async function findUsableScimToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
  now = new Date(),
) {
  const [row] = await db
    .select()
    .from(scimTokens)
    .where(
      and(
        eq(scimTokens.organizationId, organizationId),
        eq(scimTokens.tokenHash, tokenHash),
        isNull(scimTokens.revokedAt),
        or(isNull(scimTokens.expiresAt), gte(scimTokens.expiresAt, now)),
      ),
    )
  return row
}

export async function markScimTokenUsed(db: Queryable, organizationId: string, tokenId: string) {
  await db
    .update(scimTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(scimTokens.organizationId, organizationId), eq(scimTokens.id, tokenId)))
}

/**
 * Ends a live token at `expiresAt` (rotation's overlap: the old token works until then), or at
 * once when revoked. The row after the change, or undefined when the id names no live token.
 */
export async function endScimToken(
  db: Queryable,
  organizationId: string,
  tokenId: string,
  end: { expiresAt: Date } | { revokedAt: Date },
) {
  const [row] = await db
    .update(scimTokens)
    .set(end)
    .where(
      and(
        eq(scimTokens.organizationId, organizationId),
        eq(scimTokens.id, tokenId),
        isNull(scimTokens.revokedAt),
      ),
    )
    .returning()
  return row
}

export type NewScimEvent = Omit<typeof scimEvents.$inferInsert, 'organizationId' | 'id'>

export async function recordScimEvent(db: Queryable, organizationId: string, event: NewScimEvent) {
  await db.insert(scimEvents).values({ organizationId, ...event })
}

export type ScimEventFilter = { status: 'all' | 'ok' | 'error'; limit: number; offset: number }

function eventsWhere(organizationId: string, status: ScimEventFilter['status']) {
  const where: SQL[] = [eq(scimEvents.organizationId, organizationId)]
  if (status === 'ok') where.push(lt(scimEvents.status, 400))
  if (status === 'error') where.push(gte(scimEvents.status, 400))
  return and(...where)
}

/** The provisioning log, newest first. */
export function listScimEvents(db: Queryable, organizationId: string, filter: ScimEventFilter) {
  return db
    .select()
    .from(scimEvents)
    .where(eventsWhere(organizationId, filter.status))
    .orderBy(desc(scimEvents.createdAt), desc(scimEvents.id))
    .limit(filter.limit)
    .offset(filter.offset)
}

export async function countScimEvents(
  db: Queryable,
  organizationId: string,
  status: ScimEventFilter['status'],
) {
  const [row] = await db
    .select({ n: count() })
    .from(scimEvents)
    .where(eventsWhere(organizationId, status))
  return row?.n ?? 0
}
