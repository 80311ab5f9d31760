// One PGlite per test process, reused by the files that share the process (`isolate: false`),
// when it can be given back as clean as a new database from the run's snapshot; otherwise the
// next file opens a new one, as every file did before. Opening a database from the snapshot costs
// 370-490 ms of CPU (a new WebAssembly instance, PGlite's share files and the snapshot unpacked
// into it); emptying and checking one costs about half of that (ADR 123).
//
// Clean means: the catalog is as the snapshot left it (no table, column, policy, trigger,
// function, role, grant or setting added, changed or dropped), every table of the app's is empty
// with new files and the planner's figures of a new database, the session's settings, temporary
// tables, SQL-level prepared statements and advisory locks are discarded, no channel is still
// listened to and no transaction open, and the client object has none of its methods replaced
// (a spy left in place). The check compares a fingerprint of the catalog and the relations' sizes
// with the one taken of the process's first database just opened from the snapshot.
import type { PGlite } from '@electric-sql/pglite'
import { type DatabaseHandle, pgliteHandle } from '#drizzle/db.server'

type Pooled = { client: PGlite; ownProperties: string }

// Kept on globalThis: the setup files are evaluated anew for each test file, the process is not.
const store = globalThis as {
  __brandcardPglite?: {
    idle?: Pooled
    fingerprint?: string
    tables?: string[]
    /** The UPDATE that puts the planner's figures back as a new database has them. */
    sizes?: string
    off?: boolean
  }
}
store.__brandcardPglite ??= {}
const state = store.__brandcardPglite

const clients = new WeakMap<DatabaseHandle, Pooled>()

/** The process's idle client in a new handle, or undefined when there is none. */
export function takeReusedPglite(): DatabaseHandle | undefined {
  const idle = state.idle
  state.idle = undefined
  if (!idle) return undefined
  const handle = pgliteHandle(idle.client)
  clients.set(handle, idle)
  return handle
}

/**
 * Notes a handle just opened from the snapshot, before the file uses it, so that its client can
 * be reused after the file. The first one in the process gives the reference fingerprint, and
 * shows whether the snapshot's tables are empty (what emptying them gives back); if one holds a
 * row, no client is reused in this process.
 */
export async function adoptNewPglite(handle: DatabaseHandle) {
  const client = (handle as unknown as { client: PGlite }).client
  // Ready first: PGlite sets some of its own properties as it starts.
  await client.waitReady
  clients.set(handle, { client, ownProperties: ownPropertiesOf(client) })
  if (state.fingerprint !== undefined || state.off) return
  state.tables = await tablesOf(client)
  if ((await tablesWithRows(client, state.tables)).length > 0) state.off = true
  state.sizes = await sizesAsNow(client)
  state.fingerprint = await fingerprintOf(client)
}

/**
 * After the file: the handle's client emptied and checked, and kept for the next file when it
 * is as clean as a new database; closed otherwise.
 */
export async function releasePglite(handle: DatabaseHandle) {
  const pooled = clients.get(handle)
  if (!pooled || state.off || pooled.client.closed) return closeQuietly(handle)
  try {
    const clean = await empty(pooled)
    if (clean) state.idle = pooled
    else await closeQuietly(handle)
  } catch {
    await closeQuietly(handle)
  }
}

async function closeQuietly(handle: DatabaseHandle) {
  const pooled = clients.get(handle)
  if (pooled?.client.closed) return
  await handle.close().catch(() => {})
}

function ownPropertiesOf(client: PGlite) {
  return Object.getOwnPropertyNames(client).sort().join(',')
}

/** Discards the session, empties the app's tables and compares the fingerprint. */
async function empty({ client, ownProperties }: Pooled) {
  if (ownPropertiesOf(client) !== ownProperties || state.fingerprint === undefined) return false
  // A channel still listened to has a callback in PGlite's own map, which DISCARD ALL (UNLISTEN *)
  // would leave behind to fire in the next file: the app's listeners end with the file
  // (tests/setup/process-state.ts), so one left is a test's.
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from pg_listening_channels()',
  )
  if (rows[0]?.n !== 0) return false
  // Outside any transaction: DISCARD ALL refuses to run in one, and a file that left one open is
  // not clean.
  await client.exec('DISCARD ALL')
  const tables = state.tables ?? []
  // As superuser, past row-level security; TRUNCATE triggers (none today) stay off meanwhile.
  // Every table of the app's gets new, empty files and its indexes new ones as a new database
  // has them. A DELETE and VACUUM of the tables that hold rows took a tenth of the CPU, but left
  // their indexes larger and the tables marked vacuumed, which the planner reads: a hot query's
  // plan changed (tests/integration/hot-query-plans.test.ts).
  if (tables.length > 0) {
    await client.exec(`SET session_replication_role = replica;
      TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE;
      RESET session_replication_role;`)
  }
  // TRUNCATE also marks each relation's size and row count as unknown, where a new database has
  // its indexes at one page and no row: the planner's estimates as they were.
  if (state.sizes) await client.exec(state.sizes)
  return fingerprintAsNew(client)
}

