// Backups (ADR 018): a plain SQL dump of the whole database, taken in one snapshot on either
// driver, and its restore into an empty database. `npm run backup`, `npm run restore` and the
// daily job all come here.
//
// - PGlite: pg_dump compiled to WebAssembly (@electric-sql/pglite-tools) talks to the process's
//   own PGlite instance, holding PGlite's transaction lock so no other work of the process runs
//   in between.
// - Postgres: the pg_dump program, as the owner login in DATABASE_URL.
// Both write INSERT statements (no COPY), so a dump loads through the drivers themselves,
// statement by statement in one transaction: restore needs no psql and fails all or nothing.

import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { appendFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import type { PGlite, Transaction as PGliteTransaction } from '@electric-sql/pglite'
import { pgDump } from '@electric-sql/pglite-tools/pg_dump'
import postgres from 'postgres'
import { getEnv } from '#app/env.server'
import { getDatabaseHandle } from '#drizzle/db.server'
import { forgetPreparedStatements } from '#drizzle/pglite-view.server'
import { DumpFormatError, type DumpPiece, DumpStatementSplitter } from './dump-statements.server'
import {
  type BackupManifest,
  describeDatabase,
  MANIFEST_HEADER,
  MANIFEST_PREFIX,
  MANIFEST_SETTINGS,
  manifestDifferences,
  manifestLine,
  parseManifest,
  type ReadRows,
  TABLES_WITHOUT_DATA,
} from './manifest.server'

/** An expected failure (a missing file, a bad dump, a database that is not empty): its message is for people. */
export class BackupError extends Error {
  override name = 'BackupError'
}

/** A database to dump or to restore into. */
export type DatabaseLocation =
  | { driver: 'pglite'; client: PGlite }
  /** Postgres: the URL of the login that owns the tables (the one migrations run as). */
  | { driver: 'postgres'; url: string }

// pg_dump options shared by both drivers: no ownership (the restoring login owns what it
// creates, as the migrating login does), INSERTs of 100 rows instead of COPY, which only psql
// can feed, and the tables whose rows no backup keeps (their schema is dumped).
const DUMP_OPTIONS = [
  '--no-owner',
  '--rows-per-insert=100',
  ...TABLES_WITHOUT_DATA.map((table) => `--exclude-table-data=${table}`),
]

/** `brandcard-2026-11-25T03-00-00-000Z.sql`: sorts by time; the only names retention deletes. */
const BACKUP_FILE_NAME = /^brandcard-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.sql$/

export function backupFileName(at: Date = new Date()) {
  return `brandcard-${at.toISOString().replace(/[:.]/g, '-')}.sql`
}

/**
 * The database this process runs on. On Postgres that is DATABASE_URL, the owner login, not the
 * handle requests use: after start-up requests run as brandcard_app, which row-level security
 * restrains. The choice follows getDatabaseHandle: DATABASE_URL set means Postgres.
 */
export function currentDatabase(): DatabaseLocation {
  const url = process.env.DATABASE_URL
  if (url) return { driver: 'postgres', url }
  return { driver: 'pglite', client: pgliteClientOf(getDatabaseHandle()) }
}

function pgliteClientOf(handle: object): PGlite {
  // openPglite keeps its client on the handle (drizzle/db.server.ts).
  const client = (handle as { client?: PGlite }).client
  if (!client) throw new Error('The PGlite database handle has no client')
  return client
}

/** The daily job's backup: into DATA_DIR/backups, keeping BACKUP_RETENTION dumps. */
export function takeDailyBackup() {
  const env = getEnv()
  return takeBackup({ dir: path.join(env.DATA_DIR, 'backups'), retention: env.BACKUP_RETENTION })
}

/**
 * Writes a dump named by the time into `dir`, then deletes the oldest dumps of that name
 * pattern beyond `retention` (the new one counts). Other files in `dir` are never touched.
 */
export async function takeBackup(options: {
  dir: string
  retention: number
  database?: DatabaseLocation
  now?: Date
}): Promise<{ file: string; bytes: number; deleted: string[] }> {
  const { retention } = options
  if (!Number.isInteger(retention) || retention < 1) {
    throw new BackupError(`The retention must be a whole number of at least 1 (got ${retention})`)
  }
  const dir = path.resolve(options.dir)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const taken = await writeBackup({
    file: path.join(dir, await unusedBackupName(dir, options.now ?? new Date())),
    database: options.database,
  })
  const deleted = await pruneBackups(dir, retention)
  return { ...taken, deleted }
}

async function unusedBackupName(dir: string, at: Date) {
  const existing = new Set(await readdir(dir))
  let time = at.getTime()
  while (existing.has(backupFileName(new Date(time)))) time++
  return backupFileName(new Date(time))
}

/** Deletes the oldest of our dumps in `dir` beyond `retention`; returns the deleted paths. */
export async function pruneBackups(dir: string, retention: number): Promise<string[]> {
  const ours = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && BACKUP_FILE_NAME.test(entry.name))
    .map((entry) => entry.name)
    .sort()
  const oldest = ours.slice(0, Math.max(0, ours.length - retention))
  for (const name of oldest) await rm(path.join(dir, name), { force: true })
  return oldest.map((name) => path.join(dir, name))
}

