// Checksums of table contents, for tests that prove a request or call changed nothing.
import { sql } from 'drizzle-orm'
import { getDb } from '#drizzle/db.server'

/** The rows of a raw `execute` result: an array on postgres.js, `{ rows }` on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

/**
 * One md5 per table of the public schema, over every row (or, with `organizationId`, over that
 * tenant's rows in each table with an organization_id, plus its organizations row).
 * Run on the owner connection, so row-level security hides nothing.
 */
export async function databaseChecksum(
  options: { organizationId?: string; exclude?: string[] } = {},
) {
  const db = getDb()
  const { organizationId, exclude = [] } = options
  const tables = rowsOf<{ table_name: string; scoped: boolean }>(
    await db.execute(sql`
      select t.table_name, exists (
        select 1 from information_schema.columns c
        where c.table_schema = 'public' and c.table_name = t.table_name
          and c.column_name = 'organization_id') as scoped
      from information_schema.tables t
      where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
      order by t.table_name`),
  )
  const sums: Record<string, string> = {}
  for (const { table_name: table, scoped } of tables) {
    if (exclude.includes(table)) continue
    let where = sql`true`
    if (organizationId) {
      if (table === 'organizations') where = sql`t.id = ${organizationId}`
      else if (scoped) where = sql`t.organization_id = ${organizationId}`
      else continue
    }
    const [row] = rowsOf<{ sum: string | null }>(
      await db.execute(
        sql`select md5(string_agg(t::text, '|' order by t::text)) as sum
            from ${sql.identifier(table)} t where ${where}`,
      ),
    )
    sums[table] = row?.sum ?? 'empty'
  }
  return sums
}
