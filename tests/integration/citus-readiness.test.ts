// Issue 44 point 6 (ADR 098): the schema is ready for a distributed Postgres (Citus) sharded by
// organization_id. Read from the migrated catalog, so a migration that breaks a rule fails here:
// every tenant table is keyed by (organization_id, id), every unique key holds organization_id,
// and tenant tables reference each other through it (co-located joins). What a conversion still
// has to change is listed in docs/citus.md, and the lists there must equal what the catalog says.
// No Citus runs here (none is packaged for this machine): the check is on paper.
import { readFileSync } from 'node:fs'
import { getTableName, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '#drizzle/db.server'
import { tenantTables } from '#drizzle/schema'
import { rowsOf } from '#tests/checksum'

/**
 * Replicated to every node (`create_reference_table`). Each holds a rule across tenants or is
 * read before any tenant is known, is small and rarely written, and references no tenant table.
 */
const REFERENCE_TABLES: Record<string, string> = {
  organizations:
    'the tenants themselves: every tenant table references it, a host resolves to a row before any tenant is known, and slugs, verified custom domains and the one platform are unique across tenants',
  sending_domains:
    'an email sending domain belongs to one organization across the platform (sending_domains_domain_unique); one row per agency, written when an admin sets it up and by the DNS re-check',
  sso_providers:
    'referenced by sso_domains, which must be a reference table (a reference table may reference only reference and local tables); a few rows per agency, written by its admins',
  sso_domains:
    'a verified email domain signs in through one agency across the platform (sso_domains_verified_domain); a few rows per agency',
}

/**
 * Kept on the coordinator (`citus_add_local_table_to_metadata`): platform-wide state every app
 * process reads or claims, with no tenant to shard by.
 */
const COORDINATOR_TABLES: Record<string, string> = {
  jobs: 'the queue of every tenant: workers claim due jobs across tenants (FOR UPDATE SKIP LOCKED wants one node), idempotency keys are global, organization_id is nullable, and its NOTIFY trigger must fire where the app LISTENs',
  platform_settings:
    'one row for the whole platform; its NOTIFY trigger must fire where the app LISTENs',
  rate_limits: 'counters keyed by address or account name, checked before any tenant is known',
}

type Table = { name: string; hasOrg: boolean; orgNotNull: boolean; hasId: boolean }
type UniqueKey = {
  table: string
  name: string
  primary: boolean
  isConstraint: boolean
  partial: boolean
  columns: string[]
}
type ForeignKey = {
  name: string
  table: string
  referenced: string
  columns: string[]
  referencedColumns: string[]
  onDelete: string
}

let tables: Table[]
let uniqueKeys: UniqueKey[]
let foreignKeys: ForeignKey[]
let distributed: Set<string>

beforeAll(async () => {
  const db = getDb()
  tables = rowsOf<Table>(
    await db.execute(sql`
      select c.relname as name,
        exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_id' and not a.attisdropped) as "hasOrg",
        exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_id' and a.attnotnull) as "orgNotNull",
        exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'id' and not a.attisdropped) as "hasId"
      from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
      order by 1`),
  )
  // Column lists come as text: postgres.js under drizzle leaves arrays of a raw query unparsed.
  uniqueKeys = rowsOf<Omit<UniqueKey, 'columns'> & { columns: string }>(
    await db.execute(sql`
      select t.relname as table, i.relname as name, x.indisprimary as primary,
        exists (select 1 from pg_constraint k where k.conindid = x.indexrelid and k.contype in ('p', 'u')) as "isConstraint",
        x.indpred is not null as partial,
        array_to_string(array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, n)
              join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.n), ',') as columns
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_class i on i.oid = x.indexrelid
      where t.relnamespace = 'public'::regnamespace and x.indisunique
      order by 1, 2`),
  ).map((k) => ({ ...k, columns: k.columns.split(',') }))
  foreignKeys = rowsOf<
    Omit<ForeignKey, 'columns' | 'referencedColumns'> & {
      columns: string
      referencedColumns: string
    }
  >(
    await db.execute(sql`
      select k.conname as name, t.relname as table, r.relname as referenced,
        array_to_string(array(select a.attname::text from unnest(k.conkey) with ordinality c(attnum, n)
              join pg_attribute a on a.attrelid = k.conrelid and a.attnum = c.attnum order by c.n), ',') as columns,
        array_to_string(array(select a.attname::text from unnest(k.confkey) with ordinality c(attnum, n)
              join pg_attribute a on a.attrelid = k.confrelid and a.attnum = c.attnum order by c.n), ',') as "referencedColumns",
        k.confdeltype::text as "onDelete"
      from pg_constraint k
      join pg_class t on t.oid = k.conrelid
      join pg_class r on r.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace
      order by 2, 1`),
  ).map((k) => ({
    ...k,
    columns: k.columns.split(','),
    referencedColumns: k.referencedColumns.split(','),
  }))
  distributed = new Set(
    tables
      .filter((t) => t.hasOrg && !(t.name in REFERENCE_TABLES) && !(t.name in COORDINATOR_TABLES))
      .map((t) => t.name),
  )
})

const sorted = (values: Iterable<string>) => [...new Set(values)].sort()
const isReferenceOrLocal = (table: string) =>
  table in REFERENCE_TABLES || table in COORDINATOR_TABLES

describe('every table has a place on a Citus cluster', () => {
  test('a table without organization_id is a reference or coordinator table, and each listed one exists', () => {
    const names = new Set(tables.map((t) => t.name))
    expect(tables.filter((t) => !t.hasOrg && !isReferenceOrLocal(t.name))).toEqual([])
    expect(
      [...Object.keys(REFERENCE_TABLES), ...Object.keys(COORDINATOR_TABLES)].filter(
        (name) => !names.has(name),
      ),
    ).toEqual([])
    expect(distributed.size).toBeGreaterThan(40)
  })

  test('the distribution column is never null', () => {
    expect(tables.filter((t) => distributed.has(t.name) && !t.orgNotNull)).toEqual([])
  })

  test('every table with organization_id but the job queue is under row-level security (schema.tenantTables)', () => {
    const secured = Object.values(tenantTables).map((table) => getTableName(table))
    expect(sorted(secured)).toEqual(
      sorted(tables.filter((t) => t.hasOrg && t.name !== 'jobs').map((t) => t.name)),
    )
  })
})

describe('keys of the distributed (tenant) tables', () => {
  test('(a) each has a primary key or unique constraint holding organization_id, and (organization_id, id) when it has an id', () => {
    const failing = [...distributed].filter((table) => {
      const keys = uniqueKeys.filter((k) => k.table === table && k.isConstraint && !k.partial)
      const t = tables.find((row) => row.name === table)
      const withOrg = keys.some((k) => k.columns.includes('organization_id'))
      const byOrgAndId = keys.some(
        (k) => sorted(k.columns).join() === 'id,organization_id' && k.columns.length === 2,
      )
      return !withOrg || (t?.hasId && !byOrgAndId)
    })
    expect(failing).toEqual([])
  })

  test('(b) every unique constraint and unique index holds organization_id, primary keys on id aside', () => {
    const failing = uniqueKeys
      .filter((k) => distributed.has(k.table) && !k.columns.includes('organization_id'))
      .filter((k) => !(k.primary && k.columns.join() === 'id'))
      .map((k) => `${k.table}.${k.name}`)
    expect(failing).toEqual([])
  })

  test('a primary key on id alone sits beside UNIQUE (organization_id, id), and docs/citus.md moves exactly those', () => {
    const onIdAlone = uniqueKeys
      .filter((k) => distributed.has(k.table) && k.primary && k.columns.join() === 'id')
      .map((k) => k.table)
    for (const table of onIdAlone) {
      expect(
        uniqueKeys.some(
          (k) =>
            k.table === table &&
            k.isConstraint &&
            !k.partial &&
            k.columns.join() === 'organization_id,id',
        ),
        table,
      ).toBe(true)
    }
    expect(sorted(doc.primaryKeysMoved)).toEqual(sorted(onIdAlone))
  })
})

describe('foreign keys', () => {
  test('(c) a tenant table references another through organization_id on both sides, in the same place', () => {
    const failing = foreignKeys
      .filter((k) => distributed.has(k.table) && distributed.has(k.referenced))
      .filter((k) => {
        const at = k.columns.indexOf('organization_id')
        return at === -1 || k.referencedColumns[at] !== 'organization_id'
      })
      .map((k) => k.name)
    expect(failing).toEqual([])
  })

  test('(d) tenant tables may reference reference tables; reference and coordinator tables never reference tenant tables, but for the ones docs/citus.md drops', () => {
    const intoTenants = foreignKeys
      .filter((k) => isReferenceOrLocal(k.table) && distributed.has(k.referenced))
      .map((k) => k.name)
    expect(sorted(intoTenants)).toEqual(sorted(doc.foreignKeysDropped))
    // A tenant table may not reference a coordinator table (Citus refuses distributed → local).
    expect(
      foreignKeys
        .filter((k) => distributed.has(k.table) && k.referenced in COORDINATOR_TABLES)
        .map((k) => k.name),
    ).toEqual([])
    // Nor a reference table a coordinator table, the other way round being fine (jobs → organizations).
    expect(
      foreignKeys
        .filter((k) => k.table in REFERENCE_TABLES && k.referenced in COORDINATOR_TABLES)
        .map((k) => k.name),
    ).toEqual([])
  })

  test('the keys that set a column null on delete are the ones docs/citus.md lists (Citus refuses SET NULL on a key holding the distribution column)', () => {
    const setNull = foreignKeys
      .filter((k) => distributed.has(k.table) && k.columns.includes('organization_id'))
      .filter((k) => k.onDelete === 'n' || k.onDelete === 'd')
      .map((k) => k.name)
    expect(sorted(setNull)).toEqual(sorted(doc.setNullForeignKeys))
  })
})

/** What docs/citus.md says, read the way an operator would copy it. */
const doc = (() => {
  const text = readFileSync('docs/citus.md', 'utf8')
  const all = (pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1] ?? '')
  const section = (heading: string) => {
    const start = text.indexOf(heading)
    if (start === -1) return ''
    const rest = text.slice(start + heading.length)
    const next = rest.search(/^#{2,3} /m)
    return next === -1 ? rest : rest.slice(0, next)
  }
  return {
    text,
    distributed: all(/create_distributed_table\('(\w+)', 'organization_id'/g),
    reference: all(/create_reference_table\('(\w+)'\)/g),
    coordinator: all(/citus_add_local_table_to_metadata\('(\w+)'\)/g),
    primaryKeysMoved: all(/alter table (\w+) drop constraint \w+_pkey/g),
    foreignKeysDropped: all(/alter table organizations drop constraint (\w+);/g),
    setNullForeignKeys: [...section('### Foreign keys that set null').matchAll(/`(\w+_fk)`/g)].map(
      (m) => m[1] ?? '',
    ),
  }
})()

describe('docs/citus.md', () => {
  test('distributes exactly the tenant tables, by organization_id', () => {
    expect(sorted(doc.distributed)).toEqual(sorted(distributed))
    expect(doc.distributed.length).toBe(distributed.size)
  })

  test('makes exactly the listed tables reference and coordinator tables', () => {
    expect(sorted(doc.reference)).toEqual(sorted(Object.keys(REFERENCE_TABLES)))
    expect(sorted(doc.coordinator)).toEqual(sorted(Object.keys(COORDINATOR_TABLES)))
  })

  test('names every trigger function the migrations create', async () => {
    const functions = rowsOf<{ name: string }>(
      await getDb().execute(sql`
        select distinct p.proname as name from pg_trigger g join pg_proc p on p.oid = g.tgfoid
        join pg_class c on c.oid = g.tgrelid
        where not g.tgisinternal and c.relnamespace = 'public'::regnamespace`),
    ).map((row) => row.name)
    expect(functions.filter((name) => !doc.text.includes(`\`${name}\``))).toEqual([])
  })
})
