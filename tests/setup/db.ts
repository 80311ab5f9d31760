// Gives each test file its own migrated database, cloned from the run's snapshot.
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { afterAll, beforeAll, beforeEach, inject } from 'vitest'
import { clearTenantCache } from '#app/tenancy/tenant.server'
import {
  closeDatabase,
  type DatabaseHandle,
  openPostgres,
  setDatabaseHandle,
} from '#drizzle/db.server'
import { withDatabase } from './global-db'
import { openPgliteSnapshot } from './pglite-snapshot'

let cleanup: (() => Promise<void>) | undefined

export async function openTestDatabase(): Promise<{
  handle: DatabaseHandle
  drop: () => Promise<void>
}> {
  if (process.env.TEST_DB_DRIVER === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL as string
    const name = `brandcard_test_${randomBytes(6).toString('hex')}`
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
      drop: async () => {
        await admin.unsafe(`drop database if exists "${name}" with (force)`)
        await admin.end()
      },
    }
  }
  return { handle: openPgliteSnapshot(), drop: async () => {} }
}

beforeAll(async () => {
  const { handle, drop } = await openTestDatabase()
  setDatabaseHandle(handle)
  cleanup = async () => {
    await closeDatabase()
    await drop()
  }
})

beforeEach(() => {
  clearTenantCache()
})

afterAll(async () => {
  await cleanup?.()
})
