// Migrates once per run: a PGlite data directory dumped to a file, or a Postgres template
// database. Each test file then clones it (tests/setup/db.ts).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import type { TestProject } from 'vitest/node'
import { openPglite, openPostgres } from '#drizzle/db.server'

export default async function setup(project: TestProject) {
  const driver = project.config.env?.TEST_DB_DRIVER
  if (driver === 'postgres') return setupPostgres(project)
  const handle = openPglite()
  await handle.migrate()
  const client = (handle as unknown as { client: PGlite }).client
  const dump = await client.dumpDataDir('none')
  // One file per run, so concurrent runs never read each other's half-written snapshot.
  const snapshot = path.resolve(`tests/.tmp/pglite-migrated-${process.pid}.tar`)
  mkdirSync(path.dirname(snapshot), { recursive: true })
  writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()))
  await handle.close()
  project.provide('pgliteSnapshot', snapshot)
  return () => rmSync(snapshot, { force: true })
}

async function setupPostgres(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set')
  const template = `brandcard_tpl_${process.pid}_${Date.now()}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${template}"`)
  const handle = openPostgres(withDatabase(serverUrl, template), { max: 1 })
  await handle.migrate()
  await handle.close()
  project.provide('postgresTemplate', template)
  return async () => {
    await admin.unsafe(`drop database if exists "${template}" with (force)`)
    await admin.end()
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
