// Issue 26 point 17: the embedded database acknowledges a commit only once it is on the disk
// (fsync on, and fsync really reaching the file), unless a throwaway demo opts out.
import fs, { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type DatabaseHandle, openPglite } from '#drizzle/db.server'

async function setting(handle: DatabaseHandle, name: 'fsync' | 'wal_sync_method') {
  const rows = (await handle.db.execute(sql.raw(`show ${name}`))) as unknown as {
    rows: Record<string, string>[]
  }
  return rows.rows[0]?.[name]
}

// initdb once (seconds on a busy machine); each case opens the directory again with its settings.
let dataDir = ''
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-fsync-'))
  const handle = openPglite({ dataDir })
  await handle.db.execute(sql`create table durable (id int)`)
  await handle.close()
}, 120_000)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Opens PGlite on the data directory, inserts one row, and says what reached fsync. */
async function commitOneRow() {
  const handle = openPglite({ dataDir })
  try {
    await handle.db.execute(sql`select 1`)
    const fsync = vi.spyOn(fs, 'fsyncSync')
    await handle.db.execute(sql`insert into durable values (1)`)
    const calls = fsync.mock.calls.length
    fsync.mockRestore()
    return {
      fsync: await setting(handle, 'fsync'),
      walSyncMethod: await setting(handle, 'wal_sync_method'),
      fsyncCallsForOneCommit: calls,
    }
  } finally {
    await handle.close()
  }
}

describe('the embedded database’s durability', () => {
  afterEach(() => {
    delete process.env.PGLITE_FSYNC
  })

  it('is durable by default: a commit is fsynced to the data directory before it is answered', async () => {
    const opened = await commitOneRow()
    expect(opened.fsync).toBe('on')
    // Emscripten's fdatasync does nothing; fsync goes through to the file.
    expect(opened.walSyncMethod).toBe('fsync')
    expect(opened.fsyncCallsForOneCommit).toBeGreaterThan(0)
  }, 60_000)

  it('PGLITE_FSYNC=off opts out, for throwaway demos', async () => {
    process.env.PGLITE_FSYNC = 'off'
    const opened = await commitOneRow()
    expect(opened.fsync).toBe('off')
    expect(opened.fsyncCallsForOneCommit).toBe(0)
  }, 60_000)

  it('refuses a value it does not know rather than guessing', () => {
    process.env.PGLITE_FSYNC = 'sometimes'
    expect(() => openPglite()).toThrow(/PGLITE_FSYNC must be on or off/)
  })
})
