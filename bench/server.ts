// The built production server as `npm run bench` runs it, and its memory as the kernel sees it.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { serverEnv as productionServerEnv, SERVER_ARGS } from '../scripts/server-command'
import { waitForHealthy } from './http'

export type AppServer = { child: ChildProcess; port: number; stop(): Promise<void> }

export async function startAppServer(
  port: number,
  serverEnv: Record<string, string | undefined>,
  /** Node flags before the production ones (`npm run bench:profile` adds --cpu-prof). */
  extraNodeFlags: string[] = [],
): Promise<AppServer> {
  const env: Record<string, string | undefined> = {
    ...productionServerEnv(),
    NODE_ENV: 'production',
    PORT: String(port),
    ROOT_DOMAIN: 'localhost',
    // The bench seeded the database itself (bench/database.ts).
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    // The new-visitor scenario gives every request its own X-Forwarded-For, and sign-ins vary
    // it so the per-address limit never mixes into the figures.
    TRUST_PROXY: '1',
    // The daily backup is enqueued at start-up: it would dump the database during the first
    // scenario. Nothing else on the request path changes.
    BACKUP_RETENTION: '0',
    // No DNS lookups of the demo's custom domain in the background.
    DOMAIN_RECHECK_SECONDS: '0',
    // `0` measures every signed-in page rendered, as a miss of its cache (ADR 109) would be.
    PAGE_CACHE_MB: process.env.BENCH_PAGE_CACHE_MB,
    ...serverEnv,
  }
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name]
  // The node process itself (no npm or shell in between): its pid is the one whose memory counts.
  // BENCH_NODE_FLAGS: Node flags to try on the server (e.g. a heap limit) without a rebuild.
  const flags = [...extraNodeFlags, ...(process.env.BENCH_NODE_FLAGS?.split(' ') ?? [])].filter(
    Boolean,
  )
  const child = spawn(process.execPath, [...flags, ...SERVER_ARGS], {
    env: env as NodeJS.ProcessEnv,
    stdio: 'inherit',
  })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  try {
    await waitForHealthy(port, () => child.exitCode === null)
  } catch (error) {
    await stop()
    throw error
  }
  return { child, port, stop }
}

/** VmRSS, VmHWM (peak) and RssAnon of a process, in bytes, from /proc (Linux). */
export async function readMemory(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kilobytes = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
  return {
    rss: kilobytes('VmRSS') * 1024,
    peak: kilobytes('VmHWM') * 1024,
    // Of RSS: the process's own pages (heap, allocator) and those of mapped files (the binary).
    anon: kilobytes('RssAnon') * 1024,
  }
}

/**
 * Samples the resident memory of a process every 100 ms until stopped; the highest sample.
 * null where /proc cannot be read (not Linux).
 */
export function sampleRss(pid: number) {
  let highest: number | null = null
  const sample = () =>
    readMemory(pid).then(
      ({ rss }) => {
        if (Number.isFinite(rss)) highest = Math.max(highest ?? 0, rss)
      },
      () => {},
    )
  void sample()
  const timer = setInterval(sample, 100)
  return {
    async stop() {
      clearInterval(timer)
      await sample()
      return highest
    },
  }
}

/**
 * Waits until the process uses less than a tenth of a core over 200 ms, or the time limit: a
 * health check answers at once while libuv's threads still hash the sign-in scenario's queued
 * passwords (argon2, 19 MB each, p99 near two seconds), and that work and memory would count as
 * the next scenario's. Returns how long it took in ms; at once where /proc cannot be read.
 */
export async function waitForIdleCpu(pid: number, timeoutMs = 30_000) {
  const started = performance.now()
  const windowMs = 200
  while (performance.now() - started < timeoutMs) {
    const before = await readCpuMs(pid)
    if (before === null) break
    await new Promise((resolve) => setTimeout(resolve, windowMs))
    const after = await readCpuMs(pid)
    if (after === null || after - before < windowMs / 10) break
  }
  return Math.round(performance.now() - started)
}

// Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux Node runs on (the
// kernel's USER_HZ, fixed for user space whatever the kernel's own tick).
const USER_HZ = 100

/**
 * CPU time a process has used so far, user and system, its children excluded (/proc/<pid>/stat
 * fields 14 and 15), in ms; null where /proc cannot be read (not Linux).
 */
export async function readCpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const utime = Number(fields[11])
    const stime = Number(fields[12])
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null
    return ((utime + stime) * 1000) / USER_HZ
  } catch {
    return null
  }
}