/**
 * Writes a dump of the whole database to `file` (which must not exist), its manifest last. The
 * dump goes to `file.partial` first and is renamed when complete, so a dump cut short never
 * looks like one.
 */
export async function writeBackup(options: {
  file: string
  database?: DatabaseLocation
}): Promise<{ file: string; bytes: number }> {
  const file = path.resolve(options.file)
  const database = options.database ?? currentDatabase()
  if (await exists(file)) throw new BackupError(`${file} exists already: choose another name`)
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  const partial = `${file}.partial`
  // A dump holds password hashes and the stored secrets: for its owner's eyes only from its
  // first byte, so the file is created with its mode (a chmod after writing leaves a window).
  const handle = await open(partial, 'wx', 0o600)
  try {
    if (database.driver === 'pglite') {
      const { dump, manifest } = await dumpPglite(database.client)
      const sealed = Buffer.from(dump + MANIFEST_HEADER, 'utf8')
      const sha256 = createHash('sha256').update(sealed).digest('hex')
      await handle.writeFile(Buffer.concat([sealed, Buffer.from(manifestLine(manifest, sha256))]))
      await handle.close()
    } else {
      // pg_dump truncates and writes the file created above, which keeps its mode.
      await handle.close()
      const manifest = await dumpPostgres(database.url, partial)
      await appendFile(partial, MANIFEST_HEADER)
      await appendFile(partial, manifestLine(manifest, await sha256Of(partial)))
    }
    await rename(partial, file)
  } catch (error) {
    await handle.close().catch(() => {})
    await rm(partial, { force: true })
    throw error
  }
  return { file, bytes: (await stat(file)).size }
}

