// `npm run serve:cluster`: the production server as CLUSTER_SIZE (3) processes on one Postgres
// behind Caddy (deploy/Caddyfile over plain HTTP) on PORT (3000), for trying on one machine what
// docs/deployment.md describes for several. SIGHUP restarts the processes one at a time (a
// deploy without downtime); SIGTERM or Ctrl-C stops everything. CLUSTER_PGBOUNCER=1 puts
// Debian's PgBouncer in transaction mode between the processes and Postgres (ADR 096).
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pino } from 'pino'
import { startCluster } from './app-cluster'
import { type PgBouncerProcess, startPgBouncer } from './pgbouncer'

if (existsSync('.env')) process.loadEnvFile('.env')
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ process: 'cluster' })
const log = (message: string) => logger.info(message)

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) {
  logger.fatal(
    'serve:cluster needs DATABASE_URL: the embedded database belongs to one process. Set it to a Postgres database (see docs/deployment.md).',
  )
  process.exit(1)
}
const size = Number(process.env.CLUSTER_SIZE ?? 3)
const port = Number(process.env.PORT ?? 3000)
if (!Number.isInteger(size) || size < 1 || size > 16) {
  logger.fatal('CLUSTER_SIZE must be a whole number from 1 to 16')
  process.exit(1)
}

const workDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-cluster-'))
let pooler: PgBouncerProcess | undefined
if (process.env.CLUSTER_PGBOUNCER === '1') {
  pooler = await startPgBouncer({
    port: port + size + 1,
    serverUrl: databaseUrl,
    dir: path.join(workDir, 'pgbouncer'),
    users: ['brandcard_app'],
  })
  log(`PgBouncer (transaction mode) on port ${pooler.port}`)
}

const cluster = await startCluster({
  size,
  port,
  caddyDir: path.join(workDir, 'caddy'),
  env: {
    ...process.env,
    // Caddy is the one proxy in front: links follow what it reports.
    TRUST_PROXY: process.env.TRUST_PROXY ?? '1',
    // Longer than two of Caddy's health checks (2 s): a stopping process is out of the rotation
    // before it stops accepting connections.
    SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '5000',
    ...(pooler ? { DATABASE_POOLER_URL: pooler.urlFor(databaseUrl) } : {}),
  },
  log,
}).catch(async (error: unknown) => {
  await pooler?.stop()
  rmSync(workDir, { recursive: true, force: true })
  throw error
})

let restarting = false
process.on('SIGHUP', () => {
  if (restarting) return
  restarting = true
  void cluster
    .rollingRestart()
    .then(() => log('rolling restart done'))
    .catch((error: unknown) => logger.error(error, 'rolling restart failed'))
    .finally(() => {
      restarting = false
    })
})

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  log(`${signal}: stopping Caddy and the app processes`)
  await cluster.stop()
  await pooler?.stop()
  rmSync(workDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
