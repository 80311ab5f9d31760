// One server per embedded data directory (issue 27 point 6, issue 39 point 4). PGlite takes no
// lock of its own: a second process on the same files would corrupt them, so the server claims
// DATA_DIR first and a second one exits with a clear message while the first keeps serving.
//
// The claim is a directory of entries, one file per claiming process named by its pid: each
// claimer adds its own entry (so an entry never exists without its pid), then lists the others,
// deleting those whose process is dead. It wins only if no live one is left; otherwise it takes
// its entry back. Two claimers can never both win: each entry is in place before its owner
// lists, so of two racing claimers the later lister sees the earlier one's entry. Nothing is
// ever deleted by another process while its owner lives (the old single lock file was: between
// its creation and its pid, or between reading a dead pid and deleting the file).
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'

export class DataDirInUseError extends Error {}

const CLAIMS_DIR = 'server-claims'
// Entries' contents: a claim being decided, a holder, and a holder on its way out.
const CLAIMING = 'claiming'
const HOLDING = 'holding'
const STOPPING = 'stopping'

// Two claimers that meet while both are deciding both step back and try again after a random
// pause; a holder that is stopping is waited for (its shutdown is bounded: scripts/supervise.ts).
const RACE_ATTEMPTS = 20
const POLL_MS = 25

const claimsOf = (dataDir: string) => path.join(dataDir, CLAIMS_DIR)
const entryOf = (dataDir: string, pid: number) => path.join(claimsOf(dataDir), String(pid))

/**
 * Claims `dataDir` for this process until it exits. A claim left by a process that is gone (a
 * crash, SIGKILL, a container restarted with the same pid) is taken over at once, and one whose
 * server is shutting down is waited for, up to `waitForStoppingMs`.
 */
export function claimDataDir(dataDir: string, pid = process.pid, waitForStoppingMs = 30_000) {
  mkdirSync(claimsOf(dataDir), { recursive: true, mode: 0o700 })
  const waitUntil = Date.now() + waitForStoppingMs
  for (let attempt = 1; ; attempt++) {
    writeEntry(dataDir, pid, CLAIMING)
    const others = liveClaims(dataDir, pid)
    if (others.length === 0) {
      writeEntry(dataDir, pid, HOLDING)
      process.once('exit', () => releaseDataDir(dataDir, pid))
      return
    }
    // Not ours: our entry goes, and nobody is kept from the directory by it.
    removeEntry(dataDir, pid)
    const holder = others.find((other) => other.state === HOLDING) ?? others[0]
    const stopping = others.every((other) => other.state === STOPPING)
    const waiting = stopping ? Date.now() < waitUntil : attempt < RACE_ATTEMPTS
    if (others.some((other) => other.state === HOLDING) || !waiting) {
      throw new DataDirInUseError(
        `Another Brandcard server (pid ${holder?.pid}) is using the embedded database in ${path.resolve(dataDir)}: stop it first, or give this server its own DATA_DIR.`,
      )
    }
    // A holder on its way out is waited for; two claimers deciding at once both stepped back,
    // and a random pause lets one of them go first.
    sleep(stopping ? POLL_MS : POLL_MS * Math.random() * attempt)
  }
}

/** Says this process is giving the directory up: a server starting meanwhile waits for it. */
export function stoppingDataDir(dataDir: string, pid = process.pid) {
  try {
    if (readEntry(dataDir, pid).state === HOLDING) {
      writeEntry(dataDir, pid, STOPPING)
    }
  } catch {}
}

/** Gives the directory up, if this process holds it. */
export function releaseDataDir(dataDir: string, pid = process.pid) {
  removeEntry(dataDir, pid)
}

function writeEntry(dataDir: string, pid: number, state: string) {
  const fd = openSync(entryOf(dataDir, pid), 'w', 0o600)
  try {
    writeSync(fd, `${state}\n${identityOf(pid)}`)
  } finally {
    closeSync(fd)
  }
}

function removeEntry(dataDir: string, pid: number) {
  try {
    unlinkSync(entryOf(dataDir, pid))
  } catch {}
}

/** The other claims whose process lives; those of dead processes are deleted on the way. */
function liveClaims(dataDir: string, pid: number) {
  const live: { pid: number; state: string }[] = []
  for (const name of readdirSync(claimsOf(dataDir))) {
    const other = Number(name)
    if (!/^\d+$/.test(name) || other === pid) continue
    let entry: { state: string; identity: string }
    try {
      entry = readEntry(dataDir, other)
    } catch {
      continue // taken back meanwhile
    }
    // Dead, or its pid now another process's (a reboot, or pids coming round): the entry's
    // process is gone either way.
    if (!isRunning(other) || (entry.identity !== '' && entry.identity !== identityOf(other))) {
      // Only a dead process's entry, by its own name: never one a live claimer just wrote.
      removeEntry(dataDir, other)
      continue
    }
    live.push({ pid: other, state: entry.state })
  }
  return live
}

/** An entry's state and the identity of the process that wrote it ('' in older entries). */
function readEntry(dataDir: string, pid: number) {
  const [state = CLAIMING, identity = ''] = readFileSync(entryOf(dataDir, pid), 'utf8').split('\n')
  return { state, identity }
}

/**
 * What tells one process from a later one with the same pid: the boot and the process's start
 * time since it (/proc/PID/stat's 22nd field); '' where /proc cannot say (not Linux), where the
 * pid alone has to do.
 */
export function identityOf(pid: number) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The fields after "(comm)": state is the 3rd field of the line, so start time (the 22nd) is
    // the 20th of these.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? ''
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    return startTime ? `${boot}:${startTime}` : ''
  } catch {
    return ''
  }
}

/**
 * Whether `pid` is a live process. A process killed but not yet reaped by its parent (a
 * zombie: `kill -9` on a server whose supervisor has not run yet) still answers signal 0, but
 * holds no file any more: on Linux its state says so.
 */
export function isRunning(pid: number) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  try {
    // "pid (comm) S ...": the state follows the last parenthesis (comm may hold any).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
    return state !== 'Z' && state !== 'X'
  } catch {
    // No /proc (macOS), or it went away between the two looks.
    return process.platform !== 'linux'
  }
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}
