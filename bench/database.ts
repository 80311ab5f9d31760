// The database of one driver's half of `npm run bench`: created empty, migrated and seeded with
// the demo by the bench itself through the owner's handle (as e2e/start-server.ts does), plus
// 10,000 views of one end user's card, before the server starts with SEED_DEMO=0.
// PGlite: a fresh data directory. Postgres: a fresh database on BENCH_DATABASE_URL or
// TEST_DATABASE_URL's server, served as in production (e2e/server-database.ts).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { and, count, eq } from 'drizzle-orm'
import { endUserStatistics } from '#app/dashboard/dashboard.server'
import { DEMO_PASSWORD, seedDemo } from '#app/demo/seed.server'
import { DEVICE_CLASSES } from '#app/models/card-views.server'
import { getDefaultCardForOwner } from '#app/models/cards.server'
import { findOrganizationForHost } from '#app/models/organizations.server'
import { findUserByEmail } from '#app/models/users.server'
import {
  type DatabaseHandle,
  openPglite,
  openPostgres,
  setDatabaseHandle,
  withTenant,
} from '#drizzle/db.server'
import { cardViews } from '#drizzle/schema'
import { createFreshPostgresDatabase, productionServerEnv } from '../e2e/postgres-database'
import type { Driver } from './budgets'

/** The demo's agency, its custom domain and the end user whose card and dashboard are measured. */
export const DEMO = {
  slug: 'acme',
  host: 'acme.localhost',
  customDomain: 'cards.acme.localhost',
  email: 'alice@acme.test',
  password: DEMO_PASSWORD,
} as const

export const SEEDED_VIEWS = 10_000
const VIEWS_PER_INSERT = 2_000
const STATISTICS_RUNS = 30

export type BenchDatabase = {
  driver: Driver
  /** What the server's environment adds (an undefined value removes a variable). */
  serverEnv: Record<string, string | undefined>
  /** A new owner's handle: for seeding before the server starts and counting after it stops. */
  open(): DatabaseHandle
  drop(): Promise<void>
}

export function postgresServerUrl() {
  return process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined
}

export async function createBenchDatabase(driver: Driver, port: number): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `brandcard-bench-${driver}-`))
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true })
  if (driver === 'pglite') {
    return {
      driver,
      serverEnv: { DATA_DIR: dataDir, DATABASE_URL: undefined, DATABASE_APP_URL: undefined },
      open: () => openPglite({ dataDir: path.join(dataDir, 'pglite') }),
      drop: async () => removeDataDir(),
    }
  }
  const serverUrl = postgresServerUrl()
  if (!serverUrl) throw new Error('the Postgres half needs BENCH_DATABASE_URL or TEST_DATABASE_URL')
  // One name per port: a killed run leaves at most this one behind, replaced by the next.
  const database = await createFreshPostgresDatabase(serverUrl, `brandcard_bench_${port}`)
  return {
    driver,
    // Nothing is written to DATA_DIR with DATABASE_URL set; a temporary one all the same.
    serverEnv: { ...productionServerEnv(database.url), DATA_DIR: dataDir },
    open: () => openPostgres(database.url, { max: 2 }),
    drop: async () => {
      await database.drop()
      removeDataDir()
    },
  }
}

export type Seeded = {
  organizationId: string
  userId: string
  cardId: string
  /** The card's short link (ADR 041), claimed from the name when the demo made the card. */
  shortSlug: string
}

/** Migrates, seeds the demo and 10,000 views of the demo end user's default card. */
export async function seedBenchData(handle: DatabaseHandle): Promise<Seeded> {
  setDatabaseHandle(handle)
  await handle.migrate()
  await seedDemo(handle.db)
  const seeded = await findDemoCard(handle)
  await withTenant(seeded.organizationId, async (tx) => {
    const now = Date.now()
    for (let start = 0; start < SEEDED_VIEWS; start += VIEWS_PER_INSERT) {
      const rows = []
      for (let i = start; i < Math.min(start + VIEWS_PER_INSERT, SEEDED_VIEWS); i++) {
        rows.push({
          organizationId: seeded.organizationId,
          cardId: seeded.cardId,
          visitorHash: randomBytes(16).toString('hex'),
          deviceClass: DEVICE_CLASSES[i % DEVICE_CLASSES.length],
          // Spread over the last 14 days: both weeks of the dashboard's comparison hold views.
          viewedAt: new Date(now - ((i * 14 * 24 * 60 * 60 * 1000) / SEEDED_VIEWS + 1000)),
        })
      }
      // One multi-row INSERT per 2,000 rows (5 parameters each, under Postgres's 65,535).
      await tx.insert(cardViews).values(rows)
    }
  })
  return seeded
}

async function findDemoCard(handle: DatabaseHandle): Promise<Seeded> {
  const organization = await findOrganizationForHost(handle.db, {
    kind: 'subdomain',
    slug: DEMO.slug,
  })
  if (!organization) throw new Error(`no demo organization ${DEMO.slug}`)
  return withTenant(organization.id, async (tx) => {
    const user = await findUserByEmail(tx, organization.id, DEMO.email)
    if (!user) throw new Error(`no demo user ${DEMO.email}`)
    const card = await getDefaultCardForOwner(tx, organization.id, user.id)
    if (!card) throw new Error(`no card for ${DEMO.email}`)
    if (!card.shortSlug) throw new Error(`no short link for ${DEMO.email}'s card`)
    return {
      organizationId: organization.id,
      userId: user.id,
      cardId: card.card.id,
      shortSlug: card.shortSlug,
    }
  })
}

/**
 * The end-user dashboard's statistics (the very function its loader calls) timed directly in
 * the bench process, STATISTICS_RUNS times after a few warm-up runs: the p50 in ms. Under
 * withTenant, so on Postgres the queries run as brandcard_app with row-level security, as a
 * request's do. The page's own latency under load is the dashboard scenario.
 */
export async function timeDashboardStatistics(seeded: Seeded) {
  const run = () => endUserStatistics(seeded.organizationId, seeded.userId, new Date())
  const first = await run()
  if (first.views.current + first.views.previous < SEEDED_VIEWS) {
    throw new Error(`the dashboard counts ${first.views.current} + ${first.views.previous} views`)
  }
  for (let i = 0; i < 4; i++) await run()
  const times: number[] = []
  for (let i = 0; i < STATISTICS_RUNS; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return Math.round((times[Math.floor(times.length / 2)] as number) * 10) / 10
}

/** Views of the card now recorded, to check that the new-visitor scenario recorded its views. */
export async function countCardViews(handle: DatabaseHandle, seeded: Seeded) {
  setDatabaseHandle(handle)
  return withTenant(seeded.organizationId, async (tx) => {
    const [row] = await tx
      .select({ views: count() })
      .from(cardViews)
      .where(
        and(
          eq(cardViews.organizationId, seeded.organizationId),
          eq(cardViews.cardId, seeded.cardId),
        ),
      )
    return row?.views ?? 0
  })
}
