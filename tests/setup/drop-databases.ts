// Drops a test run's Postgres databases: awaited (dropDatabases), or after the run in a process of
// its own (dropDatabasesAfterRun), which is this file run as a script.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import { typeScriptArgs } from '../../scripts/server-command'

/**
 * Drops `names`, the last one after the others (a run's template, which its file databases were
 * cloned from). Each DROP DATABASE forces a checkpoint and waits for it, and drops that wait
 * together share one: 124 file databases took 24 s eight at a time and 16.5 s fifty at a
 * time (2026-12-07). Thirty-two leave room on a server of 100 connections.
 */
export async function dropDatabases(serverUrl: string, names: string[]) {
  const droppers = postgres(serverUrl, { max: 32, onnotice: () => {} })
  const drop = (name: string) => droppers.unsafe(`drop database if exists "${name}" with (force)`)
  try {
    await Promise.all(names.slice(0, -1).map(drop))
    await Promise.all(names.slice(-1).map(drop))
  } finally {
    await droppers.end()
  }
}

const SERVER_URL_VARIABLE = 'DROP_DATABASES_SERVER_URL'

/**
 * Drops `names` in a detached process, so that the run ends without waiting for it: nothing reads
 * a test database once its run is over, and the drops took 14-24 s after a run's last file. A
 * drop that never happens (the machine stopped first) is made by the next run, which drops the
 * databases of runs whose process is gone (tests/setup/global-db.ts).
 */
export function dropDatabasesAfterRun(serverUrl: string, names: string[]) {
  if (names.length === 0) return
  const child = spawn(process.execPath, typeScriptArgs(fileURLToPath(import.meta.url), ...names), {
    cwd: path.resolve(import.meta.dirname, '../..'),
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [SERVER_URL_VARIABLE]: serverUrl },
  })
  child.unref()
}

// Run as a script (by dropDatabasesAfterRun): the names are its arguments.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const serverUrl = process.env[SERVER_URL_VARIABLE]
  if (!serverUrl) throw new Error(`${SERVER_URL_VARIABLE} is not set`)
  await dropDatabases(serverUrl, process.argv.slice(2))
}
