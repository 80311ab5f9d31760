// Checksums of table contents, for tests that prove a request or call changed nothing.

import { sql } from 'drizzle-orm'
import { flushCardEvents } from '#app/cards/event-batcher.server'
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
  // Counts a request queued earlier (a save, a tap, an exchange: ADR 082) are written first, so
  // the batcher's timer never lands between a test's two checksums.
  await flushCardEvents().catch(() => {})
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

/**
 * Counts the rows written to each table of the public schema from now on, per table, in a schema
 * of its own (so no checksum sees it): a row trigger on every table bumps its table's count in the
 * writing transaction, so a rolled-back write counts nothing and a committed one always counts.
 * Returns a reader of the counts. A test that proves "nothing written" after each of thousands of
 * requests compares the counts first and takes a checksum only when a table it watches was
 * written (an UPDATE that leaves a row as it was counts, and the checksum then decides).
 * Installed once per test file's database, as its owner.
 */
export async function installWriteCounter() {
  const db = getDb()
  await db.execute(sql`create schema if not exists test_writes`)
  await db.execute(
    sql`create table if not exists test_writes.counts (name text primary key, n bigint not null)`,
  )
  // Security definer: the app's login writes through row-level security and its own grants.
  await db.execute(sql`
    create or replace function test_writes.bump() returns trigger
    language plpgsql security definer set search_path = pg_catalog, test_writes as $$
    begin
      insert into test_writes.counts as c (name, n) values (tg_table_name, 1)
        on conflict (name) do update set n = c.n + 1;
      return null;
    end $$`)
  for (const { table_name: table } of await publicTables(db)) {
    const name = sql.identifier(table)
    await db.execute(sql`drop trigger if exists test_writes_rows on ${name}`)
    await db.execute(
      sql`create trigger test_writes_rows after insert or update or delete on ${name}
            for each row execute function test_writes.bump()`,
    )
    await db.execute(sql`drop trigger if exists test_writes_truncate on ${name}`)
    await db.execute(
      sql`create trigger test_writes_truncate after truncate on ${name}
            for each statement execute function test_writes.bump()`,
    )
  }
  return async (options: { exclude?: string[] } = {}) => {
    const rows = rowsOf<{ name: string; n: string | number }>(
      await db.execute(sql`select name, n from test_writes.counts order by name`),
    )
    const counts: Record<string, number> = {}
    for (const row of rows) {
      if (!options.exclude?.includes(row.name)) counts[row.name] = Number(row.n)
    }
    return counts
  }
}
