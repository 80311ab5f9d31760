// A backup's manifest (ADR 029): what the database held when the dump was taken, read in the
// dump's own snapshot: every table's row count and a checksum of its rows, and the schema
// objects (tables, policies, triggers, functions, indexes), and (version 2, issue 39 point 4)
// the SHA-256 of every byte of the dump before the manifest's own line: a GRANT edited by hand
// changes no row, and the closing line says nothing of what comes before it. It travels as the
// dump's last line, a SQL comment, so the file stays a plain dump psql can load. Restore reads
// the same facts from the target inside its one transaction, hashes what it loaded, and commits
// only when both match.

/** Runs a query in the transaction being described; identifiers in it are fully qualified. */
export type ReadRows = <T>(query: string) => Promise<T[]>

export type BackupManifest = {
  /** 1: written before dumps were hashed whole; 2: with `sha256`. */
  version: 1 | 2
  tables: Record<string, { rows: number; checksum: string }>
  schema: Record<SchemaKind, string[]>
  /** Hex SHA-256 of the file's bytes before the manifest's line (MANIFEST_PREFIX). */
  sha256?: string
}

type SchemaKind = 'tables' | 'policies' | 'triggers' | 'functions' | 'indexes'

export const MANIFEST_PREFIX = '-- brandcard-manifest: '

/**
 * Tables whose rows no backup takes (pg_dump's --exclude-table-data), so the manifest counts
 * none of their rows either: the personal data exports (ADR 052) are copies of rows the backup
 * holds already, and a backup kept for weeks must not keep them past their 7 days.
 */
export const TABLES_WITHOUT_DATA = ['public.data_exports']

const SCHEMAS = "('public', 'drizzle')"

/**
 * Settings (for the current transaction only) under which a row's text is the same on either
 * driver and every server version: UTC, ISO dates, hex bytea. Row security stays on, in the
 * platform scope every policy admits (ADR 004), so an owner whose tables force it sees every row.
 */
export const MANIFEST_SETTINGS = [
  "select pg_catalog.set_config('timezone', 'UTC', true)",
  "select pg_catalog.set_config('datestyle', 'ISO, MDY', true)",
  "select pg_catalog.set_config('intervalstyle', 'postgres', true)",
  "select pg_catalog.set_config('extra_float_digits', '1', true)",
  "select pg_catalog.set_config('bytea_output', 'hex', true)",
  "select pg_catalog.set_config('row_security', 'on', true)",
  "select pg_catalog.set_config('app.platform_scope', 'on', true)",
]

const SCHEMA_QUERIES: Record<SchemaKind, string> = {
  tables: `select pg_catalog.format('%I.%I', n.nspname, c.relname) as name
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname in ${SCHEMAS}`,
  policies: `select pg_catalog.format('%I.%I', schemaname, tablename) || ' ' || policyname as name
    from pg_catalog.pg_policies where schemaname in ${SCHEMAS}`,
  triggers: `select pg_catalog.format('%I.%I', n.nspname, c.relname) || ' ' || t.tgname as name
    from pg_catalog.pg_trigger t join pg_catalog.pg_class c on c.oid = t.tgrelid
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal and n.nspname in ${SCHEMAS}`,
  // An extension's functions come with the extension, not from the dump's own statements.
  functions: `select pg_catalog.format('%I.%I', n.nspname, p.proname)
      || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')' as name
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ${SCHEMAS} and not exists (select 1 from pg_catalog.pg_depend d
      where d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass and d.objid = p.oid and d.deptype = 'e')`,
  indexes: `select pg_catalog.format('%I.%I', schemaname, indexname) as name
    from pg_catalog.pg_indexes where schemaname in ${SCHEMAS}`,
}

/**
 * The manifest of the database as the transaction sees it. `rows` must run in a transaction on
 * which MANIFEST_SETTINGS were run. A table's checksum adds up a 60-bit piece of each row's MD5,
 * so it needs no sort and no memory beyond one row (a media table of hundreds of megabytes).
 */
