// `npm run bench:profile`: where one scenario of `npm run bench` spends the server's time. The
// built server runs under `node --cpu-prof` on a freshly seeded database (as the bench seeds it),
// takes BENCH_SECONDS of the scenario's load after a warm-up, stops, and its CPU profile is
// printed by the code it ran in, with the hottest functions. The profile (open it in Chrome's
// DevTools) and the summary are written under bench/results/profiles/; commit a summary when a
// note cites it. Build first: `npm run build`.
//
//   npm run bench:profile -- dashboard            # on PGlite
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:profile -- dashboard postgres
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { closeDatabase, setDatabaseHandle } from '#drizzle/db.server'
import { type Driver, SCENARIO_IDS, type ScenarioId } from './budgets'
import { type CpuProfile, summarizeProfile } from './cpu-profile'
import { createBenchDatabase, DEMO, seedBenchData } from './database'
import { answerText, request, settle } from './http'
import { gitCommit } from './report'
import { cardPageRequest, measure, SCENARIO_NAMES, scenarios, signInRequest } from './scenarios'
import { startAppServer } from './server'
import { positiveSetting, prepareBenchProcess } from './settings'

const PORT = Number(process.env.BENCH_PORT ?? 3292)
const SECONDS = positiveSetting('BENCH_SECONDS', 10)
const WARMUP_SECONDS = positiveSetting('BENCH_WARMUP_SECONDS', 2)

const [scenarioArgument = 'dashboard', driverArgument = 'pglite'] = process.argv.slice(2)
if (!SCENARIO_IDS.includes(scenarioArgument as ScenarioId)) {
  console.error(`Scenario must be one of ${SCENARIO_IDS.join(', ')}`)
  process.exit(1)
}
if (driverArgument !== 'pglite' && driverArgument !== 'postgres') {
  console.error('Driver must be pglite or postgres')
  process.exit(1)
}
const scenarioId = scenarioArgument as ScenarioId
const driver = driverArgument as Driver

prepareBenchProcess()

const profileDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-profile-'))
const database = await createBenchDatabase(driver, PORT)
try {
  const seeded = await seedBenchData(database.open())
  await closeDatabase()
  const server = await startAppServer(PORT, database.serverEnv, [
    '--cpu-prof',
    `--cpu-prof-dir=${profileDir}`,
  ])
  let measured: Awaited<ReturnType<typeof measure>>
  try {
    const html = answerText(await request(PORT, cardPageRequest(seeded.cardId)))
    const logoPath = /src="(\/media\/[0-9a-f]{64}\.png)"/.exec(html)?.[1] ?? '/media/none.png'
    const signedIn = await request(PORT, signInRequest())
    const sessionCookie =
      (signedIn.headers['set-cookie'] ?? [])
        .map((cookie) => cookie.split(';')[0] as string)
        .find((pair) => pair.split('=')[0]?.includes('session')) ?? ''
    const scenario = scenarios({ ...seeded, logoPath, sessionCookie }).find(
      (candidate) => candidate.id === scenarioId,
    )
    if (!scenario) throw new Error(`no scenario ${scenarioId}`)
    console.log(`${driver}: warming up ${SCENARIO_NAMES[scenarioId]} for ${WARMUP_SECONDS} s`)
    await measure(PORT, scenario, WARMUP_SECONDS)
    await settle(PORT)
    console.log(`${driver}: profiling ${SCENARIO_NAMES[scenarioId]} for ${SECONDS} s`)
    measured = await measure(PORT, scenario, SECONDS)
  } finally {
    // The profile is written as the server exits (it exits on SIGTERM once drained).
    await server.stop()
  }
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error('the server wrote no CPU profile')
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile
  // The profile covers the whole life of the server: start-up and warm-up included. They are
  // short beside the measured seconds, and the categories say where they went.
  const summary = summarizeProfile(profile)

  console.log(
    `\n${SCENARIO_NAMES[scenarioId]} on ${driver}: ${measured.reqPerSec} req/s, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms, 50 connections, ${os.cpus().length} cores (load average ${os.loadavg()[0]?.toFixed(1)})`,
  )
  console.log(
    `Server CPU: ${summary.busyMs} ms busy, ${summary.idleMs} ms idle over its life; busy time by code:`,
  )
  console.table(
    summary.categories.map(({ category, ms, share }) => ({ code: category, ms, '%': share })),
  )
  console.log('Hottest functions (self time):')
  console.table(
    summary.hottest.map((entry) => ({ function: entry.function, ms: entry.ms, '%': entry.share })),
  )

  const commit = gitCommit()
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)
  const base = `${stamp}Z-${commit.sha.slice(0, 7)}-${scenarioId}-${driver}`
  const outDir = path.join('bench', 'results', 'profiles')
  mkdirSync(outDir, { recursive: true })
  writeFileSync(
    path.join(outDir, `${base}.json`),
    `${JSON.stringify(
      {
        scenario: scenarioId,
        driver,
        commit,
        host: DEMO.host,
        seconds: SECONDS,
        loadAverage: os.loadavg()[0],
        measured,
        summary,
      },
      null,
      2,
    )}\n`,
  )
  writeFileSync(path.join(outDir, `${base}.cpuprofile`), JSON.stringify(profile))
  console.log(`\nSummary: ${path.join(outDir, `${base}.json`)} (the .cpuprofile beside it)`)
} finally {
  setDatabaseHandle(undefined)
  await database.drop()
  rmSync(profileDir, { recursive: true, force: true })
}
