// Issue 39 point 4: a dump with one GRANT line edited restored with exit 0. The manifest checked
// rows and schema objects and the closing line the dump's end, but a grant changes no row: now
// the manifest also records the SHA-256 of every byte before its own line, restore hashes what
// it loads, and a difference rolls the load back. Runs on PGlite and, with TEST_DATABASE_URL,
// on Postgres (pg_dump's file, the checksum appended after it). Each load goes into a new empty
// database (on PGlite, a data directory from the run's empty snapshot).
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type DatabaseLocation, takeBackup } from '#app/backups/backups.server'
import { restoreCommand } from '#app/backups/commands.server'
import { MANIFEST_PREFIX } from '#app/backups/manifest.server'
import { getDatabaseHandle, pgliteStartParams } from '#drizzle/db.server'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'
import { emptyDataDir } from '#tests/pglite-snapshots'
import { withDatabase as databaseUrl } from '#tests/setup/global-db'

const onPostgres = process.env.TEST_DB_DRIVER === 'postgres'
const serverUrl = process.env.TEST_DATABASE_URL as string

let workDir: string
let dump: string
let text: string
const cleanups: (() => Promise<void>)[] = []

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'brandcard-restore-checksum-'))
  const organization = await makeOrganization()
  const user = await makeUser(organization.id)
  await makeCard(organization.id, user.id)
  const source: DatabaseLocation = onPostgres
    ? { driver: 'postgres', url: process.env.TEST_FILE_DATABASE_URL as string }
    : { driver: 'pglite', client: (getDatabaseHandle() as unknown as { client: PGlite }).client }
  dump = (await takeBackup({ dir: workDir, retention: 7, database: source })).file
  text = await readFile(dump, 'utf8')
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await rm(workDir, { recursive: true, force: true })
})

/** `npm run restore -- FILE [args]` into a new empty database: its exit code and its lines. */
async function restore(file: string, ...args: string[]) {
  const lines: string[] = []
  const out = {
    info: (line: string) => lines.push(line),
    error: (line: string) => lines.push(`! ${line}`),
  }
  const target = onPostgres
    ? { env: { DATABASE_URL: await emptyDatabaseUrl() }, args: [] }
    : { env: {}, args: ['--data-dir', await emptyDataDirIn(workDir)] }
  const code = await restoreCommand([file, ...target.args, ...args], target.env, out)
  return { code, lines, tables: await tablesIn(target) }
}

/**
 * An empty PGlite data directory made ready for the restore, from the run's snapshot of what
 * initdb leaves: the checksum is this file's subject, and a new directory would cost each restore
 * an initdb. A failed restore into a directory it made itself leaves none behind: backups.test.ts.
 */
async function emptyDataDirIn(parent: string) {
  const directory = path.join(parent, `target-${randomBytes(4).toString('hex')}`)
  await emptyDataDir(directory)
  return directory
}

async function tablesIn(target: { env: { DATABASE_URL?: string }; args: string[] }) {
  if (!target.env.DATABASE_URL) {
    const client = new PGlite({
      dataDir: target.args[1] as string,
      startParams: pgliteStartParams(),
    })
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_tables where schemaname = 'public'`,
      )
      return rows[0]?.n ?? 0
    } finally {
      await client.close()
    }
  }
  const sql = postgres(target.env.DATABASE_URL, { max: 1, onnotice: () => {} })
  try {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_tables where schemaname = 'public'`
    return row?.n ?? 0
  } finally {
    await sql.end()
  }
}

async function emptyDatabaseUrl() {
  const name = `brandcard_checksum_${randomBytes(6).toString('hex')}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end()
  })
  return databaseUrl(serverUrl, name)
}

async function edited(name: string, content: string) {
  expect(content).not.toBe(text)
  const file = path.join(workDir, name)
  await writeFile(file, content)
  return file
}

test('a dump with one GRANT line edited is refused with exit 1, and nothing is restored', async () => {
  const grant = /^GRANT (\w+(?:,\w+)*) ON TABLE (public\.\w+) TO brandcard_app;$/m.exec(text)
  expect(grant, 'the dump grants the app role its tables').not.toBeNull()
  const widened = await edited(
    'grant-edited.sql',
    text.replace(grant?.[0] as string, `GRANT ALL ON TABLE ${grant?.[2]} TO PUBLIC;`),
  )
  const refused = await restore(widened)
  expect(refused.lines).toEqual([
    `! ${widened} was changed after it was taken: its checksum differs from the one its manifest records. Nothing was restored.`,
  ])
  expect(refused.code).toBe(1)
  expect(refused.tables).toBe(0)

  // The dump as it was taken restores.
  const intact = await restore(dump)
  expect(intact.lines[0]).toMatch(/^Restored .* \(\d+ statements\)$/)
  expect(intact.code).toBe(0)
}, 300_000)

test('a statement added after the manifest, or a manifest without its checksum, is refused', async () => {
  const appended = await edited(
    'appended.sql',
    `${text}GRANT ALL ON TABLE public.users TO PUBLIC;\n`,
  )
  const after = await restore(appended)
  expect(after.code).toBe(1)
  expect(after.lines).toEqual([
    `! ${appended}: text follows its manifest, which must be the dump's last line. Nothing was restored.`,
  ])
  expect(after.tables).toBe(0)

  // A backup from before whole-dump checksums (version 1): refused unless asked for.
  const at = text.lastIndexOf(`\n${MANIFEST_PREFIX}`) + 1 + MANIFEST_PREFIX.length
  const { sha256, ...older } = JSON.parse(text.slice(at))
  expect(sha256).toMatch(/^[0-9a-f]{64}$/)
  const unchecked = await edited(
    'version-1.sql',
    `${text.slice(0, at)}${JSON.stringify({ ...older, version: 1 })}\n`,
  )
  const old = await restore(unchecked)
  expect(old.code).toBe(1)
  expect(old.lines[0]).toMatch(
    /version-1\.sql is a backup from before dumps were checksummed whole.*Restore it with --unverified/,
  )
  expect(old.tables).toBe(0)
  const asked = await restore(unchecked, '--unverified')
  expect(asked.code).toBe(0)
}, 300_000)

test.runIf(!onPostgres)(
  'a dump only --unverified may load is refused before PGlite creates a database in the directory given',
  async () => {
    const manifestAt = text.lastIndexOf(`\n${MANIFEST_PREFIX}`) + 1
    const at = manifestAt + MANIFEST_PREFIX.length
    const { sha256: _, ...older } = JSON.parse(text.slice(at))
    const refusedFiles = [
      await edited('without-manifest.sql', text.slice(0, manifestAt)),
      await edited(
        'version-1-again.sql',
        `${text.slice(0, at)}${JSON.stringify({ ...older, version: 1 })}\n`,
      ),
    ]
    for (const file of refusedFiles) {
      // A directory made ready for the restore, still empty: a refusal must leave it so.
      const directory = path.join(workDir, `empty-${randomBytes(4).toString('hex')}`)
      await mkdir(directory)
      const lines: string[] = []
      const out = {
        info: (line: string) => lines.push(line),
        error: (line: string) => lines.push(line),
      }
      expect(await restoreCommand([file, '--data-dir', directory], {}, out)).toBe(1)
      expect(lines[0]).toMatch(/Restore it with --unverified/)
      expect(await readdir(directory)).toEqual([])
    }
  },
)
