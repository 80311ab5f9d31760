// PGlite data directories as initdb leaves them and as the migrations leave them, dumped to files
// kept in tests/.tmp/pglite-snapshots and named by what made them: the migrations' own files,
// PGlite's and drizzle-orm's versions, and how they are made here (FORMAT). A run finds the ones
// an earlier run made (the e2e servers those vitest's global setup made, in the same `npm test`)
// instead of running initdb and every migration again: about 7 s of CPU for each new PGlite
// database on a two-core machine, against well under one to load a dump.
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { openPglite, pgliteStartParams } from '#drizzle/db.server'

/** Raised whenever the steps below change what a snapshot holds. */
const FORMAT = 1

const DIRECTORY = path.resolve('tests/.tmp/pglite-snapshots')

/** Another key's snapshots older than this are removed when a new one is made. */
const STALE_MS = 3_600_000

export type PgliteSnapshots = { empty: string; migrated: string }

/** The two snapshots' files, made now unless a run has already made them for this key. */
export function pgliteSnapshots(): Promise<PgliteSnapshots> {
  // Once per process: vitest's global setups for both drivers ask at once.
  made ??= findOrMake()
  return made
}

let made: Promise<PgliteSnapshots> | undefined

async function findOrMake(): Promise<PgliteSnapshots> {
  const key = snapshotKey()
  const files = {
    empty: path.join(DIRECTORY, `empty-${key}.tar`),
    migrated: path.join(DIRECTORY, `migrated-${key}.tar`),
  }
  if (exists(files.empty) && exists(files.migrated)) return files
  mkdirSync(DIRECTORY, { recursive: true })
  removeStale(key)
  // As initdb leaves it: the empty target of a restore, without an initdb of its own each time.
  // Its WAL in segments of 1 MB, not 16: a new data directory holds one segment, written out
  // whole, so each database loads 10 MB less (165 ms of CPU to open against 139 ms).
  const initdb = new PGlite({
    initDbStartParams: ['--wal-segsize=1'],
    startParams: pgliteStartParams(),
  })
  // (A dump asked for before the database is ready never settles.)
  await initdb.waitReady
  await dropTemplateDatabases(initdb)
  const empty = await dump(initdb)
  await initdb.close()
  // Migrated as the app opens its database, from that data directory.
  const handle = openPglite({ loadDataDir: new BytesBlob(empty) })
  await handle.migrate()
  const migrated = await dump((handle as unknown as { client: PGlite }).client)
  await handle.close()
  // Each written whole under a name of this process's, then renamed: a run beside this one
  // reads either no file or a finished one.
  publish(files.empty, empty)
  publish(files.migrated, migrated)
  return files
}

/**
 * A snapshot's bytes as a Blob for PGlite's `loadDataDir`. Read once per process: a vitest worker
 * opens one database per file from the same 20 MB, and a snapshot's file never changes under its
 * name (the name is the hash of what made it). Each Blob hands PGlite a copy.
 */
export function snapshotBlob(file: string) {
  let bytes = snapshotBytes.get(file)
  if (!bytes) {
    bytes = readFileSync(file)
    snapshotBytes.set(file, bytes)
  }
  return new BytesBlob(bytes)
}

const snapshotBytes = new Map<string, Uint8Array>()

/**
 * A new PGlite data directory at `dataDir` with nothing in it, as initdb leaves it: the target of
 * a restore, without initdb's 5 s or more of CPU.
 */
export async function emptyDataDir(dataDir: string) {
  const { empty } = await pgliteSnapshots()
  const client = new PGlite({
    dataDir,
    loadDataDir: snapshotBlob(empty),
    startParams: pgliteStartParams(),
  })
  await client.waitReady
  await client.close()
}

/** A new PGlite data directory at `dataDir`, opened already migrated. */
export async function openMigratedPglite(dataDir: string) {
  const { migrated } = await pgliteSnapshots()
  return openPglite({ dataDir, loadDataDir: snapshotBlob(migrated) })
}

/**
 * A new PGlite data directory at `dataDir` (the server's `${DATA_DIR}/pglite`), already
 * migrated: a server started on it finds every migration applied.
 */
export async function migratedDataDir(dataDir: string) {
  const handle = await openMigratedPglite(dataDir)
  await (handle as unknown as { client: PGlite }).client.waitReady
  await handle.close()
}

function snapshotKey() {
  const hash = createHash('sha256').update(`format ${FORMAT}\n`)
  for (const name of ['@electric-sql/pglite', 'drizzle-orm']) {
    hash.update(`${name} ${versionOf(name)}\n`)
  }
  const migrations = path.resolve(process.env.MIGRATIONS_DIR ?? 'migrations')
  for (const file of listFiles(migrations)) {
    hash.update(`${path.relative(migrations, file)}\n`).update(readFileSync(file))
  }
  return hash.digest('hex').slice(0, 16)
}

/** An installed package's version, from its package.json (which PGlite's exports do not name). */
function versionOf(name: string) {
  let directory = path.dirname(createRequire(import.meta.url).resolve(name))
  for (;;) {
    const file = path.join(directory, 'package.json')
    if (exists(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
      if (manifest.name === name && manifest.version) return manifest.version
    }
    const parent = path.dirname(directory)
    if (parent === directory) throw new Error(`no package.json of ${name}`)
    directory = parent
  }
}

function listFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(directory, entry.name)
      return entry.isDirectory() ? listFiles(full) : [full]
    })
}

/**
 * initdb's two template databases, which no test and no code of the app uses on PGlite (a new
 * database is made only on Postgres): each is 7 MB of the 40 MB every test file's database is
 * loaded from, and loading them was about a third of the CPU of opening it (240 ms against 165 ms
 * without them, measured 2026-12-05).
 */
async function dropTemplateDatabases(client: PGlite) {
  await client.exec(
    `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
  )
  await client.exec('drop database template0')
  await client.exec('drop database template1')
}

async function dump(client: PGlite) {
  return new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer())
}

function publish(file: string, bytes: Uint8Array) {
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, bytes)
  renameSync(partial, file)
}

function exists(file: string) {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}

/**
 * Other keys' snapshots (older migrations or versions), unless recent: a run that started before
 * a migration was added may still be reading its own.
 */
function removeStale(key: string) {
  for (const name of readdirSync(DIRECTORY)) {
    if (name.includes(key)) continue
    const file = path.join(DIRECTORY, name)
    if (Date.now() - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true })
  }
}

/**
 * A Blob whose bytes PGlite reads in one copy. PGlite loads a data directory with
 * `arrayBuffer()`, and Node's own Blob assembles the 44 MB snapshot from 64 KB chunks: 0.45 s of
 * CPU for each test file, a third of opening its database (measured 2026-12-05).
 */
class BytesBlob extends Blob {
  readonly #bytes: Uint8Array
  constructor(bytes: Uint8Array) {
    super([], { type: 'application/x-tar' })
    this.#bytes = bytes
  }
  override get size() {
    return this.#bytes.byteLength
  }
  override async arrayBuffer() {
    // A copy (a Buffer's own slice() is a view of the same memory): the bytes are kept for the next.
    return new Uint8Array(this.#bytes).buffer as ArrayBuffer
  }
}
