// Issue 26 point 13: a full disk must not reach the embedded database. On a small tmpfs holding
// DATA_DIR: the health check turns 503 with its reason before the disk is full, requests that
// may write are refused with 503 and a clear message, and the background writers (card views,
// the job queue) wait. Failed view flushes back off and log one line without parameters, and no
// database error keeps its query's parameters. On Postgres the database's disk is not ours.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { inspect } from 'node:util'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import {
  discardCardViewsForTests,
  flushCardViews,
  pendingCardViews,
  queueCardView,
  setViewBatchLog,
  viewFlushBackoffMs,
} from '#app/cards/view-batcher.server'
import { resetEnvForTests } from '#app/env.server'
import { startJobWorker, stopJobWorker } from '#app/jobs/worker.server'
import { insertJob } from '#app/models/jobs.server'
import { loader as healthCheck } from '#app/routes/api.health-check'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { diskSpaceResponse, forgetDiskSpaceReading } from '#app/storage/disk-space.server'
import { getDatabaseHandle, withDatabase, withTenant } from '#drizzle/db.server'
import { databaseErrorSummary } from '#drizzle/redact.server'
import { cardViews, jobs } from '#drizzle/schema'
import {
  contextFor,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  settle,
} from '#tests/factories'

const MB = 1024 * 1024
const embedded = () => getDatabaseHandle().driver === 'pglite'
const mountPoint = path.resolve(
  `tests/.tmp/disk-space-${process.pid}-${process.env.TEST_DB_DRIVER}`,
)
const filler = path.join(mountPoint, 'filler')
const saved = { DATA_DIR: process.env.DATA_DIR, DISK_MIN_FREE_MB: process.env.DISK_MIN_FREE_MB }

beforeAll(() => {
  mkdirSync(mountPoint, { recursive: true })
  // 16 MB of tmpfs stands in for DATA_DIR's disk; CI runs as root, as this machine does.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint])
  process.env.DATA_DIR = mountPoint
  process.env.DISK_MIN_FREE_MB = '4'
  resetEnvForTests()
})

afterAll(() => {
  execFileSync('umount', [mountPoint])
  rmdirSync(mountPoint)
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  resetEnvForTests()
})

afterEach(() => {
  freeTheDisk()
  discardCardViewsForTests()
})

/** Leaves `freeMb` free on the tmpfs. */
function fillDiskLeaving(freeMb: number) {
  writeFileSync(filler, Buffer.alloc((16 - freeMb) * MB))
  forgetDiskSpaceReading()
}

function freeTheDisk() {
  rmSync(filler, { force: true })
  forgetDiskSpaceReading()
}

async function health() {
  const response = (await healthCheck({
    request: requestFor('localhost', '/api/health-check'),
    context: contextFor('localhost'),
    params: {},
  })) as Response
  return { status: response.status, body: (await response.json()) as Record<string, string> }
}

test('the health check turns 503 with its reason before the disk is full', async () => {
  fillDiskLeaving(8)
  expect((await health()).status).toBe(200)
  fillDiskLeaving(2)
  const { status, body } = await health()
  if (!embedded()) {
    expect(status).toBe(200)
    return
  }
  expect(status).toBe(503)
  expect(body.error).toMatch(/^Disk space low: [12] MB free .* below DISK_MIN_FREE_MB \(4 MB\)$/)
  freeTheDisk()
  expect((await health()).status).toBe(200)
})

test('a request that may write answers 503 with a clear message; reads go on', async () => {
  fillDiskLeaving(2)
  const organization = await makeOrganization({ name: 'Acme Cards' })
  const page = await diskSpaceResponse('POST', `${organization.slug}.localhost`, 'text/html')
  const data = await diskSpaceResponse('DELETE', 'localhost', '*/*')
  expect(await diskSpaceResponse('GET', 'localhost', 'text/html')).toBeNull()
  expect(await diskSpaceResponse('HEAD', 'localhost', 'text/html')).toBeNull()
  if (!embedded()) {
    expect(page).toBeNull()
    expect(data).toBeNull()
    return
  }
  expect(page?.status).toBe(503)
  expect(page?.headers.get('Retry-After')).toBe('60')
  const html = (await page?.text()) ?? ''
  expect(html).toContain('Saving is paused')
  expect(html).toContain('Acme Cards cannot save changes right now')
  expect(data?.status).toBe(503)
  expect(await data?.json()).toEqual({ error: expect.stringMatching(/Nothing was changed/) })
  freeTheDisk()
  expect(await diskSpaceResponse('POST', 'localhost', 'text/html')).toBeNull()
})

