// `npm run bench:scale` (issue 16 point 4, flat cost as tenants grow): the public card page and
// sign-in on a small database (the demo, as `npm run bench` seeds it) against a large one (the
// same demo plus 10,000 agencies, 100,000 users, 200,000 cards, a session per user and a view per
// card, bench/bulk-tenants.ts), each served by the built server. Both servers run side by side
// and are measured in turns, round after round, so the machine's other load falls on both
// alike; each figure is the median of the rounds, and the large one must be within 15% of the
// small one. On PGlite, and on Postgres too with BENCH_DATABASE_URL or TEST_DATABASE_URL.
// Build first: `npm run build`.
import os from 'node:os'
import { closeDatabase, setDatabaseHandle } from '#drizzle/db.server'
import type { Driver, Measurement, ScenarioId } from './budgets'
import { type BulkCounts, seedBulkTenants } from './bulk-tenants'
import {
  type BenchDatabase,
  createBenchDatabase,
  DEMO,
  postgresServerUrl,
  type Seeded,
  seedBenchData,
} from './database'
import { request, settle } from './http'
import { keepRun, unexpectedAnswers } from './report'
import {
  allWithin,
  compareSizes,
  comparisonRow,
  SCALE_TOLERANCE,
  type SizeComparison,
} from './scale-compare'
import {
  CONNECTIONS,
  cardPageRequest,
  measure,
  SCENARIO_NAMES,
  type Scenario,
  scenarios,
  signInRequest,
} from './scenarios'
import { type AppServer, startAppServer } from './server'
import { positiveSetting, prepareBenchProcess } from './settings'

// 3292 is `npm run bench`'s: this one can run beside it. The large database's server listens on
// BENCH_PORT + 1.
const PORT = Number(process.env.BENCH_PORT ?? 3700)
const SECONDS = positiveSetting('BENCH_SECONDS', 5)
const WARMUP_SECONDS = positiveSetting('BENCH_WARMUP_SECONDS', 2)
// 5 rounds × 2 scenarios × 2 sizes × 5 s is under 2 minutes of load per driver: medians of 5
// hold better than of 3 against the machine's other load (sign-in's p50 moved 2× between rounds).
const ROUNDS = positiveSetting('BENCH_ROUNDS', 5)
const SCALE_SCENARIOS: ScenarioId[] = ['card-returning', 'sign-in']
// Sign-in is argon2's work (19 MiB, on libuv's thread pool): 50 connections queue for it, and under
// a load average of 20 on 2 cores whole 5 s rounds passed with not one sign-in answered. 8 keep
// the threads busy with a short queue, so each round has answers to compare.
const CONNECTIONS_FOR: Partial<Record<ScenarioId, number>> = { 'sign-in': 8 }

prepareBenchProcess()

const startedAt = new Date()
const started = performance.now()
const loadAtStart = os.loadavg()[0]
const elapsed = () => Math.round((performance.now() - started) / 1000)
const log = (message: string) => console.log(`[bench:scale ${elapsed()} s] ${message}`)
const warnings: string[] = []

type Size = 'small' | 'large'
type Side = { size: Size; database: BenchDatabase; seeded: Seeded; server?: AppServer }

type DriverScale = {
  driver: Driver
  seedingSeconds: number
  bulk: BulkCounts
  rounds: Record<Size, Partial<Record<ScenarioId, Measurement[]>>>
  comparisons: Partial<Record<ScenarioId, SizeComparison>>
}

/** The demo (migrated and seeded as `npm run bench` does), and the bulk tenants on top if asked. */
async function seed(database: BenchDatabase, bulk: boolean) {
  const owner = database.open()
  try {
    const seeded = await seedBenchData(owner)
    if (!bulk) return { seeded }
    const bulkStarted = performance.now()
    const counts = await seedBulkTenants(owner.db)
    const seconds = Math.round((performance.now() - bulkStarted) / 100) / 10
    return { seeded, bulk: { counts, seconds } }
  } finally {
    await closeDatabase()
  }
}

/** The two scenarios of this bench, exactly as `npm run bench` defines them. */
function scaleScenarios(seeded: Seeded): Scenario[] {
  return scenarios({ ...seeded, logoPath: '', sessionCookie: '' }).filter((scenario) =>
    SCALE_SCENARIOS.includes(scenario.id),
  )
}

async function checkAnswers(side: Side, port: number) {
  const card = await request(port, cardPageRequest(side.seeded.cardId))
  if (card.status !== 200) throw new Error(`${side.size}: the card page answered ${card.status}`)
  const signIn = await request(port, signInRequest())
  if (signIn.status !== 302) throw new Error(`${side.size}: signing in answered ${signIn.status}`)
}

