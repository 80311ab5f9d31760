// Migrates once per run: a PGlite data directory dumped to a file, or a Postgres template
// database. Each test file then clones it (tests/setup/db.ts).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import type { TestProject } from 'vitest/node'
import { openPglite, openPostgres } from '#drizzle/db.server'

type Made = { name: string; teardown: () => Promise<void> }

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
  const { name, teardown } = await mine.ready
  if (driver === 'postgres') project.provide('postgresTemplate', name)
  else project.provide('pgliteSnapshot', name)
  return async () => {
    mine.users--
    if (mine.users > 0) return
    made.delete(driver)
    await teardown()
  }
}

async function setupPglite(): Promise<Made> {
  const handle = openPglite()
  await handle.migrate()
  const client = (handle as unknown as { client: PGlite }).client
  const dump = await client.dumpDataDir('none')
  // One file per run, so concurrent runs never read each other's half-written snapshot.
  const snapshot = path.resolve(`tests/.tmp/pglite-migrated-${process.pid}.tar`)
  mkdirSync(path.dirname(snapshot), { recursive: true })
  writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()))
  await handle.close()
  return { name: snapshot, teardown: async () => rmSync(snapshot, { force: true }) }
}

async function setupPostgres(): Promise<Made> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set')
  const template = `brandcard_tpl_${process.pid}_${Date.now()}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${template}"`)
  const handle = openPostgres(withDatabase(serverUrl, template), { max: 1 })
  await handle.migrate()
  await handle.close()
  return {
    name: template,
    teardown: async () => {
      await admin.unsafe(`drop database if exists "${template}" with (force)`)
      await admin.end()
    },
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
  }
}
