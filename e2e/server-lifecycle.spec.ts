// The production entry itself: it starts on an empty embedded database, migrates,
// answers, and on SIGTERM lets in-flight requests finish before closing the database.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { SERVER_ARGS } from '../scripts/server-command'

const PORT = 3190

function get(pathname: string, host = 'localhost') {
  return new Promise<number>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: PORT, path: pathname, headers: { host } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
  })
}

// A fresh embedded database (initdb, migrations, demo seed) takes a while on a busy machine.
async function waitForHealthy(child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 75_000
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

test('SIGTERM under load: in-flight requests complete and the process exits 0', async () => {
  test.setTimeout(150_000)
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-lifecycle-'))
  let output = ''
  const child = spawn(process.execPath, SERVER_ARGS, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  try {
    await waitForHealthy(child, () => output)
    expect(await get('/', 'acme.localhost')).toBe(200)

    await Promise.all(Array.from({ length: 20 }, () => get('/api/health-check')))
    await new Promise((r) => setTimeout(r, 200))

    // Pages, not the health check: that one answers 503 once draining has begun, by design.
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      get(i % 2 ? '/auth/login' : '/', i % 4 ? 'localhost' : 'globex.localhost'),
    )
    // Once one answer is back, the others have reached the server and are being handled.
    await Promise.race(inFlight)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    const statuses = await Promise.all(inFlight)
    expect(statuses.every((s) => s === 200)).toBe(true)
    const started = Date.now()
    expect(await exited).toBe(0)
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(output).toContain('shutdown complete')
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
})
