// Gives each test file its own migrated database, cloned from the run's snapshot.
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { afterAll, beforeAll, beforeEach, inject } from 'vitest'
import { clearTenantCache } from '#app/tenancy/tenant.server'
import {
  closeDatabase,
  type DatabaseHandle,
  heldDatabaseHandle,
  openPostgres,
  setDatabaseHandle,
} from '#drizzle/db.server'
import { FILE_DATABASE_INFIX, withDatabase } from './global-db'
import { adoptNewPglite, releasePglite, takeReusedPglite } from './pglite-reuse'
import { openPgliteSnapshot } from './pglite-snapshot'

let cleanup: (() => Promise<void>) | undefined

export async function openTestDatabase(): Promise<{
  handle: DatabaseHandle
  release: () => Promise<void>
}> {
  if (process.env.TEST_DB_DRIVER === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL as string
    // Named after the run's template, whose teardown drops it (tests/setup/global-db.ts), not
    // the file as it ends: a DROP DATABASE forces an immediate checkpoint and waits for it,
    // writing out every other file's dirty pages meanwhile, and the file's worker sat idle in it
    // (50 s of the Postgres files' 278 s on 2026-12-06).
    const name = `${inject('postgresTemplate')}${FILE_DATABASE_INFIX}${randomBytes(6).toString('hex')}`
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database "${name}" template "${inject('postgresTemplate')}"`)
    // A commit returns before its WAL reaches the disk: what every session sees is the same, only
    // a crash of the server could lose the last commits, and no test crashes the shared server.
    // Each of a file's hundreds of writing commits skipped a wait for the disk (about 10 ms of
    // 23 on the busy day it was measured, ADR 062), time the file's worker spent idle.
    await admin.unsafe(`alter database "${name}" set synchronous_commit = off`)
    const url = withDatabase(serverUrl, name)
    // Tests that start the production path themselves (prepareDatabase) need the file's URL.
    process.env.TEST_FILE_DATABASE_URL = url
    const handle = openPostgres(url, { max: 5 })
    return {
      handle,
      release: () => admin.end(),
    }
  }
  // The process's PGlite from the file before, emptied and checked, or a new one (ADR 123).
  const reused = takeReusedPglite()
  if (reused) return { handle: reused, release: () => releasePglite(reused) }
  const handle = openPgliteSnapshot()
  await adoptNewPglite(handle)
  return { handle, release: () => releasePglite(handle) }
}

beforeAll(async () => {
  const { handle, release } = await openTestDatabase()
  setDatabaseHandle(handle)
  cleanup = async () => {
    // The app lets go of the file's PGlite, which release gives back for the next file (or
    // closes); any other handle the app holds now (one a test set and left) is closed as before.
    if (handle.driver === 'pglite' && heldDatabaseHandle() === handle) setDatabaseHandle(undefined)
    else await closeDatabase()
    await release()
  }
})

beforeEach(() => {
  clearTenantCache()
})

afterAll(async () => {
  await cleanup?.()
})
