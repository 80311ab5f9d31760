// The production entry itself, as `npm start` runs it (the supervisor and its server, ADR 033):
// it starts on an empty embedded database, migrates, answers; a second server on its data
// directory exits with a message and the first serves on; short of disk space it says so
// and refuses writes; on SIGTERM it lets in-flight requests finish before closing the database
// and resets no connection under continuous load;
// and a SIGTERM ends it in time even while the embedded database holds its event loop.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { SUPERVISED_ARGS, SUPERVISOR_ENTRY } from '../scripts/server-command'
import { continuousLoad } from './continuous-load'
import { E2E_PORT } from './fixtures'

const PORT = E2E_PORT + 90
const MB = 1024 * 1024

type Answer = { status: number; body: string }

function request(
  pathname: string,
  options: {
    port?: number
    host?: string
    method?: string
    headers?: http.OutgoingHttpHeaders
    body?: string
  } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: options.port ?? PORT,
        // A connection of its own, as a new visitor's would be.
        agent: false,
        path: pathname,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? 'localhost', ...options.headers },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

const get = async (pathname: string, host = 'localhost') =>
  (await request(pathname, { host })).status

/** A small disk of its own (tmpfs; CI runs as root), unmounted by the caller's `finally`. */
function mountSmallDisk(name: string, sizeMb: number) {
  const directory = path.resolve(`tests/.tmp/${name}-${process.pid}`)
  mkdirSync(directory, { recursive: true })
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', directory])
  return {
    directory,
    freeBytes: () => {
      const stats = statfsSync(directory)
      return stats.bavail * stats.bsize
    },
    unmount: () => {
      execFileSync('umount', ['--lazy', directory])
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

function collectOutput(child: ChildProcess) {
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  return () => output
}

// A fresh embedded database (initdb, migrations, demo seed) takes a while on a busy machine.
async function waitForHealthy(child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode}:\n${output()}`)
    try {
      if ((await get('/api/health-check')) === 200) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server did not become healthy:\n${output()}`)
}

test('short of disk space it says so and refuses writes; SIGTERM under load lets in-flight requests complete, resets no connection and exits 0', async () => {
  test.setTimeout(150_000)
  const disk = mountSmallDisk('lifecycle-disk', 256)
  const child = spawn(process.execPath, SUPERVISED_ARGS, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      DATA_DIR: disk.directory,
      SEED_DEMO: '1',
      DISK_MIN_FREE_MB: '64',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = collectOutput(child)
  try {
    await waitForHealthy(child, output)
    expect(await get('/', 'acme.localhost')).toBe(200)

    await test.step('a second server on the same data directory exits with a message; the first serves on', async () => {
      const second = spawn(process.execPath, SUPERVISED_ARGS, {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          PORT: String(PORT + 1),
          DATA_DIR: disk.directory,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const secondOutput = collectOutput(second)
      const code = await new Promise<number | null>((resolve) => second.on('exit', resolve))
      expect(code).toBe(1)
      expect(secondOutput()).toContain(
        `is using the embedded database in ${disk.directory}: stop it first, or give this server its own DATA_DIR.`,
      )
      expect(await get('/api/health-check')).toBe(200)
    })

    await test.step('short of disk space: health 503 with the reason, writes 503, reads go on', async () => {
      const filler = path.join(disk.directory, 'filler')
      writeFileSync(filler, Buffer.alloc(Math.max(0, disk.freeBytes() - 40 * MB)))
      await expect
        .poll(async () => (await request('/api/health-check')).body, { timeout: 30_000 })
        .toMatch(/Disk space low: \d+ MB free .* below DISK_MIN_FREE_MB \(64 MB\)/)
      expect((await request('/api/health-check')).status).toBe(503)
      const signIn = await request('/auth/login', {
        host: `acme.localhost:${PORT}`,
        method: 'POST',
        headers: {
          accept: 'text/html',
          origin: `http://acme.localhost:${PORT}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'email=alice%40acme.test&password=whatever',
      })
      expect(signIn.status).toBe(503)
      expect(signIn.body).toContain('Saving is paused')
      expect(await get('/auth/login', 'acme.localhost')).toBe(200)
      rmSync(filler)
      await expect.poll(() => get('/api/health-check'), { timeout: 30_000 }).toBe(200)
    })

    await Promise.all(Array.from({ length: 20 }, () => get('/api/health-check')))
    await new Promise((r) => setTimeout(r, 200))

    // Pages, not the health check: that one answers 503 once draining has begun, by design.
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      get(i % 2 ? '/auth/login' : '/', i % 4 ? 'localhost' : 'globex.localhost'),
    )
    // Once one answer is back, the others have reached the server and are being handled.
    await Promise.race(inFlight)
    // New visitors keep coming through the signal until the process is gone: the embedded
    // database holds the event loop, so the accept queue is never empty (issue 39 point 4).
    const load = continuousLoad(PORT, [
      ['/', 'localhost'],
      ['/auth/login', 'acme.localhost'],
      ['/', 'globex.localhost'],
    ])
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    const statuses = await Promise.all(inFlight)
    expect(statuses.every((s) => s === 200)).toBe(true)
    const started = Date.now()
    expect(await exited).toBe(0)
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(output()).toContain('shutdown complete')
    const outcomes = await load.stop()
    // Answered, or refused once the port closed (safe to retry: nothing was sent); never reset.
    expect(outcomes.filter((o) => o !== '200' && o !== 'ECONNREFUSED')).toEqual([])
    expect(outcomes).toContain('200')
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    disk.unmount()
  }
})

// The supervisor's own promise, against the fault itself: PGlite that met a full disk spins in
// its WAL flush and holds the event loop, so the server's SIGTERM handler never runs. The real
// server cannot be driven there over HTTP (its writes stop before the disk is full), so a
// stand-in server.js beside the built supervisor fills a tmpfs through PGlite and spins.
test('SIGTERM ends the server within its shutdown timeout while the embedded database spins on a full disk', async () => {
  test.setTimeout(120_000)
  const disk = mountSmallDisk('lifecycle-full', 48)
  // Inside the project, so that the stand-in finds node_modules.
  const entryDir = path.resolve(`tests/.tmp/lifecycle-entry-${process.pid}`)
  mkdirSync(entryDir, { recursive: true })
  copyFileSync(SUPERVISOR_ENTRY, path.join(entryDir, 'supervisor.js'))
  writeFileSync(
    path.join(entryDir, 'server.js'),
    `import { writeSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
process.on('SIGTERM', () => { writeSync(1, 'SIGTERM handled\\n'); process.exit(0) })
const db = new PGlite({ dataDir: process.env.DATA_DIR + '/pglite' })
await db.exec('create table filler (v text)')
writeSync(1, 'server pid ' + process.pid + '\\n')
try {
  for (;;) await db.query("insert into filler select repeat('x', 1000) from generate_series(1, 100)")
} catch (error) { writeSync(1, 'disk full: ' + error.code + '\\n') }
writeSync(1, 'stuck\\n')
await db.query("insert into filler values ('one more')")
writeSync(1, 'not stuck after all\\n')
`,
  )
  const timeoutMs = 2_000
  const supervisor = spawn(process.execPath, [path.join(entryDir, 'supervisor.js')], {
    env: { ...process.env, DATA_DIR: disk.directory, SHUTDOWN_TIMEOUT_MS: String(timeoutMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = collectOutput(supervisor)
  const exited = new Promise<number | null>((resolve) => supervisor.on('exit', resolve))
  try {
    await expect.poll(output, { timeout: 90_000 }).toMatch(/stuck\n/)
    expect(output()).toContain('disk full: 53100')
    const serverPid = Number(/server pid (\d+)/.exec(output())?.[1])
    // Stuck indeed: a timer would have run by now.
    await new Promise((r) => setTimeout(r, 500))
    expect(output()).not.toContain('not stuck after all')

    const started = Date.now()
    supervisor.kill('SIGTERM')
    expect(await exited).toBe(1)
    expect(Date.now() - started).toBeLessThan(timeoutMs + 1_000 + 2_000)
    expect(output()).not.toContain('SIGTERM handled')
    expect(output()).toContain('did not exit')
    expect(() => process.kill(serverPid, 0)).toThrow(/ESRCH/)
  } finally {
    if (supervisor.exitCode === null) supervisor.kill('SIGKILL')
    disk.unmount()
    rmSync(entryDir, { recursive: true, force: true })
  }
})

// `npm start` and `npm run serve` read the project's .env (listed in .env.example); the
// environment wins over the file, and the server inherits both.
test('the supervisor reads .env from where it starts; a variable in the environment wins', async () => {
  const entryDir = path.resolve(`tests/.tmp/lifecycle-env-${process.pid}`)
  mkdirSync(entryDir, { recursive: true })
  try {
    copyFileSync(SUPERVISOR_ENTRY, path.join(entryDir, 'supervisor.js'))
    writeFileSync(
      path.join(entryDir, 'server.js'),
      "console.log('from', process.env.BRANDCARD_FROM_ENV, 'and', process.env.BRANDCARD_FROM_FILE)\n",
    )
    writeFileSync(
      path.join(entryDir, '.env'),
      'BRANDCARD_FROM_ENV=file\nBRANDCARD_FROM_FILE=file\n',
    )
    const supervisor = spawn(process.execPath, ['supervisor.js'], {
      cwd: entryDir,
      env: { ...process.env, BRANDCARD_FROM_ENV: 'environment' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const output = collectOutput(supervisor)
    const code = await new Promise<number | null>((resolve) => supervisor.on('exit', resolve))
    expect(code).toBe(0)
    expect(output()).toContain('from environment and file')
  } finally {
    rmSync(entryDir, { recursive: true, force: true })
  }
})