async function sha256Of(file: string) {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

async function exists(file: string) {
  return stat(file).then(
    () => true,
    () => false,
  )
}

// ---------------------------------------------------------------------------------------------
// PGlite

async function dumpPglite(client: PGlite): Promise<{ dump: string; manifest: BackupManifest }> {
  // PGlite is one session. pg_dump, run on it while another transaction of this process were
  // open, would read that transaction's uncommitted rows and end it with its own COMMIT. So
  // the dump runs inside transaction(), which holds PGlite's transaction lock: every other
  // query and transaction of the process waits. The empty transaction transaction() opened is
  // ended first, because pg_dump opens its own (repeatable read, read only).
  return client.transaction(async (tx) => {
    const before = await sessionSettingsOf(tx)
    // The lock held, nothing changes until pg_dump is done: this is the dump's snapshot.
    const manifest = await describeInTransaction(
      async <T>(query: string) => (await tx.query<T>(query)).rows,
    )
    await tx.exec('rollback')
    try {
      const dump = await pgDump({ pg: throughTransaction(client, tx), args: DUMP_OPTIONS })
      return { dump: await dump.text(), manifest }
    } catch (error) {
      throw new BackupError(`pg_dump failed on the embedded database: ${messageOf(error)}`)
    } finally {
      // pg_dump leaves its read-only transaction open (it expects its connection to close) and
      // its session settings set (row_security off, restrict_nonsystem_relation_kind...): both
      // end here, before the lock lets the next request in.
      await tx.exec('rollback')
      await putBackSessionSettings(tx, before)
      // And it deallocates every prepared statement, drizzle's among them.
      forgetPreparedStatements(client)
      // transaction() then commits an empty transaction.
      await tx.exec('begin')
    }
  })
}

/**
 * The client as pg_dump's wrapper sees it: its own queries go through the transaction that
 * holds the lock (the client's query() would wait for that lock forever), the wire protocol
 * straight to the client, which takes no lock for it.
 */
function throughTransaction(client: PGlite, tx: PGliteTransaction): PGlite {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query' || property === 'exec' || property === 'sql') {
        return tx[property].bind(tx)
      }
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

type SessionSetting = { name: string; setting: string }

/**
 * pg_dump and a dump's header change session settings (search_path to '', row_security off,
 * timeouts...). On PGlite the session is the process's only one, so the settings it had are
 * put back before the next request runs on it. (transaction_isolation and its kin show as
 * session settings inside a transaction; they end with it.)
 */
async function sessionSettingsOf(tx: PGliteTransaction) {
  const { rows } = await tx.query<SessionSetting>(`select name, setting from pg_settings
    where source = 'session' and name not like 'transaction\\_%'`)
  return rows
}

async function putBackSessionSettings(tx: PGliteTransaction, before: SessionSetting[]) {
  for (const { name } of await sessionSettingsOf(tx)) {
    const changed = !before.some((setting) => setting.name === name)
    // Setting names are identifiers, dotted for extensions' and custom ones (app.x).
    if (changed && /^[A-Za-z_][\w.]*$/.test(name)) await tx.exec(`reset ${name}`)
  }
  for (const { name, setting } of before) {
    await tx.query('select set_config($1, $2, false)', [name, setting])
  }
}

// ---------------------------------------------------------------------------------------------
// Postgres

/** The manifest of the database the transaction reads; its settings end with the transaction. */
async function describeInTransaction(rows: ReadRows) {
  for (const setting of MANIFEST_SETTINGS) await rows(setting)
  return describeDatabase(rows)
}

/**
 * pg_dump into `file`, in a snapshot exported by a transaction of ours that reads the manifest
 * meanwhile: dump and manifest describe the same moment while the server goes on writing.
 */
async function dumpPostgres(url: string, file: string): Promise<BackupManifest> {
  await refusePartialDump(url)
  return withPostgres(url, (sql) =>
    sql.begin('isolation level repeatable read read only', async (tx) => {
      const [exported] = await tx<{ snapshot: string }[]>`select pg_export_snapshot() as snapshot`
      const dumped = runPgDump(url, file, exported?.snapshot as string)
      // Settled either way before the transaction (and its snapshot) may end.
      const described = describeInTransaction(
        async <T>(query: string) => (await tx.unsafe(query)) as unknown as T[],
      )
      const [dump, manifest] = await Promise.allSettled([dumped, described])
      if (dump.status === 'rejected') throw dump.reason
      if (manifest.status === 'rejected') throw manifest.reason
      return manifest.value
    }),
  )
}

async function runPgDump(url: string, file: string, snapshot: string) {
  const target = new URL(url)
  const password = decodeURIComponent(target.password)
  // The password goes in the environment, not on a command line others can list.
  target.password = ''
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // A login that row-level security applies to (the owner of FORCEd tables, when not a
    // superuser) sees every row in the platform scope, the policies' cross-tenant read.
    PGOPTIONS: `${process.env.PGOPTIONS ?? ''} -c app.platform_scope=on`.trim(),
  }
  if (password) env.PGPASSWORD = password
  const args = [
    ...DUMP_OPTIONS,
    '--inserts',
    // Row security on: a login it applies to gets the rows the platform scope admits instead
    // of an error (refusePartialDump checked that this is every row).
    '--enable-row-security',
    `--snapshot=${snapshot}`,
    `--file=${file}`,
    `--dbname=${target.toString()}`,
  ]
  await new Promise<void>((resolve, reject) => {
    const child = spawn('pg_dump', args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (text: string) => {
      stderr += text
    })
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              'pg_dump was not found on the PATH: install the PostgreSQL client tools, of the same major version as the server or newer (Debian: apt-get install postgresql-client)',
            )
          : error,
      )
    })
    child.on('close', (code) => {
      if (code === 0) resolve()
      else reject(new BackupError(`pg_dump failed (exit code ${code}): ${stderr.trim()}`))
    })
  })
}

/**
 * With row security on, a dump by a login that policies restrain would silently leave out the
 * rows they hide. Every policy of this schema admits the platform scope (ADR 004); a table whose
 * policies do not is named here, and the backup refused, rather than dumped in part.
 */
