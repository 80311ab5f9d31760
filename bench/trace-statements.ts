// What one signed-in page asks of Postgres (issue 44): the built server on a fresh bench
// database with `log_statement = all` set for that database alone, one request per page after a
// warm-up, and the statements the database logged for it, read from the server's log file
// (POSTGRES_LOG, default the Debian cluster's). Needs read access to that file.
//
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/trace-statements.ts
import { readFileSync, statSync } from 'node:fs'
import postgres from 'postgres'
import { closeDatabase, setDatabaseHandle } from '#drizzle/db.server'
import { createBenchDatabase, DEMO, postgresServerUrl, seedBenchData } from './database'
import { request } from './http'
import { signedInScenarios, signInRequest } from './scenarios'
import { startAppServer } from './server'
import { prepareBenchProcess } from './settings'

const PORT = Number(process.env.BENCH_PORT ?? 3292)
const LOG = process.env.POSTGRES_LOG ?? '/var/log/postgresql/postgresql-15-main.log'
prepareBenchProcess()

const database = await createBenchDatabase('postgres', PORT)
const name = `brandcard_bench_${PORT}`
try {
  await seedBenchData(database.open())
  await closeDatabase()
  const owner = postgres(postgresServerUrl() as string, { max: 1, onnotice: () => {} })
  await owner.unsafe(`alter database ${name} set log_statement = 'all'`)
  await owner.end()
  const server = await startAppServer(PORT, database.serverEnv)
  try {
    const signedIn = await request(PORT, signInRequest())
    const cookie = (signedIn.headers['set-cookie'] ?? [])
      .map((value) => value.split(';')[0] as string)
      .find((pair) => pair.split('=')[0]?.includes('session')) as string
    for (const scenario of signedInScenarios(cookie)) {
      // Warm: the tenant and settings caches are filled, the statements prepared.
      for (let i = 0; i < 3; i++) await request(PORT, scenario.request)
      await new Promise((resolve) => setTimeout(resolve, 300))
      const from = statSync(LOG).size
      const answer = await request(PORT, scenario.request)
      await new Promise((resolve) => setTimeout(resolve, 500))
      const logged = readFileSync(LOG, 'utf8')
        .slice(from)
        .split('\n')
        .filter((line) => line.includes(name) || line.includes('LOG:  execute'))
        .filter((line) => /LOG:\s+(execute|statement)/.test(line))
        .map((line) => line.replace(/^.*?LOG:\s+/, ''))
      console.log(
        `\n${scenario.request.path} (${answer.status}, ${answer.body.length} bytes, host ${DEMO.host}): ${logged.length} statements`,
      )
      for (const line of logged) console.log(`  ${line.slice(0, 220)}`)
    }
  } finally {
    await server.stop()
  }
} finally {
  setDatabaseHandle(undefined)
  await database.drop()
}
