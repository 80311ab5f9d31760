// One server per embedded data directory (issue 27 point 6). PGlite takes no lock of its own: a
// second process on the same files would corrupt them, so the server claims DATA_DIR first and
// a second one exits with a clear message while the first keeps serving.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import path from 'node:path'

export class DataDirInUseError extends Error {}

const LOCK_FILE = 'server.lock'

/**
 * Claims `dataDir` for this process until it exits. A lock left by a process that is gone (a
 * crash, SIGKILL, a container restarted with the same pid) is taken over.
 */
export function claimDataDir(dataDir: string, pid = process.pid) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = path.join(dataDir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // `wx`: created only if absent, so two servers starting together cannot both win.
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(pid))
      closeSync(fd)
      process.once('exit', () => releaseDataDir(dataDir, pid))
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number(readFileSync(file, 'utf8').trim())
      if (holder !== pid && isRunning(holder)) {
        throw new DataDirInUseError(
          `Another Brandcard server (pid ${holder}) is using the embedded database in ${path.resolve(dataDir)}: stop it first, or give this server its own DATA_DIR.`,
        )
      }
      unlinkSync(file)
    }
  }
  throw new DataDirInUseError(`Could not claim ${path.resolve(dataDir)}: try again.`)
}

/** Gives the directory up, if this process holds it. */
export function releaseDataDir(dataDir: string, pid = process.pid) {
  const file = path.join(dataDir, LOCK_FILE)
  try {
    if (Number(readFileSync(file, 'utf8').trim()) === pid) unlinkSync(file)
  } catch {}
}

function isRunning(pid: number) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