async function refusePartialDump(url: string) {
  await withPostgres(url, async (sql) => {
    const [role] = await sql<{ unrestricted: boolean }[]>`
      select rolsuper or rolbypassrls as unrestricted from pg_roles where rolname = current_user`
    if (role?.unrestricted) return
    const hidden = await sql<{ name: string }[]>`
      select format('%I.%I', n.nspname, c.relname) as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and c.relrowsecurity
        and (c.relforcerowsecurity or c.relowner <> (select oid from pg_roles where rolname = current_user))
        and (
          exists (select 1 from pg_policy p where p.polrelid = c.oid and not p.polpermissive)
          or not exists (
            select 1 from pg_policy p
            where p.polrelid = c.oid and p.polpermissive and p.polcmd in ('r', '*')
              and p.polroles = array[0]::oid[]
              and pg_get_expr(p.polqual, p.polrelid) like '%app.platform_scope%'))
      order by 1`
    if (hidden.length > 0) {
      throw new BackupError(
        `Backup refused: row-level security would hide rows of ${hidden.map((t) => t.name).join(', ')} from this login (its policies do not admit app.platform_scope). Back up as a superuser or a role with BYPASSRLS.`,
      )
    }
  })
}

async function withPostgres<T>(url: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, connect_timeout: 10, onnotice: () => {} })
  try {
    await sql`select 1`.catch((error: unknown) => {
      throw new BackupError(`Could not connect to the database: ${messageOf(error)}`)
    })
    return await work(sql)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

// ---------------------------------------------------------------------------------------------
// Restore

/** A session of the target database inside the restore's one transaction. */
type RestoreSession = {
  run(statement: string): Promise<void>
  rows<T>(query: string): Promise<T[]>
}

// The role the policies and grants name: cluster-wide on Postgres, so not in a dump. Created
// as migration 0001 does when missing, and granted to the restoring login (which switches to it).
const APP_ROLE = `DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'brandcard_app') THEN
    CREATE ROLE brandcard_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
  IF NOT pg_has_role(current_user, 'brandcard_app', 'MEMBER') THEN
    GRANT brandcard_app TO CURRENT_USER;
  END IF;
END
$$`

const COPY_FROM_STDIN = /^COPY\b[\s\S]*\bFROM\s+stdin;$/i
const SET_SETTING = /^SET\s+([A-Za-z_]+)\s*=/
const DEFAULT_PRIVILEGES_FOR_ROLE = /^ALTER DEFAULT PRIVILEGES FOR ROLE (?:"(?:[^"]|"")+"|[^\s"]+) /
const KNOWN_META = /^\\(?:un)?restrict\b/

// The manifest is one line after pg_dump's closing line; a few kilobytes for this schema.
const TAIL_BYTES = 1 << 20

/** What checkDumpFile found: the manifest, and where its line starts (the bytes it hashes). */
type DumpFileFacts = { manifest?: BackupManifest; sealedBytes?: number; size: number }

/**
 * Checks that `file` looks like a whole plain SQL dump before anything is opened: pg_dump's
 * header at the start and its closing line at the end (a dump cut short has none), and a
 * manifest, if any, as the file's last line (nothing after it, where no checksum would see
 * it). Returns the manifest and the length of what its checksum covers.
 */
export async function checkDumpFile(file: string): Promise<DumpFileFacts> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new BackupError(`No such file: ${file}`)
    throw new BackupError(`Cannot read ${file}: ${error.message}`)
  })
  if (!info.isFile()) throw new BackupError(`Not a file: ${file}`)
  const handle = await open(file, 'r')
  try {
    const head = Buffer.alloc(Math.min(info.size, 256))
    await handle.read(head, 0, head.length, 0)
    const tailLength = Math.min(info.size, TAIL_BYTES)
    const tail = Buffer.alloc(tailLength)
    await handle.read(tail, 0, tailLength, info.size - tailLength)
    if (head.subarray(0, 5).toString('latin1') === 'PGDMP') {
      throw new BackupError(
        `${file} is in pg_dump's custom format; restore loads plain SQL dumps (npm run backup writes one): use pg_restore for this one`,
      )
    }
    if (!/^--\r?\n-- PostgreSQL database dump\r?\n/.test(head.toString('utf8'))) {
      throw new BackupError(`${file} is not a SQL dump written by pg_dump or npm run backup`)
    }
    const ending = tail.toString('utf8')
    if (!ending.includes('-- PostgreSQL database dump complete')) {
      throw new BackupError(
        `${file} is incomplete: it lacks pg_dump's closing line (was it cut short?)`,
      )
    }
    const manifest = parseManifest(ending)
    if (manifest === null) {
      throw new BackupError(`${file}: its manifest is damaged, so nothing can check the dump`)
    }
    if (!manifest) return { size: info.size }
    const at = tail.lastIndexOf(`\n${MANIFEST_PREFIX}`) + 1
    const lineEnd = tail.indexOf('\n', at)
    if (lineEnd !== -1 && lineEnd !== tail.length - 1) {
      throw new BackupError(
        `${file}: text follows its manifest, which must be the dump's last line. Nothing was restored.`,
      )
    }
    return { manifest, sealedBytes: info.size - tailLength + at, size: info.size }
  } finally {
    await handle.close()
  }
}

