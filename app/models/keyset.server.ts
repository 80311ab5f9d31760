// Keyset pages for the REST API (issue 43, ADR 092): rows in (changed at, id) order, a page
// starting after the last row of the one before, optionally only rows changed since a time.
// The cursor keeps the database's own text of the timestamp, so no microsecond is lost to a
// JavaScript Date and no row is skipped or repeated between pages.
import { and, asc, gt, gte, or, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'

/** Where a page starts: after this position, and (optionally) at or after `updatedSince`. */
export type KeysetPage = {
  limit: number
  after?: { at: string; id: string } | null
  updatedSince?: Date | null
}

/** The condition, order and position column of a keyset page over `at` and `id`. */
export function keyset(at: PgColumn, id: PgColumn, page: KeysetPage) {
  const conditions: SQL[] = []
  if (page.updatedSince) conditions.push(gte(at, page.updatedSince))
  if (page.after) {
    const after = sql`${page.after.at}::timestamptz`
    const position = or(gt(at, after), and(sql`${at} = ${after}`, gt(id, page.after.id)))
    if (position) conditions.push(position)
  }
  return {
    where: conditions.length ? and(...conditions) : undefined,
    orderBy: [asc(at), asc(id)] as const,
    position: sql<string>`${at}::text`.as('position'),
    // One row more than asked: whether another page follows.
    limit: page.limit + 1,
  }
}

/** The page's rows and the cursor of the next page (null on the last). */
export function pageOf<T extends { id: string; position: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit)
  const last = items.at(-1)
  const next = rows.length > limit && last ? { at: last.position, id: last.id } : null
  return { items, next }
}
