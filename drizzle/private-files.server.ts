// Everything the app writes in DATA_DIR (the embedded database with its password hashes, the
// generated APP_SECRET, backups) is for the account that runs it alone: directories 0700,
// files 0600. The umask makes that the default for whatever the process creates; PGlite is the
// exception (it lays out a new data directory with files of mode 0666 whatever the umask), so
// its directory is tightened once it is open, and a DATA_DIR left by an older version at start.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'

export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/** Files and directories this process creates are its account's alone, by default. */
export function restrictUmask() {
  process.umask(0o077)
}

/** Creates `dir` (and its missing parents) as a private directory, and makes it private if it was not. */
export function ensurePrivateDir(dir: string) {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  chmodSync(dir, PRIVATE_DIR_MODE)
}

/**
 * Directories under `root` (itself included) to 0700, files to 0600. Symbolic links are not
 * followed (a link out of DATA_DIR is someone's deliberate choice). Missing `root`: nothing.
 */
export function tightenTree(root: string) {
  let info: ReturnType<typeof lstatSync>
  try {
    info = lstatSync(root)
  } catch {
    return
  }
  if (info.isSymbolicLink()) return
  if (!info.isDirectory()) {
    if ((info.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(root, PRIVATE_FILE_MODE)
    return
  }
  if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(root, PRIVATE_DIR_MODE)
  for (const entry of readdirSync(root)) tightenTree(path.join(root, entry))
}

/** Start-up: the umask, then DATA_DIR (as an older version may have left it) made private. */
export function secureDataDir(dataDir: string) {
  restrictUmask()
  tightenTree(path.resolve(dataDir))
}
