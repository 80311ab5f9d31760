// Files the app writes are its account's alone (issue 26 point 6): the embedded database's
// directory 0700 and files 0600, a DATA_DIR left by an older version tightened at start, and a
// backup 0600 from its first byte, not chmod-ed once written.
import { lstatSync, readdirSync, statSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { type DatabaseLocation, takeBackup } from '#app/backups/backups.server'
import { resetEnvForTests } from '#app/env.server'
import { prepareDatabase } from '#app/prepare-database.server'
import { getDatabaseHandle, openPglite } from '#drizzle/db.server'
import { snapshotBlob } from '#tests/setup/pglite-snapshot'

// The mode of a backup's `.partial` file at every step of writing it the app takes: after it
// is opened or written, before anything is appended, its mode changed or it is renamed.
const seen: { step: string; file: string; mode: number }[] = []

// node:fs/promises as CommonJS sees it: the object whose functions the module's ESM bindings are
// synced from (syncBuiltinESMExports), which the app's imports then read.
const fsPromises = createRequire(import.meta.url)(
  'node:fs/promises',
) as typeof import('node:fs/promises')

/** Watches the steps above for the callback's duration, then puts the real functions back. */
async function watchingPartialFiles<T>(work: () => Promise<T>): Promise<T> {
  const real = { ...fsPromises }
  const observe = (step: string, file: unknown) => {
    const name = String(file)
    if (!name.endsWith('.partial')) return
    try {
      seen.push({ step, file: name, mode: statSync(name).mode & 0o777 })
    } catch {}
  }
  const spies = [
    vi.spyOn(fsPromises, 'open').mockImplementation((async (file: string, ...rest: unknown[]) => {
      const handle = await (real.open as (...args: unknown[]) => Promise<unknown>)(file, ...rest)
      observe('opened', file)
      return handle
    }) as typeof fsPromises.open),
    vi.spyOn(fsPromises, 'writeFile').mockImplementation((async (
      file: string,
      ...rest: unknown[]
    ) => {
      await (real.writeFile as (...args: unknown[]) => Promise<void>)(file, ...rest)
      observe('written', file)
    }) as typeof fsPromises.writeFile),
    vi.spyOn(fsPromises, 'appendFile').mockImplementation((async (
      file: string,
      ...rest: unknown[]
    ) => {
      observe('before append', file)
      await (real.appendFile as (...args: unknown[]) => Promise<void>)(file, ...rest)
    }) as typeof fsPromises.appendFile),
    vi.spyOn(fsPromises, 'chmod').mockImplementation(async (file, mode) => {
      observe('before chmod', file)
      await real.chmod(file, mode)
    }),
    vi.spyOn(fsPromises, 'rename').mockImplementation(async (from, to) => {
      observe('before rename', from)
      await real.rename(from, to)
    }),
  ]
  syncBuiltinESMExports()
  try {
    return await work()
  } finally {
    for (const spy of spies) spy.mockRestore()
    syncBuiltinESMExports()
  }
}

const onPostgres = process.env.TEST_DB_DRIVER === 'postgres'
let workDir: string

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'brandcard-modes-'))
})

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true })
})

/** Every directory and file under `root` (itself included) with its permission bits. */
function modesUnder(root: string) {
  const found: { path: string; kind: 'dir' | 'file'; mode: string }[] = []
  const walk = (at: string) => {
    const info = lstatSync(at)
    const mode = (info.mode & 0o777).toString(8)
    if (info.isDirectory()) {
      found.push({ path: at, kind: 'dir', mode })
      for (const entry of readdirSync(at)) walk(path.join(at, entry))
    } else {
      found.push({ path: at, kind: 'file', mode })
    }
  }
  walk(root)
  return found
}

function expectPrivate(root: string) {
  const entries = modesUnder(root)
  const open = entries.filter((e) => e.mode !== (e.kind === 'dir' ? '700' : '600'))
  expect(open.slice(0, 10)).toEqual([])
  return entries
}

