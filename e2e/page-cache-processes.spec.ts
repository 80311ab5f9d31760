// The page cache across processes and at shutdown (ADR 021), on servers this spec starts:
// - two app processes on one Postgres: a card edit, a branding change and a deactivated agency,
//   written to the database, reach both processes' caches (NOTIFY from the tables' triggers);
// - views of cached pages are queued, and SIGTERM writes every one before the process exits.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { expect, test } from '@playwright/test'
import postgres from 'postgres'
import { SERVER_ARGS, TEST_V8_FLAGS } from '../scripts/server-command'
import { E2E_PORT } from './fixtures'
import { createFreshPostgresDatabase, productionServerEnv } from './postgres-database'

// Beside the e2e servers' own ports, so two checkouts running the suite at once do not collide.
const [FIRST_PORT, SECOND_PORT, VIEWS_PORT] = [E2E_PORT + 96, E2E_PORT + 97, E2E_PORT + 98]
const DEMO_HOST = 'acme.localhost'
const DEMO_CARD = '/card/alice-anderson'
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148'

type Answer = { status: number; cache: string | undefined; body: string }

function get(port: number, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        headers: { host: DEMO_HOST, 'user-agent': PHONE, ...headers },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, cache: res.headers['x-cache'] as string, body }),
        )
      },
    )
    req.on('error', reject)
  })
}

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> }

async function startServer(port: number, env: Record<string, string | undefined>) {
  let output = ''
  const child = spawn(process.execPath, [...TEST_V8_FLAGS, ...SERVER_ARGS], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      ROOT_DOMAIN: 'localhost',
      LOG_LEVEL: 'warn',
      DOMAIN_RECHECK_SECONDS: '0',
      BACKUP_RETENTION: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const started: Started = { child, output: () => output, exited }
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`)
    try {
      if ((await get(port, '/api/health-check')).status === 200) return started
    } catch {}
    await new Promise((r) => setTimeout(r, 150))
  }
  child.kill('SIGKILL')
  throw new Error(`server did not become healthy:\n${output}`)
}

async function stopServer(server: Started | undefined) {
  if (!server || server.child.exitCode !== null) return
  server.child.kill('SIGTERM')
  await server.exited
}

test('two processes on one Postgres: a change written through either reaches both caches', async () => {
  const serverUrl = process.env.TEST_DATABASE_URL
  test.skip(!serverUrl, 'runs on Postgres (TEST_DATABASE_URL; CI sets it)')
  test.setTimeout(180_000)
  const database = await createFreshPostgresDatabase(serverUrl ?? '', 'brandcard_e2e_processes')
  const owner = postgres(database.url, { max: 1, onnotice: () => {} })
  let first: Started | undefined
  let second: Started | undefined
  try {
    // The first process migrates and seeds the demo; the second starts on what it made.
    first = await startServer(FIRST_PORT, { ...productionServerEnv(database.url), SEED_DEMO: '1' })
    second = await startServer(SECOND_PORT, {
      ...productionServerEnv(database.url),
      SEED_DEMO: '0',
    })
    const ports = [FIRST_PORT, SECOND_PORT]

    // Both fill their caches, then answer from them.
    for (const port of ports) {
      expect((await get(port, DEMO_CARD)).status).toBe(200)
      const hit = await get(port, DEMO_CARD)
      expect(hit.cache, `port ${port}`).toBe('HIT')
      expect(hit.body).toContain('Head of Sales')
    }

    // A card edit (any writer: the editor on one process, or SQL) shows on each process's next
    // answer; the announcement arrives within milliseconds, polled here to stay exact on a busy
    // machine without sleeping.
    await owner`update digital_cards set job_title = 'Chief Cache Officer'
      where organization_id = (select id from organizations where slug = 'acme')
        and lower(first_name) = 'alice'`
    for (const port of ports) {
      await expect
        .poll(async () => (await get(port, DEMO_CARD)).body, { timeout: 30_000 })
        .toContain('Chief Cache Officer')
    }
    expect((await get(SECOND_PORT, DEMO_CARD)).cache).toBe('HIT')

    // A branding change: the new colour is on the next page of both.
    await owner`update organizations set primary_color = '#0f7a3c' where slug = 'acme'`
    for (const port of ports) {
      await expect
        .poll(async () => (await get(port, DEMO_CARD)).body, { timeout: 30_000 })
        .toContain('--brand-primary:#0f7a3c')
    }

    // A deactivated agency: both answer "site unavailable" at once.
    await owner`update organizations set status = 'inactive' where slug = 'acme'`
    for (const port of ports) {
      await expect
        .poll(async () => (await get(port, DEMO_CARD)).status, { timeout: 30_000 })
        .toBe(403)
    }
  } finally {
    await Promise.all([stopServer(first), stopServer(second)])
    await owner.end()
    await database.drop()
  }
})

test('views of cached pages are all written when the server stops (SIGTERM)', async () => {
  test.setTimeout(150_000)
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-views-'))
  let server: Started | undefined
  try {
    // Migrated already (tests/pglite-snapshots.ts): the server seeds the demo on it.
    // Loaded when it runs, not with the spec: it brings the app's database modules, which
    // Playwright's runner would load too, to list the tests.
    const { migratedDataDir } = await import('#tests/pglite-snapshots')
    await migratedDataDir(path.join(dataDir, 'pglite'))
    server = await startServer(VIEWS_PORT, {
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      SEED_DEMO: '1',
      TRUST_PROXY: '1',
      // No timed flush during the test: only the shutdown can write the views.
      VIEW_FLUSH_MS: '600000',
    })
    const since = new Date()
    const visitors = 25
    for (let i = 1; i <= visitors; i++) {
      const answer = await get(VIEWS_PORT, DEMO_CARD, { 'x-forwarded-for': `198.51.100.${i}` })
      expect(answer.status).toBe(200)
    }
    // A returning visitor within the half hour is not a new view.
    const again = await get(VIEWS_PORT, DEMO_CARD, { 'x-forwarded-for': '198.51.100.1' })
    expect(again.cache).toBe('HIT')
    // A bot's visit is not a view either.
    await get(VIEWS_PORT, DEMO_CARD, {
      'x-forwarded-for': '198.51.100.200',
      'user-agent': 'Googlebot/2.1',
    })

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const db = new PGlite(path.join(dataDir, 'pglite'))
    try {
      const { rows } = await db.query<{ views: number }>(
        `select count(*)::int as views from card_views v
         join digital_cards c on c.id = v.card_id
         where lower(c.first_name) = 'alice' and v.viewed_at >= $1`,
        [since.toISOString()],
      )
      expect(rows[0]?.views).toBe(visitors)
    } finally {
      await db.close()
    }
  } finally {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
})
