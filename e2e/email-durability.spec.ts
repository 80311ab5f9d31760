// Emails survive the process that queued them (issue 15, Durability; ADR 006 said a crash after
// the answer lost the email, the job queue is what fixes that). The built server runs on the
// embedded database in a data directory of its own, sending through a fake Resend on 127.0.0.1:
// - killed with SIGKILL right after answering forgot-password, then started again on the same
//   directory, it delivers the reset email, once;
// - killed while its request to Resend is in flight (the case a job's lease must survive), the
//   same;
// - Resend answering 500 twice, then 200: one email, after two retries.
// The fake dedupes on the Idempotency-Key header as Resend does, so "once" means one delivery
// per key, and every request is recorded so a missing or changing key shows up as a second one.
// Embedded only (not in playwright.config.ts productionSpecs): a PGlite directory can be killed
// and reopened by one process; Postgres crash recovery is Postgres's own business.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { SERVER_ARGS, TEST_V8_FLAGS } from '../scripts/server-command'
import { freePort } from './postgres-cluster'

// One worker runs the file's tests in order, so the seeded template is made once.
test.describe.configure({ mode: 'default', timeout: 270_000 })

// The demo seed's end user on its agency (README, Demo accounts).
const HOST = 'acme.localhost'
const ACCOUNT = 'alice@acme.test'
const RESET_SUBJECT = /^Reset your /

type EmailRequest = {
  idempotencyKey: string | undefined
  to: string[]
  subject: string
  text: string
  /** 'held': received while the fake was holding and never answered. */
  answer: number | 'held'
}