/**
 * checkDumpFile, and then what restore accepts without `unverified`: a manifest, and one that
 * records the whole dump's checksum. Nothing here opens a database, so the restore command runs
 * it before it opens (or, for PGlite, creates) the target.
 */
export async function checkRestorableDump(
  file: string,
  unverified: boolean,
): Promise<DumpFileFacts> {
  const facts = await checkDumpFile(file)
  const { manifest } = facts
  if (!manifest && !unverified) {
    throw new BackupError(
      `${file} has no Brandcard manifest (a plain pg_dump, or a backup from before manifests), so nothing can check it is whole. Restore it with --unverified to load it as it is.`,
    )
  }
  if (manifest && !manifest.sha256 && !unverified) {
    throw new BackupError(
      `${file} is a backup from before dumps were checksummed whole, so nothing can check every line of it. Restore it with --unverified to load it with only its rows and schema checked.`,
    )
  }
  return facts
}

/**
 * Loads a dump into `into`, which must be empty (no table in schema public, no migrations):
 * otherwise it refuses before changing anything. The whole load is one transaction, so a dump
 * that fails halfway leaves the target as it was; so does one whose loaded tables (rows and
 * checksums) or schema objects differ from its manifest, or whose bytes differ from the
 * checksum its manifest records (an edited GRANT changes no row). A dump without a manifest, or
 * with one from before dumps were hashed whole, is refused unless `unverified` (dumps of plain
 * pg_dump, or older backups). Returns the number of statements run.
 */
export async function restoreBackup(options: {
  file: string
  into: DatabaseLocation
  unverified?: boolean
}): Promise<{ statements: number }> {
  const file = path.resolve(options.file)
  const facts = await checkRestorableDump(file, options.unverified ?? false)
  const load = (session: RestoreSession) => loadDump(file, session, facts)
  const { into } = options
  if (into.driver === 'pglite') {
    return into.client.transaction(async (tx) => {
      const before = await sessionSettingsOf(tx)
      const loaded = await load({
        run: async (statement) => {
          await tx.exec(statement)
        },
        rows: async <T>(query: string) => (await tx.query<T>(query)).rows,
      })
      // The dump's header set session settings; put back, they commit with the load.
      await putBackSessionSettings(tx, before)
      return loaded
    })
  }
  return withPostgres(into.url, (sql) =>
    sql.begin((tx) =>
      load({
        run: async (statement) => {
          await tx.unsafe(statement)
        },
        rows: async <T>(query: string) => (await tx.unsafe(query)) as unknown as T[],
      }),
    ),
  )
}