async function runDriver(driver: Driver): Promise<DriverScale> {
  const sides: Side[] = []
  let bulk: { counts: BulkCounts; seconds: number } | undefined
  try {
    for (const size of ['small', 'large'] as const) {
      log(`${driver}, ${size}: creating, migrating and seeding the demo`)
      const database = await createBenchDatabase(driver, size === 'small' ? PORT : PORT + 1)
      // Kept before seeding, so that a failure still drops it.
      const side: Side = {
        size,
        database,
        seeded: { organizationId: '', userId: '', cardId: '', shortSlug: '' },
      }
      sides.push(side)
      const seeded = await seed(database, size === 'large')
      side.seeded = seeded.seeded
      bulk ??= seeded.bulk
    }
    if (!bulk) throw new Error('the large database was not bulk-seeded')
    const { counts, seconds } = bulk
    log(
      `${driver}, large: bulk seeding took ${seconds} s: ${counts.agencies} agencies, ${counts.media} media, ${counts.users} users, ${counts.cards} cards, ${counts.sessions} sessions, ${counts.views} views`,
    )
    const figures: DriverScale = {
      driver,
      seedingSeconds: seconds,
      bulk: counts,
      rounds: { small: {}, large: {} },
      comparisons: {},
    }
    const portOf = (side: Side) => (side.size === 'small' ? PORT : PORT + 1)
    for (const side of sides) {
      log(`${driver}, ${side.size}: starting the server on port ${portOf(side)}`)
      side.server = await startAppServer(portOf(side), side.database.serverEnv)
      await checkAnswers(side, portOf(side))
    }
    for (const side of sides) {
      await measure(portOf(side), { request: cardPageRequest(side.seeded.cardId) }, WARMUP_SECONDS)
    }
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternating which size goes first, so neither always follows the other's leftovers.
      const order = round % 2 === 1 ? sides : [...sides].reverse()
      for (const id of SCALE_SCENARIOS) {
        for (const side of order) {
          const scenario = scaleScenarios(side.seeded).find((each) => each.id === id) as Scenario
          const port = portOf(side)
          const settled = await settle(port)
          if (settled > 1000)
            log(`${driver}, ${side.size}: the server took ${settled} ms to settle`)
          const measured = await measure(port, scenario, SECONDS, connectionsFor(id))
          const label = `${driver}, ${side.size}, round ${round}, ${SCENARIO_NAMES[id]}`
          const problem = unexpectedAnswers(label, scenario.expectedStatus, measured, SECONDS)
          if (problem) warnings.push(problem)
          const kept = figures.rounds[side.size]
          kept[id] = [...(kept[id] ?? []), measured]
          log(
            `${label}: ${measured.reqPerSec} req/s, p50 ${measured.p50Ms}, p99 ${measured.p99Ms} ms`,
          )
        }
      }
    }
    for (const id of SCALE_SCENARIOS) {
      const small = figures.rounds.small[id]
      const large = figures.rounds.large[id]
      if (small && large) figures.comparisons[id] = compareSizes(small, large)
    }
    return figures
  } finally {
    for (const side of sides) await side.server?.stop()
    setDatabaseHandle(undefined)
    for (const side of sides) await side.database.drop()
  }
}

const connectionsFor = (id: ScenarioId) => CONNECTIONS_FOR[id] ?? CONNECTIONS

const drivers: Driver[] = postgresServerUrl() ? ['pglite', 'postgres'] : ['pglite']
const runs: DriverScale[] = []
for (const driver of drivers) runs.push(await runDriver(driver))
const durationSeconds = elapsed()
const load = { atStart: loadAtStart, atEnd: os.loadavg()[0] }

console.log(
  `\n${SCALE_SCENARIOS.map((id) => `${SCENARIO_NAMES[id]}: ${connectionsFor(id)}`).join(', ')} connections; ${ROUNDS} rounds of ${SECONDS} s per scenario and size (medians shown), ${os.cpus().length} cores (1-minute load average ${load.atStart?.toFixed(1)} at the start, ${load.atEnd?.toFixed(1)} at the end), node ${process.version}; drivers: ${drivers.join(', ')}${
    drivers.length === 1 ? ' (set BENCH_DATABASE_URL or TEST_DATABASE_URL for Postgres)' : ''
  }`,
)
for (const run of runs) {
  const { agencies, media, users, cards, sessions, views } = run.bulk
  console.log(
    `${run.driver}: large database = the demo + ${agencies} agencies (${media} media in all), ${users} users, ${cards} cards (${sessions} sessions, ${views} views in all), bulk-seeded in ${run.seedingSeconds} s`,
  )
}
const comparisons = runs.flatMap((run) =>
  SCALE_SCENARIOS.flatMap((id) => {
    const comparison = run.comparisons[id]
    return comparison ? [{ id, driver: run.driver, comparison }] : []
  }),
)
console.table(
  comparisons.map(({ id, driver, comparison }) =>
    comparisonRow(SCENARIO_NAMES[id], driver, comparison),
  ),
)
const flat = allWithin(comparisons.map(({ comparison }) => comparison))
console.log(
  `Target: the large database within ${SCALE_TOLERANCE * 100}% of the small one (req/s at least ${1 - SCALE_TOLERANCE} of it, p50 and p99 at most ${1 + SCALE_TOLERANCE}×): ${flat ? 'met ✓' : 'MISSED ✗'}`,
)
for (const warning of warnings) console.warn(`warning: ${warning}`)

const file = keepRun(
  { startedAt, durationSeconds, loadAverage: load },
  {
    settings: {
      connections: Object.fromEntries(SCALE_SCENARIOS.map((id) => [id, connectionsFor(id)])),
      secondsPerScenario: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      rounds: ROUNDS,
      tolerance: SCALE_TOLERANCE,
      demo: DEMO.host,
    },
    drivers: runs,
    met: flat,
    warnings,
  },
  'scale-',
)
console.log(`\nWhole run: ${durationSeconds} s. Results: ${file}`)
