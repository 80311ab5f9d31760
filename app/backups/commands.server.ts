// `npm run backup [FILE]` and `npm run restore FILE` (scripts/backup.ts, scripts/restore.ts).
// Each returns its exit code; expected failures print one line, never a stack trace.
// The driver follows the server's rule: DATABASE_URL set means Postgres, else PGlite in
// DATA_DIR/pglite (read straight from the environment, as getDatabaseHandle does).

import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pgliteStorage } from '#drizzle/db.server'
import { ensurePrivateDir, tightenTree } from '#drizzle/private-files.server'
import {
  BackupError,
  backupFileName,
  checkRestorableDump,
  type DatabaseLocation,
  restoreBackup,
  writeBackup,
} from './backups.server'

export type CommandOutput = { info(line: string): void; error(line: string): void }
type Env = Record<string, string | undefined>

const consoleOutput: CommandOutput = {
  info: (line) => console.log(line),
  error: (line) => console.error(line),
}

const BACKUP_USAGE =
  'Usage: npm run backup [FILE]   (default: DATA_DIR/backups/brandcard-<time>.sql)'
const RESTORE_USAGE =
  'Usage: npm run restore -- FILE [--data-dir DIR] [--unverified]   (DIR: a PGlite data directory; --unverified: a dump without a manifest or its checksum)'

export async function backupCommand(
  args: string[],
  env: Env = process.env,
  out: CommandOutput = consoleOutput,
): Promise<number> {
  const [file, ...extra] = args
  if (args.includes('--help') || args.includes('-h')) {
    out.info(BACKUP_USAGE)
    return 0
  }
  if (extra.length > 0 || file?.startsWith('-')) {
    out.error(BACKUP_USAGE)
    return 2
  }
  const dataDir = env.DATA_DIR ?? './data'
  const target = file ?? path.join(dataDir, 'backups', backupFileName())
  return reportingErrors(out, async () => {
    const taken = env.DATABASE_URL
      ? await writeBackup({ file: target, database: { driver: 'postgres', url: env.DATABASE_URL } })
      : await withPglite(path.resolve(dataDir, 'pglite'), { mustExist: true }, (database) =>
          writeBackup({ file: target, database }),
        )
    out.info(`Backup written: ${taken.file} (${formatBytes(taken.bytes)})`)
  })
}

export async function restoreCommand(
  args: string[],
  env: Env = process.env,
  out: CommandOutput = consoleOutput,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    out.info(RESTORE_USAGE)
    return 0
  }
  const parsed = parseRestoreArgs(args)
  if (!parsed) {
    out.error(RESTORE_USAGE)
    return 2
  }
  const { file, dataDir, unverified } = parsed
  return reportingErrors(out, async () => {
    if (env.DATABASE_URL && dataDir) {
      throw new BackupError(
        '--data-dir names a PGlite directory, but DATABASE_URL is set: unset one of them',
      )
    }
    // A bad file, or one only --unverified may load, is reported before any database is opened
    // (or, for PGlite, created in a directory that may already exist).
    await checkRestorableDump(path.resolve(file), unverified)
    if (env.DATABASE_URL) {
      const { statements } = await restoreBackup({
        file,
        into: { driver: 'postgres', url: env.DATABASE_URL },
        unverified,
      })
      out.info(
        `Restored ${file} into ${withoutPassword(env.DATABASE_URL)} (${statements} statements)`,
      )
    } else {
      const directory = path.resolve(dataDir ?? path.join(env.DATA_DIR ?? './data', 'pglite'))
      const { statements } = await withPglite(directory, { mustExist: false }, (into) =>
        restoreBackup({ file, into, unverified }),
      )
      out.info(`Restored ${file} into ${directory} (${statements} statements)`)
    }
    out.info(
      'Start the server with the APP_SECRET of the backed-up installation (without one, copy its DATA_DIR/app-secret): sessions and stored secrets depend on it.',
    )
  })
}

function parseRestoreArgs(
  args: string[],
): { file: string; dataDir?: string; unverified: boolean } | undefined {
  let file: string | undefined
  let dataDir: string | undefined
  let unverified = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--unverified') {
      unverified = true
    } else if (arg === '--data-dir') {
      dataDir = args[++i]
      if (!dataDir) return undefined
    } else if (arg.startsWith('--data-dir=')) {
      dataDir = arg.slice('--data-dir='.length)
    } else if (arg.startsWith('-') || file) {
      return undefined
    } else {
      file = arg
    }
  }
  return file ? { file, dataDir, unverified } : undefined
}

/**
 * Opens the PGlite database in `directory` for one command. PGlite keeps `postmaster.pid` in
 * its directory while open and takes no lock: a second process would work on the same files
 * as the server, so a directory in use is refused.
 */
async function withPglite<T>(
  directory: string,
  options: { mustExist: boolean },
  work: (database: DatabaseLocation) => Promise<T>,
): Promise<T> {
  const hadDirectory = existsSync(directory)
  if (options.mustExist && !existsSync(path.join(directory, 'PG_VERSION'))) {
    throw new BackupError(
      `No embedded database in ${directory} (set DATA_DIR, or DATABASE_URL for Postgres)`,
    )
  }
  const pidFile = path.join(directory, 'postmaster.pid')
  if (existsSync(pidFile)) {
    throw new BackupError(
      `${directory} is open in another process (the server?): stop it first, or let the server's daily backup take the dump. If no process uses it, a crash left ${pidFile} behind: delete that file.`,
    )
  }
  ensurePrivateDir(directory)
  const client = new PGlite(pgliteStorage(directory))
  let done = false
  try {
    // A new directory's files are copied in with mode 0666 (drizzle/private-files.server.ts).
    await client.waitReady
    tightenTree(directory)
    const result = await work({ driver: 'pglite', client })
    done = true
    return result
  } finally {
    await client.close()
    // A restore that failed into a directory it created leaves nothing behind.
    if (!done && !hadDirectory) await rm(directory, { recursive: true, force: true })
  }
}

async function reportingErrors(out: CommandOutput, work: () => Promise<void>): Promise<number> {
  try {
    await work()
    return 0
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    out.error(error.message)
    return 1
  }
}

function withoutPassword(url: string) {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

function formatBytes(bytes: number) {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} kB`
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`
}