async function loadDump(
  file: string,
  session: RestoreSession,
  facts: DumpFileFacts,
): Promise<{ statements: number }> {
  const { manifest } = facts
  const read: DumpRead = { sha256: '', bytes: 0 }
  await refuseUnlessEmpty(session)
  await session.run(APP_ROLE)
  // A newer pg_dump's header sets parameters an older server does not know (PGlite's pg_dump
  // 18 writes transaction_timeout, unknown to Postgres 15 and 16); they only matter to it.
  const known = new Set(
    (await session.rows<{ name: string }>('select name from pg_settings')).map((s) => s.name),
  )
  // No statement needs holding back: pg_dump enables row-level security on a table (and
  // creates its policies) after the table's data, so an owner that is not a superuser inserts
  // the rows before any policy applies to it (FORCE, earlier in the dump, has no effect yet).
  let statements = 0
  const run = async (piece: DumpPiece) => {
    try {
      await session.run(piece.text)
      statements++
    } catch (error) {
      throw new BackupError(
        `${file}, line ${piece.line}: ${messageOf(error)}. Nothing was restored.`,
      )
    }
  }
  for await (const piece of readDump(file, facts.sealedBytes, read)) {
    if (piece.kind === 'meta') {
      if (KNOWN_META.test(piece.text)) continue
      throw new BackupError(
        `${file}, line ${piece.line}: the psql command ${piece.text.split(/\s/)[0]} is not supported by restore. Nothing was restored.`,
      )
    }
    if (COPY_FROM_STDIN.test(piece.text)) {
      throw new BackupError(
        `${file}, line ${piece.line}: the dump loads data with COPY, which only psql runs (take dumps with npm run backup, or load this one with psql). Nothing was restored.`,
      )
    }
    const setting = SET_SETTING.exec(piece.text)?.[1]?.toLowerCase()
    if (setting && !known.has(setting)) continue
    // The dump has no owners (--no-owner): the restoring login owns every table and runs the
    // migrations from then on, so the default grants to brandcard_app are for its new tables.
    // The role the dump names (its taker) may not exist here, or be one it may not act for.
    const text = piece.text.replace(
      DEFAULT_PRIVILEGES_FOR_ROLE,
      'ALTER DEFAULT PRIVILEGES FOR ROLE CURRENT_USER ',
    )
    await run({ ...piece, text })
  }
  if (manifest) await verifyAgainst(file, manifest, session)
  // After the manifest's comparison, which names what differs when rows or schema do.
  if (read.bytes !== facts.size) {
    throw new BackupError(`${file} changed while it was being restored. Nothing was restored.`)
  }
  if (manifest?.sha256 && read.sha256 !== manifest.sha256) {
    throw new BackupError(
      `${file} was changed after it was taken: its checksum differs from the one its manifest records. Nothing was restored.`,
    )
  }
  return { statements }
}

/** Inside the load's transaction: a difference is thrown, and the load rolled back with it. */
async function verifyAgainst(file: string, manifest: BackupManifest, session: RestoreSession) {
  const restored = await describeInTransaction(session.rows)
  const differences = manifestDifferences(manifest, restored)
  if (differences.length > 0) {
    throw new BackupError(
      `${file} does not match its manifest: ${differences.join('; ')}. Nothing was restored.`,
    )
  }
}

async function refuseUnlessEmpty(session: RestoreSession) {
  const [found] = await session.rows<{ tables: number; migrated: boolean }>(`
    select (select count(*)::int from pg_tables where schemaname = 'public') as tables,
      exists (select 1 from pg_namespace where nspname = 'drizzle') as migrated`)
  if (found && (found.tables > 0 || found.migrated)) {
    const what = [
      found.tables > 0 ? `${found.tables} tables in schema public` : '',
      found.migrated ? 'a drizzle migrations schema' : '',
    ]
      .filter(Boolean)
      .join(' and ')
    throw new BackupError(
      `The target database is not empty (it has ${what}): restore only into an empty database. Nothing was changed.`,
    )
  }
}

type DumpRead = { sha256: string; bytes: number }

/**
 * The dump's statements, in order; meanwhile the SHA-256 of its first `sealedBytes` bytes (what
 * the manifest's checksum covers) and the bytes read go into `read`, set once all is read.
 */
async function* readDump(
  file: string,
  sealedBytes: number | undefined,
  read: DumpRead,
): AsyncGenerator<DumpPiece> {
  const splitter = new DumpStatementSplitter()
  const decoder = new StringDecoder('utf8')
  const hash = createHash('sha256')
  let bytes = 0
  const stream = createReadStream(file, { highWaterMark: 1 << 20 })
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (sealedBytes !== undefined && bytes < sealedBytes) {
        hash.update(chunk.subarray(0, sealedBytes - bytes))
      }
      bytes += chunk.length
      yield* splitter.push(decoder.write(chunk))
    }
    yield* splitter.push(decoder.end())
    yield* splitter.end()
    read.sha256 = hash.digest('hex')
    read.bytes = bytes
  } catch (error) {
    if (error instanceof DumpFormatError) {
      throw new BackupError(`${file}: ${error.message}. Nothing was restored.`)
    }
    throw error
  } finally {
    stream.destroy()
  }
}

function messageOf(error: unknown) {
  return error instanceof Error ? error.message : String(error)
}