/**
 * An UPDATE that puts back the planner's figures of every relation of the database's own
 * (pg_class's relpages, reltuples and relallvisible) as they are now.
 */
async function sizesAsNow(client: PGlite) {
  const { rows } = await client.query<{ row: string }>(
    `select format('(%s, %s, %s::real, %s)', oid, relpages, reltuples, relallvisible) as row
       from pg_class where oid >= ${FIRST_NORMAL_OID}`,
  )
  if (rows.length === 0) return undefined
  return `update pg_class c set relpages = v.pages, reltuples = v.tuples, relallvisible = v.visible
    from (values ${rows.map((row) => row.row).join(', ')}) as v(id, pages, tuples, visible)
   where c.oid = v.id::oid
     and (c.relpages, c.reltuples, c.relallvisible) is distinct from (v.pages, v.tuples, v.visible)`
}

/** The app's tables: every ordinary or partitioned table in `public`, quoted. */
async function tablesOf(client: PGlite) {
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      order by 1`,
  )
  return rows.map((row) => row.name)
}

/** Those of `tables` that hold a row, in one query. */
async function tablesWithRows(client: PGlite, tables: string[]) {
  if (tables.length === 0) return []
  const checks = tables.map(
    (table, index) => `case when exists (select from ${table}) then ${index} end`,
  )
  const { rows } = await client.query<{ filled: number[] }>(
    `select array_remove(array[${checks.join(', ')}], null) as filled`,
  )
  return (rows[0]?.filled ?? []).map((index) => tables[index] as string)
}

/**
 * Whether `client` has the fingerprint of the process's first new database, the last check before
 * a client is reused (tests/integration/pglite-reuse.test.ts checks what it catches inside a
 * transaction that it rolls back, on one database instead of one each).
 */
export async function fingerprintAsNew(client: PGlite) {
  return state.fingerprint !== undefined && (await fingerprintOf(client)) === state.fingerprint
}

/**
 * What a file could change that a new database from the snapshot would not have, as one hash:
 * the catalog's rows as they are stored (a relation's file number, which TRUNCATE changes, left
 * out), each relation's size on disk and the planner's figures for it, the roles, settings and
 * grants, the migrations applied, and what a session can leave behind. Row counts are not in it:
 * every table of the app's was just emptied. A temporary schema (pg_temp_N) stays once a session has used one, while DISCARD ALL
 * has dropped what was in it.
 */
async function fingerprintOf(client: PGlite) {
  const { rows } = await client.query<{ fingerprint: string }>(FINGERPRINT)
  return rows[0]?.fingerprint ?? ''
}

/** The first OID a database's own objects get: below it, what initdb made. */
const FIRST_NORMAL_OID = 16384

const FINGERPRINT = `
with parts(part) as (
  select format('rel %s %s %s %s %s %s %s %s %s', oid, relname, relnamespace, relkind,
         relpersistence, relrowsecurity, relforcerowsecurity, relacl, reloptions)
    from pg_class
  union all
  select format('size %s %s %s %s %s', oid, relpages, reltuples, relallvisible, pg_relation_size(oid))
    from pg_class where oid >= ${FIRST_NORMAL_OID}
  union all
  select format('att %s %s %s %s %s %s %s %s %s', attrelid, attnum, attname, atttypid, atttypmod,
         attnotnull, attisdropped, attidentity, attacl)
    from pg_attribute where attrelid >= ${FIRST_NORMAL_OID}
  union all select format('def %s %s %s', adrelid, adnum, adbin) from pg_attrdef
  union all select c::text from pg_constraint c
  union all select i::text from pg_index i
  union all select p::text from pg_policy p
  union all select t::text from pg_trigger t
  union all select p::text from pg_proc p where oid >= ${FIRST_NORMAL_OID}
  union all select t::text from pg_type t where oid >= ${FIRST_NORMAL_OID}
  union all select r::text from pg_rewrite r where oid >= ${FIRST_NORMAL_OID}
  union all select e::text from pg_enum e
  union all
  select n::text from pg_namespace n
   where nspname not like 'pg\\_temp\\_%' and nspname not like 'pg\\_toast\\_temp\\_%'
  union all select r::text from pg_roles r
  union all select m::text from pg_auth_members m
  union all select s::text from pg_db_role_setting s
  union all select format('db %s %s', datname, datacl) from pg_database
  union all select d::text from pg_default_acl d
  union all select x::text from pg_extension x
  union all select format('seq %s.%s %s', schemaname, sequencename, last_value) from pg_sequences
  union all select format('migration %s %s', id, hash) from drizzle.__drizzle_migrations
  union all select format('lo %s', count(*)) from pg_largeobject_metadata
  union all select format('xact %s', count(*)) from pg_prepared_xacts
  union all select format('listen %s', pg_listening_channels())
  union all select format('cursor %s', name) from pg_cursors
  union all select format('prepared %s', name) from pg_prepared_statements
  union all select format('lock %s %s', locktype, mode) from pg_locks where locktype = 'advisory'
  union all select format('session %s %s', name, setting) from pg_settings where source = 'session'
  union all select format('user %s %s', current_user, session_user)
)
select md5(string_agg(part, E'\\n' order by part)) as fingerprint from parts`