describe('the embedded database', () => {
  // PGlite lays out a new directory (from its own template, or from a dump as here) with files
  // of mode 0666 whatever the umask; the migrated snapshot is the quicker of the two.
  test.runIf(!onPostgres)(
    'a new data directory is 0700 and every file in it 0600, open and after closing',
    async () => {
      const dataDir = path.join(workDir, 'fresh', 'pglite')
      const snapshot = snapshotBlob('pgliteSnapshot')
      const handle = openPglite({ dataDir, loadDataDir: snapshot })
      try {
        await handle.db.execute(sql`create table written (secret text)`)
        await handle.db.execute(sql`insert into written values ('argon2id hash')`)
        const entries = expectPrivate(dataDir)
        // The database's own files, not an empty directory.
        expect(entries.filter((e) => e.kind === 'file').length).toBeGreaterThan(100)
      } finally {
        await handle.close()
      }
      expectPrivate(dataDir)
    },
    90_000,
  )

  test.runIf(!onPostgres)(
    'a DATA_DIR an older version left open is made private at start, and the process umask is 077',
    async () => {
      const dataDir = path.join(workDir, 'older')
      await mkdir(path.join(dataDir, 'pglite', 'base'), { recursive: true, mode: 0o755 })
      await mkdir(path.join(dataDir, 'backups'), { mode: 0o755 })
      await writeFile(path.join(dataDir, 'app-secret'), 'x'.repeat(43), { mode: 0o644 })
      await writeFile(path.join(dataDir, 'pglite', 'base', '1234'), 'rows', { mode: 0o666 })
      await writeFile(path.join(dataDir, 'backups', 'brandcard-old.sql'), '--', { mode: 0o644 })
      await chmod(dataDir, 0o755)
      const saved = { ...process.env }
      const umask = process.umask()
      Object.assign(process.env, { DATA_DIR: dataDir, SEED_DEMO: '0' })
      delete process.env.APP_SECRET
      resetEnvForTests()
      try {
        await prepareDatabase()
        expect(expectPrivate(dataDir)).toHaveLength(7)
        expect(process.umask()).toBe(0o077)
      } finally {
        process.umask(umask)
        process.env = saved
        resetEnvForTests()
      }
    },
  )

  test('a generated APP_SECRET is written 0600 into a DATA_DIR made 0700', async () => {
    const dataDir = path.join(workDir, 'secret', 'data')
    const saved = { ...process.env }
    const umask = process.umask(0o022)
    Object.assign(process.env, { DATA_DIR: dataDir })
    delete process.env.APP_SECRET
    resetEnvForTests()
    try {
      const { getEnv } = await import('#app/env.server')
      expect(getEnv().APP_SECRET.length).toBeGreaterThanOrEqual(32)
      expect(modesUnder(dataDir).map((e) => e.mode)).toEqual(['700', '600'])
    } finally {
      process.umask(umask)
      process.env = saved
      resetEnvForTests()
    }
  })
})

describe('a backup', () => {
  test('is 0600 from its first byte, in a 0700 directory, under the usual umask', async () => {
    const database: DatabaseLocation = onPostgres
      ? { driver: 'postgres', url: process.env.TEST_FILE_DATABASE_URL as string }
      : {
          driver: 'pglite',
          client: (getDatabaseHandle() as unknown as { client: PGlite }).client,
        }
    const umask = process.umask(0o022)
    seen.length = 0
    try {
      const dir = path.join(workDir, 'backups')
      const taken = await watchingPartialFiles(() => takeBackup({ dir, retention: 1, database }))
      expect(seen.length).toBeGreaterThan(1)
      expect(seen.filter((s) => s.mode !== 0o600)).toEqual([])
      expect(seen.some((s) => s.step === 'opened' || s.step === 'written')).toBe(true)
      expect(statSync(taken.file).mode & 0o777).toBe(0o600)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
    } finally {
      process.umask(umask)
    }
  })
})
