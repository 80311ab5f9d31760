// Checksums of table contents, for tests that prove a request or call changed nothing.
import { sql } from 'drizzle-orm'
import { getDb } from '#drizzle/db.server'

/** The rows of a raw `execute` result: an array on postgres.js, `{ rows }` on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

type TableList = { table_name: string; scoped: boolean }[]

// The public tables of each database, read once: a test's own schema does not change while it
// runs, and the fuzz test takes a checksum after every refused request (thousands of them).
const tablesOf = new WeakMap<object, Promise<TableList>>()

function publicTables(db: ReturnType<typeof getDb>) {
  let tables = tablesOf.get(db)
  if (!tables) {
    tables = db
      .execute(sql`
        select t.table_name, exists (
          select 1 from information_schema.columns c
          where c.table_schema = 'public' and c.table_name = t.table_name
            and c.column_name = 'organization_id') as scoped
        from information_schema.tables t
        where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
        order by t.table_name`)
      .then((result) => rowsOf<TableList[number]>(result))
    tablesOf.set(db, tables)
    // A failed read is not kept: the next call asks again.
    tables.catch(() => tablesOf.delete(db))
  }
  return tables
}

/**
 * One md5 per table of the public schema, over every row (or, with `organizationId`, over that
 * tenant's rows in each table with an organization_id, plus its organizations row).
 * Run on the owner connection, so row-level security hides nothing. One statement for all the
 * tables: a round trip per table made the checksum most of the fuzz test's time.
 */
export async function databaseChecksum(
  options: { organizationId?: string; exclude?: string[] } = {},
) {
  const db = getDb()
  const { organizationId, exclude = [] } = options
  const parts = []
  for (const { table_name: table, scoped } of await publicTables(db)) {
    if (exclude.includes(table)) continue
    let where = sql`true`
    if (organizationId) {
      if (table === 'organizations') where = sql`t.id = ${organizationId}`
      else if (scoped) where = sql`t.organization_id = ${organizationId}`
      else continue
    }
    parts.push(
      sql`select ${table}::text as name, (select md5(string_agg(t::text, '|' order by t::text))
            from ${sql.identifier(table)} t where ${where}) as sum`,
    )
  }
  const sums: Record<string, string> = {}
  if (parts.length === 0) return sums
  const rows = rowsOf<{ name: string; sum: string | null }>(
    await db.execute(sql.join(parts, sql` union all `)),
  )
  for (const row of rows) sums[row.name] = row.sum ?? 'empty'
  return sums
}