describe('the background writers', () => {
  test('card views wait while the disk is short, and are written once it is not', async () => {
    const organization = await makeOrganization()
    const user = await makeUser(organization.id)
    const card = await makeCard(organization.id, user.id)
    const logged: string[] = []
    setViewBatchLog((line) => logged.push(line))
    fillDiskLeaving(2)
    queueCardView({
      organizationId: organization.id,
      cardId: card.id,
      visitorHash: 'waits-for-disk',
      deviceClass: 'desktop',
    })
    if (embedded()) {
      await expect(flushCardViews()).rejects.toMatchObject({ code: 'DISK_SPACE_LOW' })
      expect(pendingCardViews()).toBe(1)
      expect(logged).toEqual([
        'card views: 1 not written yet (DISK_SPACE_LOW the disk is short of space, writes are paused); attempt 1, next in 1 s',
      ])
      expect(await viewsOf(organization.id, card.id)).toBe(0)
    }
    freeTheDisk()
    await flushCardViews()
    expect(pendingCardViews()).toBe(0)
    expect(await viewsOf(organization.id, card.id)).toBe(1)
  })

  test("the card page's own view (a visitor with a query string) waits too, and the page is shown", async () => {
    const organization = await makeOrganization()
    const user = await makeUser(organization.id)
    const card = await makeCard(organization.id, user.id)
    const host = `${organization.slug}.localhost`
    fillDiskLeaving(2)
    const page = await settle(() =>
      cardLoader({
        request: requestFor(host, `/card/${card.id}?ref=mail`),
        context: contextFor(host, '198.51.100.77'),
        params: { ref: card.id },
      }),
    )
    expect(page.status).toBe(200)
    // On Postgres nothing is gated: the loader writes the view itself.
    expect(await viewsOf(organization.id, card.id)).toBe(embedded() ? 0 : 1)
    expect(pendingCardViews()).toBe(embedded() ? 1 : 0)
    freeTheDisk()
    await flushCardViews()
    expect(await viewsOf(organization.id, card.id)).toBe(1)
  })

  test('the job queue takes no job while the disk is short', async () => {
    const ran: string[] = []
    const logged: string[] = []
    fillDiskLeaving(2)
    await withDatabase((tx) =>
      insertJob(tx, { name: 'email.send', idempotencyKey: `disk-${Date.now()}` }),
    )
    startJobWorker(
      {
        'email.send': {
          async run(job) {
            ran.push(job.id)
          },
        },
      },
      (line) => logged.push(line),
    )
    try {
      if (embedded()) {
        await vi.waitFor(
          () => expect(logged).toContain('job worker: paused, the disk is short of space'),
          { timeout: 60_000 },
        )
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect(ran).toEqual([])
      }
      freeTheDisk()
      await vi.waitFor(() => expect(ran).toHaveLength(1), { timeout: 60_000 })
      if (embedded()) expect(logged).toContain('job worker: resumed')
    } finally {
      await stopJobWorker()
      await withDatabase((tx) => tx.delete(jobs))
    }
  })

  test('failed flushes back off, doubling up to a minute', () => {
    const waits = Array.from({ length: 9 }, (_, i) => viewFlushBackoffMs(i + 1))
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000])
  })

  test('a failed flush logs one short line, without the views it was sending', async () => {
    const logged: string[] = []
    setViewBatchLog((line) => logged.push(line))
    const hashes = Array.from({ length: 600 }, (_, i) => `secret-visitor-${i}`.padEnd(32, 'x'))
    // Not a uuid: the insert fails with every hash among its parameters.
    for (const visitorHash of hashes) {
      queueCardView({
        organizationId: '00000000-0000-4000-8000-000000000000',
        cardId: 'not-a-card-id',
        visitorHash,
        deviceClass: 'mobile',
      })
    }
    await flushCardViews().catch(() => {})
    await vi.waitFor(() => expect(logged.length).toBeGreaterThan(0), { timeout: 60_000 })
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatch(
      /^card views: 600 not written yet \(22P02 invalid input syntax for type uuid/,
    )
    expect(logged[0]?.length).toBeLessThan(300)
    expect(logged[0]).not.toContain('secret-visitor')
  })
})

test('a database error keeps none of its query’s parameters, for any logger', async () => {
  const secret = 'reset-token-that-must-not-be-logged'
  const organization = await makeOrganization()
  const error = await withTenant(organization.id, (tx) =>
    tx.execute(sql`select length(${secret}) / 0`),
  ).catch((thrown: unknown) => thrown)
  expect(error).toBeInstanceOf(Error)
  expect(inspect(error, { depth: 10 })).not.toContain(secret)
  expect(JSON.stringify(error)).not.toContain(secret)
  expect(String((error as Error).stack)).not.toContain(secret)
  expect(databaseErrorSummary(error)).toBe('22012 division by zero')
})

async function viewsOf(organizationId: string, cardId: string) {
  const rows = await withTenant(organizationId, (tx) =>
    tx.select().from(cardViews).where(sql`${cardViews.cardId} = ${cardId}`),
  )
  return rows.length
}
