// Several app processes on one Postgres behind Caddy's load balancer (deploy/Caddyfile), on one
// machine: what `npm run serve:cluster` runs and what the drill (scripts/cluster/drill.ts)
// restarts and kills under load. Each process is the production server itself (build/server.js
// with the flags of scripts/server-command.ts); this module plays the supervisor's part for them
// (SIGTERM, then SIGKILL at the shutdown timeout) and restarts them one at a time (ADR 096).
import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'
import { SERVER_ARGS, serverEnv, shutdownTimeoutMs } from '../server-command'
import { type CaddyProcess, startCaddy } from './caddy'
import { keepOutput } from './child-output'

/** The readiness endpoint Caddy's active health check asks (ADR 096). */
export const READINESS_PATH = '/api/health/ready'

export type AppProcess = {
  readonly index: number
  readonly port: number
  child: ChildProcess
  exited: Promise<number | null>
  /** The last lines the process wrote, for a report when something went wrong. */
  output(): string
}

export type ClusterOptions = {
  /** How many app processes (3). */
  size: number
  /** The port Caddy serves on; the processes take the next `size` ports. */
  port: number
  /** The processes' environment (DATABASE_URL, APP_SECRET, ROOT_DOMAIN, …). */
  env: NodeJS.ProcessEnv
  /** Caddy's health check interval ("2s"); the drill asks more often. */
  healthInterval?: string
  /** Where Caddy keeps its state (certificates, locks): a directory of the cluster's own. */
  caddyDir: string
  /** Caddy's listening address: 127.0.0.1 for the drill, every address when unset. */
  bind?: string
  log?: (message: string) => void
}

export type AppCluster = {
  processes: AppProcess[]
  caddy: CaddyProcess
  /** SIGTERM to process `index`, then a new one on its port once it has exited and is ready. */
  restart(index: number): Promise<void>
  /** Every process in turn, each ready before the next one stops: a deploy without downtime. */
  rollingRestart(): Promise<void>
  /** SIGKILL (no drain, requests in flight are lost), then a new process on its port. */
  kill(index: number): Promise<void>
  stop(): Promise<void>
}

const READY_TIMEOUT_MS = 60_000

export async function startCluster(options: ClusterOptions): Promise<AppCluster> {
  const log = options.log ?? (() => {})
  const ports = Array.from({ length: options.size }, (_, i) => options.port + 1 + i)
  // All at once, as a service manager starts them: migrations wait for each other on an
  // advisory lock (drizzle/db.server.ts), and the brandcard_app login is set up once.
  const processes = ports.map((port, i) => startAppProcess(i, port, options.env))
  let caddy: CaddyProcess
  try {
    await Promise.all(processes.map((app) => waitUntilReady(app)))
    log(`${processes.length} app processes ready on ports ${ports.join(', ')}`)
    caddy = await startCaddy({
      port: options.port,
      upstreams: ports.map((port) => `127.0.0.1:${port}`),
      healthInterval: options.healthInterval ?? '2s',
      dir: options.caddyDir,
      bind: options.bind,
    })
  } catch (error) {
    // Nothing of a cluster that could not start is left running.
    await Promise.all(processes.map((app) => stopAppProcess(app, 'SIGKILL')))
    throw error
  }
  log(`Caddy balancing them on http://localhost:${options.port}`)

  async function replace(index: number, signal: NodeJS.Signals) {
    const current = processes[index] as AppProcess
    await stopAppProcess(current, signal)
    const next = startAppProcess(index, current.port, options.env)
    processes[index] = next
    await waitUntilReady(next)
    // Caddy routes to it again once its active health check has seen it ready.
    await waitForHealthChecks(options.healthInterval ?? '2s')
  }

  return {
    processes,
    caddy,
    restart: (index) => replace(index, 'SIGTERM'),
    async rollingRestart() {
      for (let index = 0; index < processes.length; index++) {
        log(`restarting process ${index + 1} of ${processes.length}`)
        await replace(index, 'SIGTERM')
      }
    },
    kill: (index) => replace(index, 'SIGKILL'),
    async stop() {
      await caddy.stop()
      await Promise.all(processes.map((app) => stopAppProcess(app, 'SIGTERM')))
    },
  }
}

export function startAppProcess(index: number, port: number, env: NodeJS.ProcessEnv): AppProcess {
  const child = spawn(process.execPath, [...SERVER_ARGS], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...serverEnv(env), PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = keepOutput(child)
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code))
  })
  return { index, port, child, exited, output }
}

/** SIGTERM (graceful: readiness goes false, in-flight requests finish) or SIGKILL. */
export async function stopAppProcess(app: AppProcess, signal: NodeJS.Signals) {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return
  app.child.kill(signal)
  // As the supervisor does (scripts/supervise.ts): killed a second after the server's own bound.
  const killer = setTimeout(() => app.child.kill('SIGKILL'), shutdownTimeoutMs() + 1_000)
  await app.exited
  clearTimeout(killer)
}

/** Resolves once the process answers its readiness check with 200; throws if it exits first. */
export async function waitUntilReady(app: AppProcess, timeoutMs = READY_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs
  let exitedWith: number | null | undefined
  void app.exited.then((code) => {
    exitedWith = code
  })
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) {
      throw new Error(
        `app process ${app.index + 1} (port ${app.port}) exited (${exitedWith}):\n${app.output()}`,
      )
    }
    if ((await probe(app.port, READINESS_PATH)) === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`app process ${app.index + 1} (port ${app.port}) not ready:\n${app.output()}`)
}

/** The status of one GET on loopback, or 0 when nothing answered. */
export function probe(port: number, pathname: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: pathname, agent: false, headers: { host: 'localhost' } },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', () => resolve(0))
    req.setTimeout(5_000, () => req.destroy())
  })
}

/** Two of Caddy's health check intervals: long enough for it to have asked at least once. */
function waitForHealthChecks(interval: string) {
  const ms = /^(\d+)ms$/.test(interval)
    ? Number(interval.slice(0, -2))
    : Number(interval.replace(/s$/, '')) * 1000
  return new Promise((resolve) => setTimeout(resolve, 2 * ms + 100))
}
