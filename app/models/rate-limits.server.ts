import { sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { rateLimits } from '#drizzle/schema'

/**
 * Counts one hit against `key` in a fixed window and returns the count so far and when
 * the window ends. One statement, so concurrent instances never lose a hit.
 */
export async function hitRateLimit(db: Queryable, key: string, windowMs: number) {
  const resetAt = new Date(Date.now() + windowMs)
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= now() then excluded.reset_at else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt })
  if (!row) throw new Error('rate limit upsert returned nothing')
  return row
}

export async function peekRateLimit(db: Queryable, key: string) {
  const [row] = await db
    .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${key} and ${rateLimits.resetAt} > now()`)
  return row ?? null
}

export async function clearRateLimit(db: Queryable, key: string) {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`)
}