export async function describeDatabase(rows: ReadRows): Promise<BackupManifest> {
  const schema = {} as Record<SchemaKind, string[]>
  for (const kind of Object.keys(SCHEMA_QUERIES) as SchemaKind[]) {
    const found = await rows<{ name: string }>(SCHEMA_QUERIES[kind])
    schema[kind] = found.map((row) => row.name).sort()
  }
  const tables: BackupManifest['tables'] = {}
  for (const table of schema.tables) {
    if (TABLES_WITHOUT_DATA.includes(table)) continue
    const [sum] = await rows<{ rows: string; checksum: string }>(
      `select pg_catalog.count(*)::text as rows,
        coalesce(pg_catalog.sum(('x' || pg_catalog.substr(pg_catalog.md5(t::text), 1, 15))::bit(60)::bigint), 0)::text as checksum
      from ${table} t`,
    )
    tables[table] = { rows: Number(sum?.rows ?? 0), checksum: sum?.checksum ?? '' }
  }
  return { version: 1, tables, schema }
}

/** What a dump gets before its manifest's line; hashed with the dump (sealedDump). */
export const MANIFEST_HEADER =
  '\n--\n-- Brandcard backup manifest: restore checks the restored database against it.\n--\n'

/** The manifest's line, the file's last: `sha256` is that of everything before it. */
export function manifestLine(manifest: BackupManifest, sha256: string) {
  return `${MANIFEST_PREFIX}${JSON.stringify({ ...manifest, version: 2, sha256 })}\n`
}

/** The manifest in a dump's last part, undefined when there is none, null when it is unreadable. */
export function parseManifest(tail: string): BackupManifest | null | undefined {
  const at = tail.lastIndexOf(`\n${MANIFEST_PREFIX}`)
  if (at < 0) return undefined
  const line = tail.slice(at + 1 + MANIFEST_PREFIX.length).split('\n')[0] ?? ''
  try {
    const parsed = JSON.parse(line) as BackupManifest
    const valid =
      (parsed?.version === 1 ||
        (parsed?.version === 2 && /^[0-9a-f]{64}$/.test(String(parsed.sha256)))) &&
      typeof parsed.tables === 'object' &&
      Object.keys(SCHEMA_QUERIES).every((kind) =>
        Array.isArray(parsed.schema?.[kind as SchemaKind]),
      )
    return valid ? parsed : null
  } catch {
    return null
  }
}

const LISTED = 5

function list(names: string[]) {
  const shown = names.slice(0, LISTED).join(', ')
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown
}

/** What differs between the backup's manifest and the restored database; empty when nothing. */
export function manifestDifferences(expected: BackupManifest, actual: BackupManifest): string[] {
  const differences: string[] = []
  for (const kind of Object.keys(SCHEMA_QUERIES) as SchemaKind[]) {
    const have = new Set(actual.schema[kind])
    const want = new Set(expected.schema[kind])
    const missing = expected.schema[kind].filter((name) => !have.has(name))
    // An empty target may hold functions of its own (from its template): only ours count.
    const extra = kind === 'functions' ? [] : actual.schema[kind].filter((name) => !want.has(name))
    if (missing.length > 0)
      differences.push(`${kind} missing (${missing.length}): ${list(missing)}`)
    if (extra.length > 0)
      differences.push(`${kind} not in the backup (${extra.length}): ${list(extra)}`)
  }
  for (const [table, sum] of Object.entries(expected.tables)) {
    const got = actual.tables[table]
    if (!got) continue // reported with the missing tables
    if (got.rows !== sum.rows) {
      differences.push(`${table} has ${got.rows} rows, the backup had ${sum.rows}`)
    } else if (got.checksum !== sum.checksum) {
      differences.push(
        `${table} has ${got.rows} rows as the backup had, but their checksum differs`,
      )
    }
  }
  return differences
}
