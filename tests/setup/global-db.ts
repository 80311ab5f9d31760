// Migrates once per run: a PGlite data directory dumped to a file (or found dumped by an earlier
// run, tests/pglite-snapshots.ts), or a Postgres template database. Each test file then clones it
// (tests/setup/db.ts).
import { createHash } from 'node:crypto'
import { readlinkSync } from 'node:fs'
import { hostname } from 'node:os'
import postgres from 'postgres'
import type { TestProject } from 'vitest/node'
import { openPostgres } from '#drizzle/db.server'
import { pgliteSnapshots } from '#tests/pglite-snapshots'
import { dropDatabases, dropDatabasesAfterRun } from './drop-databases'

type Made = { name: string; empty?: string; teardown: () => Promise<void> }

// Each driver has two projects (the files that share processes and the isolated ones,
// vitest.config.ts), and the main process runs the global setup of each: they share one
// snapshot, dropped when the last of them tears down.
const store = globalThis as {
  __brandcardTestDatabases?: Map<string, { ready: Promise<Made>; users: number }>
}
store.__brandcardTestDatabases ??= new Map()
const made = store.__brandcardTestDatabases

export default async function setup(project: TestProject) {
  const driver = project.config.env?.TEST_DB_DRIVER === 'postgres' ? 'postgres' : 'pglite'
  let entry = made.get(driver)
  if (!entry) {
    entry = { ready: driver === 'postgres' ? setupPostgres() : setupPglite(), users: 0 }
    made.set(driver, entry)
  }
  const mine = entry
  mine.users++
  const { name, empty, teardown } = await settledWithin(mine.ready, SETUP_WATCHDOG_MS, driver)
  if (driver === 'postgres') {
    project.provide('postgresTemplate', name)
    // A PGlite restore target there too (backups.test.ts restores a Postgres dump into one):
    // loaded, not made by an initdb of its own each time.
    project.provide('pgliteEmptySnapshot', (await pgliteSnapshots()).empty)
  } else {
    project.provide('pgliteSnapshot', name)
    project.provide('pgliteEmptySnapshot', empty as string)
  }
  return async () => {
    mine.users--
    if (mine.users > 0) return
    made.delete(driver)
    await teardown()
  }
}

// A hang watchdog, not a speed check: migrating takes seconds on a quiet machine.
const SETUP_WATCHDOG_MS = 300_000

/**
 * The setup's result, or a failure after `ms`. A promise that never settles lets the event loop
 * empty, and vitest then ends with status 0 having run no test (seen when PGlite was asked for a
 * dump before it was ready): the timer keeps the process alive, so it fails instead.
 */
async function settledWithin<T>(work: Promise<T>, ms: number, driver: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`The ${driver} test database was not ready after ${ms / 1000} s`)),
      ms,
    )
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}

async function setupPglite(): Promise<Made> {
  // Kept for the next run and for the e2e servers (tests/pglite-snapshots.ts): nothing to remove.
  const { migrated, empty } = await pgliteSnapshots()
  return { name: migrated, empty, teardown: async () => {} }
}

async function setupPostgres(): Promise<Made> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set')
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await dropDatabasesOfEndedRuns(serverUrl, admin)
  const template = `${TEMPLATE_PREFIX}${PID_NAMESPACE}_${process.pid}_${Date.now().toString(36)}`
  await admin.unsafe(`create database "${template}"`)
  const handle = openPostgres(withDatabase(serverUrl, template), { max: 1 })
  await handle.migrate()
  await handle.close()
  return {
    name: template,
    teardown: async () => {
      // Each test file's database (tests/setup/db.ts) now that no file uses one, then the
      // template they were cloned from, by a process that outlives the run.
      const names = await databasesOfRun(admin, template)
      await admin.end()
      dropDatabasesAfterRun(serverUrl, names)
    },
  }
}

export const TEMPLATE_PREFIX = 'brandcard_tpl_'

/**
 * The process ids' namespace, in base 36: a run in another container on the same server has
 * process ids of its own, and one of them missing here says nothing of that run.
 */
export const PID_NAMESPACE = (() => {
  try {
    const inode = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1]
    if (inode) return Number(inode).toString(36)
  } catch {
    // Not Linux: the host's name stands for it.
  }
  return createHash('sha256').update(hostname()).digest('hex').slice(0, 8)
})()

/** Between the run's template name and a test file's own suffix in that file's database name. */
export const FILE_DATABASE_INFIX = '_file_'

/** The run's test file databases, then its template. */
async function databasesOfRun(admin: postgres.Sql, template: string) {
  const files = await admin<{ datname: string }[]>`
    select datname from pg_database where starts_with(datname, ${template + FILE_DATABASE_INFIX})`
  return [...files.map((file) => file.datname), template]
}

/**
 * The databases of a run whose vitest process is gone without its teardown (killed, or its
 * machine stopped): named after that process and its namespace, so a run going on beside this
 * one, here or in another container, keeps its own.
 */
export async function dropDatabasesOfEndedRuns(serverUrl: string, admin: postgres.Sql) {
  const ours = `${TEMPLATE_PREFIX}${PID_NAMESPACE}_`
  const templates = await admin<{ datname: string }[]>`
    select datname from pg_database
    where starts_with(datname, ${ours}) and strpos(datname, ${FILE_DATABASE_INFIX}) = 0`
  for (const { datname } of templates) {
    const pid = Number(datname.slice(ours.length).split('_')[0])
    if (Number.isInteger(pid) && pid > 0 && !processIsAlive(pid)) {
      await dropDatabases(serverUrl, await databasesOfRun(admin, datname))
    }
  }
}

function processIsAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function withDatabase(serverUrl: string, database: string) {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplate: string
    pgliteSnapshot: string
    pgliteEmptySnapshot: string
  }
}