/** A stand-in for the Resend API: POST /emails, deduplicated by Idempotency-Key like Resend. */
async function startFakeResend() {
  const requests: EmailRequest[] = []
  const delivered = new Map<string, { id: string; email: EmailRequest }>()
  const held = new Set<ServerResponse>()
  const state = { holding: false, script: [] as number[] }

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let raw = ''
      req.on('data', (chunk) => {
        raw += chunk
      })
      req.on('end', () => resolve(raw))
    })
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  const server = http.createServer(async (req, res) => {
    const raw = await read(req)
    if (req.method !== 'POST' || req.url !== '/emails') {
      answer(res, 404, { statusCode: 404, name: 'not_found', message: 'not found' })
      return
    }
    const body = JSON.parse(raw) as { to: string | string[]; subject: string; text?: string }
    const key = req.headers['idempotency-key']
    const email: EmailRequest = {
      idempotencyKey: typeof key === 'string' ? key : undefined,
      to: [body.to].flat(),
      subject: body.subject,
      text: body.text ?? '',
      answer: 'held',
    }
    requests.push(email)
    if (state.holding) {
      // Neither accepted nor answered: the sender is killed before Resend decides.
      held.add(res)
      res.on('close', () => held.delete(res))
      return
    }
    const status = state.script.shift()
    if (status && status >= 400) {
      email.answer = status
      answer(res, status, { statusCode: status, name: 'internal_server_error', message: 'boom' })
      return
    }
    // A request without a key is an email of its own; with one, Resend sends it once.
    const dedupeKey = email.idempotencyKey ?? randomUUID()
    const earlier = delivered.get(dedupeKey)
    if (!earlier) delivered.set(dedupeKey, { id: randomUUID(), email })
    email.answer = 200
    answer(res, 200, { id: (earlier ?? delivered.get(dedupeKey))?.id })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    requests,
    /** The emails Resend accepted to send: one per idempotency key. */
    deliveriesTo: (address: string) =>
      [...delivered.values()].filter(({ email }) => email.to.includes(address)),
    async close() {
      for (const res of held) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
type FakeResend = Awaited<ReturnType<typeof startFakeResend>>

function request(port: number, method: string, pathname: string, body?: string) {
  return new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: pathname,
        headers: {
          host: `${HOST}:${port}`,
          ...(body
            ? {
                origin: `http://${HOST}:${port}`,
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(body),
              }
            : {}),
        },
      },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

type Server = { child: ChildProcess; port: number; output: () => string; exited: Promise<unknown> }

async function startServer(
  dataDir: string,
  resend: FakeResend,
  env: Record<string, string> = {},
): Promise<Server> {
  const port = await freePort()
  let output = ''
  const base = { ...process.env }
  for (const name of ['DATABASE_URL', 'DATABASE_APP_URL', 'APP_SECRET', 'SEED_DEMO']) {
    delete base[name]
  }
  const child = spawn(process.execPath, [...TEST_V8_FLAGS, ...SERVER_ARGS], {
    env: {
      ...base,
      NODE_ENV: 'production',
      PORT: String(port),
      ROOT_DOMAIN: 'localhost',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RESEND_API_KEY: 're_test',
      RESEND_BASE_URL: resend.url,
      DOMAIN_RECHECK_SECONDS: '0',
      BACKUP_RETENTION: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`)
    try {
      if ((await request(port, 'GET', '/api/health-check')).status === 200) {
        return { child, port, output: () => output, exited }
      }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`server did not become healthy:\n${output}`)
}

async function stop(server: Server, signal: 'SIGTERM' | 'SIGKILL') {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  server.child.kill(signal)
  await server.exited
}

async function forgotPassword(server: Server) {
  const answer = await request(
    server.port,
    'POST',
    '/auth/forgot-password',
    new URLSearchParams({ email: ACCOUNT }).toString(),
  )
  expect(answer.status, server.output()).toBe(302)
  expect(answer.location).toBe('/auth/login')
}

/** Waits until Resend has accepted the reset email; then checks it stays the only one. */
async function expectOneResetEmail(resend: FakeResend, server: Server) {
  await expect
    .poll(() => resend.deliveriesTo(ACCOUNT).length, { timeout: 60_000, message: server.output() })
    .toBeGreaterThan(0)
  // Long enough for a second copy (a job run twice, a retry with a new key) to show up.
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  const deliveries = resend.deliveriesTo(ACCOUNT)
  expect(deliveries, server.output()).toHaveLength(1)
  const email = deliveries[0]?.email as EmailRequest
  expect(email.subject).toMatch(RESET_SUBJECT)
  expect(email.text).toMatch(/\/auth\/reset-password\?token=[\w-]+/)
  // Every attempt was the same request to Resend: one key for the email.
  const attempts = resend.requests.filter((sent) => sent.to.includes(ACCOUNT))
  expect(new Set(attempts.map((sent) => sent.idempotencyKey))).toEqual(
    new Set([email.idempotencyKey]),
  )
  return attempts
}

// A migrated and seeded data directory, made once (initdb and the demo seed take a while on a
// busy machine); each test starts from its own copy.
let template: string
const dataDirs: string[] = []

test.beforeAll(async () => {
  test.setTimeout(120_000)
  template = mkdtempSync(path.join(os.tmpdir(), 'brandcard-durability-template-'))
  // Migrated already (tests/pglite-snapshots.ts): the server seeds the demo on it.
  // Loaded when it runs, not with the spec: it brings the app's database modules, which
  // Playwright's runner would load too, to list the tests.
  const { migratedDataDir } = await import('#tests/pglite-snapshots')
  await migratedDataDir(path.join(template, 'pglite'))
  const resend = await startFakeResend()
  try {
    const server = await startServer(template, resend)
    await stop(server, 'SIGTERM')
  } finally {
    await resend.close()
  }
})

test.afterAll(() => {
  for (const dir of [template, ...dataDirs]) if (dir) rmSync(dir, { recursive: true, force: true })
})

function copyOfTemplate() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-durability-'))
  dataDirs.push(dir)
  cpSync(template, dir, { recursive: true })
  return dir
}

test('SIGKILL right after answering forgot-password: the reset email arrives after a restart, once', async () => {
  const dataDir = copyOfTemplate()
  const resend = await startFakeResend()
  // Resend accepts nothing before the kill, wherever the kill lands in the queue's work.
  resend.state.holding = true
  let server = await startServer(dataDir, resend)
  try {
    await forgotPassword(server)
    await stop(server, 'SIGKILL')
    expect(resend.deliveriesTo(ACCOUNT)).toHaveLength(0)
    // Where the kill landed varies from run to run; the report says which case this run was.
    const reached = resend.requests.some((sent) => sent.to.includes(ACCOUNT))
    test.info().annotations.push({
      type: 'kill',
      description: reached ? 'while the email was held at Resend' : 'before the email was sent',
    })

    resend.state.holding = false
    server = await startServer(dataDir, resend)
    await expectOneResetEmail(resend, server)
  } finally {
    await stop(server, 'SIGKILL')
    await resend.close()
  }
})

test('SIGKILL while the email is on its way to Resend: after a restart it is sent, once', async () => {
  const dataDir = copyOfTemplate()
  const resend = await startFakeResend()
  resend.state.holding = true
  let server = await startServer(dataDir, resend)
  try {
    await forgotPassword(server)
    // The worker has taken the email's job and is waiting on Resend's answer.
    await expect
      .poll(() => resend.requests.filter((sent) => sent.to.includes(ACCOUNT)).length, {
        timeout: 15_000,
        message: server.output(),
      })
      .toBe(1)
    await stop(server, 'SIGKILL')

    resend.state.holding = false
    server = await startServer(dataDir, resend)
    const attempts = await expectOneResetEmail(resend, server)
    expect(attempts.map((sent) => sent.answer)).toEqual(['held', 200])
  } finally {
    await stop(server, 'SIGKILL')
    await resend.close()
  }
})

test('Resend answering 500 twice, then 200: the reset email is sent once', async () => {
  const dataDir = copyOfTemplate()
  const resend = await startFakeResend()
  resend.state.script = [500, 500]
  // Retries a fraction of a second apart rather than the production 10 s, 20 s.
  const server = await startServer(dataDir, resend, { JOB_RETRY_BASE_MS: '200' })
  try {
    await forgotPassword(server)
    const attempts = await expectOneResetEmail(resend, server)
    expect(attempts.map((sent) => sent.answer)).toEqual([500, 500, 200])
  } finally {
    await stop(server, 'SIGKILL')
    await resend.close()
  }
})
