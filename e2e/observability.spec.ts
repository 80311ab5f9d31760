// What an operator sees of the built server (issue 44 point 5, ADR 097): the trace id a caller
// sent comes back in `traceresponse` and is on the request's log line; /metrics on the main port
// answers only the bearer of METRICS_TOKEN (a 404 to anyone else), and METRICS_PORT serves them
// on the loopback; after SIGTERM, readiness says 503 at once, through the drain window, while
// liveness still answers 200 and pages as before.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { SERVER_ARGS, TEST_V8_FLAGS } from '../scripts/server-command'
import { E2E_PORT } from './fixtures'

const PORT = E2E_PORT + 60
const METRICS_PORT = E2E_PORT + 61
const TOKEN = 'e2e-metrics-token-0123456789abcdef'
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string }

function get(pathname: string, headers: http.OutgoingHttpHeaders = {}, port = PORT) {
  return new Promise<Answer>((resolve, reject) => {
    http
      .get(
        {
          host: '127.0.0.1',
          port,
          path: pathname,
          agent: false,
          headers: { host: 'localhost', ...headers },
        },
        (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk) => {
            body += chunk
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        },
      )
      .on('error', reject)
  })
}

function logLines(child: ChildProcess) {
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  return {
    text: () => output,
    json: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  }
}

test('trace ids, metrics behind a token and on their own port, readiness false from the signal on', async () => {
  test.setTimeout(180_000)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'brandcard-observability-'))
  // Migrated already (tests/pglite-snapshots.ts): the server finds every migration applied.
  // Loaded when it runs, not with the spec: it brings the app's database modules, which
  // Playwright's runner would load too, to list the tests.
  const { migratedDataDir } = await import('#tests/pglite-snapshots')
  await migratedDataDir(path.join(dataDir, 'pglite'))
  const child = spawn(process.execPath, [...TEST_V8_FLAGS, ...SERVER_ARGS], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: '0',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: String(METRICS_PORT),
      // Long enough that the checks below all fall inside it; the process is killed after them.
      SHUTDOWN_DRAIN_MS: '20000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = logLines(child)
  try {
    await expect
      .poll(async () => (await get('/api/health/ready').catch(() => ({ status: 0 }))).status, {
        timeout: 150_000,
      })
      .toBe(200)

    await test.step('a caller’s traceparent comes back in traceresponse and is on the request’s log line', async () => {
      const answer = await get('/api/health/live', { traceparent: `00-${TRACE}-${PARENT}-01` })
      expect(answer.status).toBe(200)
      expect(answer.headers['cache-control']).toBe('no-store')
      expect(answer.headers.traceresponse).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`))
      await expect
        .poll(() =>
          log
            .json()
            .filter((line) => line.trace_id === TRACE)
            .map((line) => (line.req as { url?: string } | undefined)?.url),
        )
        .toEqual(['/api/health/live'])
      // Without one, each answer names a trace of its own.
      const fresh = await get('/api/health/live')
      expect(fresh.headers.traceresponse).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/)
      expect(fresh.headers.traceresponse).not.toContain(TRACE)
    })

    await test.step('/metrics on the main port: the token’s bearer only, a 404 to anyone else', async () => {
      expect((await get('/metrics')).status).toBe(404)
      expect((await get('/metrics', { authorization: 'Bearer wrong' })).status).toBe(404)
      expect((await get('/metrics', { authorization: TOKEN })).status).toBe(404)
      const answer = await get('/metrics', { authorization: `Bearer ${TOKEN}` })
      expect(answer.status).toBe(200)
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
      expect(answer.body).toMatch(
        /brandcard_http_requests_total\{route="routes\/api\.health\.live",method="GET",status_class="2xx"\} [2-9]/,
      )
      expect(answer.body).toMatch(
        /brandcard_http_request_duration_seconds_bucket\{le="0\.005",route="routes\/api\.health\.ready"/,
      )
      expect(answer.body).toContain(
        'brandcard_http_requests_total{route="metrics",method="GET",status_class="4xx"} 3',
      )
      expect(answer.body).toMatch(/^process_resident_memory_bytes \d+/m)
      expect(answer.body).toMatch(/^nodejs_eventloop_lag_p99_seconds /m)
      expect(answer.body).toMatch(/^brandcard_db_pool_max 1$/m)
      expect(answer.body).toContain('# TYPE brandcard_job_queue_depth gauge')
      expect(answer.body).toMatch(/^brandcard_view_batch_lag_seconds 0$/m)
    })

    await test.step('METRICS_PORT serves them on the loopback, with no token', async () => {
      const answer = await get('/metrics', {}, METRICS_PORT)
      expect(answer.status).toBe(200)
      expect(answer.body).toContain('# TYPE brandcard_page_cache_hits_total counter')
      expect(log.text()).toContain(`metrics on http://127.0.0.1:${METRICS_PORT}/metrics`)
    })

    await test.step('after SIGTERM, readiness says 503 at once; liveness and pages answer as before', async () => {
      // A page answers as before the signal (on this empty database, the platform's 404).
      const page = (await get('/auth/login')).status
      child.kill('SIGTERM')
      await expect.poll(() => log.text()).toContain('SIGTERM received')
      const ready = await get('/api/health/ready')
      expect(ready.status).toBe(503)
      expect(ready.headers.connection).toBe('close')
      expect(JSON.parse(ready.body)).toEqual({ error: 'Shutting down' })
      expect((await get('/api/health-check')).status).toBe(503)
      expect((await get('/api/health/live')).status).toBe(200)
      expect((await get('/auth/login')).status).toBe(page)
    })
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
})
