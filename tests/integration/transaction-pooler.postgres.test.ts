// Postgres only (a *.postgres.test.ts file): requests through PgBouncer in transaction mode
// (issue 44 point 2, ADR 096). With one server connection behind the pooler, every transaction of
// every tenant runs on that same backend one after another: the tenant and role set for row-level
// security must stay inside each transaction (SET LOCAL), statements must go unprepared, and
// LISTEN must keep a session of its own straight to Postgres.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import {
  type DatabaseHandle,
  getDatabaseHandle,
  openPostgres,
  setDatabaseHandle,
  withDatabase,
  withTenant,
} from '#drizzle/db.server'
import { digitalCards } from '#drizzle/schema'
import { rowsOf } from '#tests/checksum'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'
import { freePort } from '../../e2e/postgres-cluster'
import { type PgBouncerProcess, startPgBouncer } from '../../scripts/cluster/pgbouncer'

const PROMPTLY = { timeout: 30_000, interval: 50 }

let direct: DatabaseHandle
let pooled: DatabaseHandle
let pooler: PgBouncerProcess
let workDir: string

beforeAll(async () => {
  const fileUrl = process.env.TEST_FILE_DATABASE_URL as string
  workDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-pooler-test-'))
  pooler = await startPgBouncer({
    port: await freePort(),
    serverUrl: fileUrl,
    dir: workDir,
    users: ['postgres'],
    poolSize: 1,
  })
  const url = new URL(pooler.urlFor(fileUrl))
  url.username = new URL(fileUrl).username
  direct = getDatabaseHandle()
  pooled = openPostgres(url.toString(), { prepare: false, listenUrl: fileUrl, max: 8 })
  setDatabaseHandle(pooled)
}, 60_000)

afterAll(async () => {
  setDatabaseHandle(direct)
  await pooled?.close()
  await pooler?.stop()
  rmSync(workDir, { recursive: true, force: true })
})

test('many tenants on one pooled server connection each see only their own rows', async () => {
  const tenants = await Promise.all(
    ['Pooled A', 'Pooled B', 'Pooled C'].map(async (name) => {
      const org = await makeOrganization({ name })
      const owner = await makeUser(org.id)
      const card = await makeCard(org.id, owner.id, { title: `${name} card` })
      return { org, card }
    }),
  )
  const backends = new Set<number>()
  // Interleaved transactions of every tenant, many at once: the pooler queues them on its one
  // server connection, so each follows another tenant's on the same backend.
  const seen = await Promise.all(
    Array.from({ length: 60 }, (_, i) => tenants[i % tenants.length]).map((tenant) =>
      withTenant(tenant?.org.id as string, async (tx) => {
        const [backend] = rowsOf<{ pid: number }>(
          await tx.execute(sql`select pg_backend_pid() as pid`),
        )
        backends.add(backend?.pid as number)
        const cards = await tx.select({ id: digitalCards.id }).from(digitalCards)
        return { expected: tenant?.card.id, ids: cards.map((card) => card.id) }
      }),
    ),
  )
  expect(backends.size).toBe(1)
  for (const { expected, ids } of seen) expect(ids).toEqual([expected])

  // Nothing of a tenant's transaction stays on the backend for the next one.
  const [after] = rowsOf<{ tenant: string | null; role: string }>(
    await withDatabase((tx) =>
      tx.execute(
        sql`select nullif(current_setting('app.organization_id', true), '') as tenant, current_user as role`,
      ),
    ),
  )
  expect(after).toEqual({ tenant: null, role: 'brandcard_app' })
  const [outside] = rowsOf<{ role: string }>(
    await pooled.db.execute(sql`select current_user as role`),
  )
  expect(outside?.role).toBe('postgres')
})

test('LISTEN keeps a direct session: a change committed through the pooler is announced', async () => {
  const org = await makeOrganization({ name: 'Pooled listener' })
  const owner = await makeUser(org.id)
  const card = await makeCard(org.id, owner.id)
  const heard: string[] = []
  const unlisten = await pooled.listen(
    'brandcard_changes',
    (payload) => heard.push(payload),
    () => {},
  )
  try {
    await withTenant(org.id, (tx) =>
      tx.update(digitalCards).set({ title: 'Renamed' }).where(eq(digitalCards.id, card.id)),
    )
    await vi.waitFor(() => expect(heard).toContain(org.id), PROMPTLY)
  } finally {
    await unlisten()
  }
})
