// The cluster drill (issue 44 point 1, ADR 096), run by `npm test` when Postgres is there: three
// app processes behind Caddy (deploy/Caddyfile) through PgBouncer in transaction mode on a fresh
// Postgres database, under a steady load of card pages, sign-ins, card edits and contact creates:
//
// - a rolling restart of all three (SIGTERM one at a time; readiness goes false first, so Caddy
//   drains it) loses no request, and no request even fails on its first attempt;
// - a SIGKILL of one loses at most the requests in flight on it, and the client's retry of each
//   succeeds (a contact create repeats its Idempotency-Key, so a retried POST adds nothing twice);
// - an edit through one process is seen by every process's page cache;
// - a session made through one works on all and, signed out through one, on none;
// - the API's rate limit is one count across processes;
// - every webhook delivery job ran exactly once across the processes.
//
// It prints requests sent, answered, failed and retried per phase and exits 1 when a rule fails.
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run drill:cluster
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { and, eq, inArray, like, sql } from 'drizzle-orm'
import { createApiKey } from '#app/api/manage-api-keys.server'
import type { Actor } from '#app/auth/guards.server'
import { DEMO_PASSWORD } from '#app/demo/seed.server'
import { getDefaultCardForOwner } from '#app/models/cards.server'
import { findOrganizationForHost } from '#app/models/organizations.server'
import { findUserByEmail } from '#app/models/users.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { API_SCOPES, type ApiScope } from '#app/validation/api'
import { openPostgres, setDatabaseHandle, withTenant } from '#drizzle/db.server'
import { contacts, jobs, webhookAttempts, webhookMessages } from '#drizzle/schema'
import { createFreshPostgresDatabase, productionServerEnv } from '../../e2e/postgres-database'
import { type AppCluster, startCluster } from './app-cluster'
import { CADDY } from './caddy'
import { PGBOUNCER, type PgBouncerProcess, startPgBouncer } from './pgbouncer'

const serverUrl = process.env.DRILL_DATABASE_URL || process.env.TEST_DATABASE_URL
if (!serverUrl) {
  console.error('cluster drill: set TEST_DATABASE_URL (or DRILL_DATABASE_URL) to a Postgres server')
  process.exit(1)
}
for (const [program, binary] of [
  ['caddy', CADDY],
  ['pgbouncer', PGBOUNCER],
]) {
  if (!existsSync(binary as string)) {
    console.error(
      `cluster drill: ${binary} is missing: apt-get install -y ${program} (Debian's package)`,
    )
    process.exit(1)
  }
}
const BASE = Number(process.env.DRILL_PORT ?? 3800)
const [CADDY_PORT, POOLER_PORT, HOOK_PORT] = [BASE, BASE + 10, BASE + 11]
const HOST = 'acme.localhost'
const SIZE = 3
const STEADY_MS = Number(process.env.DRILL_STEADY_MS ?? 5_000)
const METRICS_TOKEN = randomUUID()

const failures: string[] = []
const check = (ok: boolean, rule: string) => {
  console.log(`${ok ? '  ok  ' : '  FAIL'} ${rule}`)
  if (!ok) failures.push(rule)
}

// --- The client ------------------------------------------------------------------------------

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string }
type Call = {
  method: string
  path: string
  port?: number
  headers?: Record<string, string>
  body?: string
}

// Keep-alive connections to Caddy, as browsers and integrations hold them.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

function send(call: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: call.port ?? CADDY_PORT,
        method: call.method,
        path: call.path,
        agent: call.port ? false : agent,
        headers: { host: HOST, ...call.headers },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')))
    req.end(call.body)
  })
}

type Tally = { sent: number; answered: number; failed: number; retried: number; lost: number }
const newTally = (): Tally => ({ sent: 0, answered: 0, failed: 0, retried: 0, lost: 0 })
const phases = new Map<string, Tally>()
let phase = 'set-up'
const tally = () => {
  const current = phases.get(phase) ?? newTally()
  phases.set(phase, current)
  return current
}
const failureSamples: string[] = []

/**
 * One logical request as a careful client makes it: sent again (the same request, the same
 * Idempotency-Key) when it failed without an answer or with an unexpected status, up to 5
 * attempts: sent once, failed if its first attempt did, retried per repeat, lost if no attempt
 * succeeded, each counted in the phase under way when it happened.
 */
async function request(call: Call, expected: number[]): Promise<Answer | null> {
  tally().sent += 1
  for (let attempt = 1; attempt <= 5; attempt++) {
    if (attempt > 1) tally().retried += 1
    let outcome: string
    try {
      const answer = await send(call)
      if (expected.includes(answer.status)) {
        tally().answered += 1
        return answer
      }
      outcome = `${answer.status} ${answer.body.slice(0, 120)}`
    } catch (error) {
      outcome = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    }
    // Counted in the phase it failed in: a request sent just before a kill fails in the kill's.
    if (attempt === 1) tally().failed += 1
    if (failureSamples.length < 20)
      failureSamples.push(`${phase}: ${call.method} ${call.path}: ${outcome}`)
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
  }
  tally().lost += 1
  return null
}

// --- The load ----------------------------------------------------------------------------------

type Fixture = { apiKey: string; cardId: string; aliceId: string; organizationId: string }

function startLoad(fixture: Fixture) {
  let running = true
  const createdKeys: string[] = []
  const bearer = { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' }
  const paced = async (everyMs: number, work: (n: number) => Promise<unknown>) => {
    for (let n = 0; running; n++) {
      const started = Date.now()
      await work(n)
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, everyMs - (Date.now() - started))),
      )
    }
  }
  const loops = [
    // Visitors opening the card (the page cache answers most of them).
    ...Array.from({ length: 4 }, () =>
      paced(0, () => request({ method: 'GET', path: '/card/alice-anderson' }, [200])),
    ),
    // Sign-ins (argon2), a few a second.
    paced(400, () =>
      request(
        {
          method: 'POST',
          path: '/auth/login',
          headers: {
            origin: `http://${HOST}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({
            email: 'alice@acme.test',
            password: DEMO_PASSWORD,
          }).toString(),
        },
        [302],
      ),
    ),
    // Card edits through the API (a PATCH of the same body is safe to repeat).
    paced(400, (n) =>
      request(
        {
          method: 'PATCH',
          path: `/api/v1/cards/${fixture.cardId}`,
          headers: bearer,
          body: JSON.stringify({ bio: `Drill edit ${n}` }),
        },
        [200],
      ),
    ),
    // Contacts added through the API, each with its own Idempotency-Key, repeated on a retry.
    paced(400, async (n) => {
      const key = `drill-${n}-${randomUUID()}`
      const answer = await request(
        {
          method: 'POST',
          path: '/api/v1/contacts',
          headers: { ...bearer, 'idempotency-key': key },
          body: JSON.stringify({
            owner_id: fixture.aliceId,
            full_name: `Drill Contact ${n}`,
            email: `drill-${n}@example.test`,
          }),
        },
        [201],
      )
      if (answer) createdKeys.push(key)
    }),
  ]
  return {
    loops: loops.length,
    createdKeys,
    async stop() {
      running = false
      await Promise.all(loops)
    },
  }
}

// --- Set-up ------------------------------------------------------------------------------------

const workDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-drill-'))
const database = await createFreshPostgresDatabase(serverUrl, `brandcard_drill_${BASE}`)
const owner = openPostgres(database.url, { max: 2 })
setDatabaseHandle(owner)
let pooler: PgBouncerProcess | undefined
let cluster: AppCluster | undefined
const deliveries = new Map<string, number>()
const receiver = http.createServer((req, res) => {
  const id = String(req.headers['webhook-id'] ?? '')
  deliveries.set(id, (deliveries.get(id) ?? 0) + 1)
  req.resume()
  req.on('end', () => res.writeHead(204).end())
})
await new Promise<void>((resolve) => receiver.listen(HOOK_PORT, '127.0.0.1', resolve))

const started = Date.now()
try {
  pooler = await startPgBouncer({
    port: POOLER_PORT,
    serverUrl: database.url,
    dir: path.join(workDir, 'pgbouncer'),
    users: ['brandcard_app'],
    poolSize: 6,
  })
  cluster = await startCluster({
    size: SIZE,
    port: CADDY_PORT,
    caddyDir: path.join(workDir, 'caddy'),
    bind: '127.0.0.1',
    // Caddy asks each process every 250 ms: a stopping one is out of the rotation well within
    // its 3 s drain window, even on a busy machine.
    healthInterval: '250ms',
    env: {
      ...process.env,
      ...productionServerEnv(database.url),
      DATABASE_POOLER_URL: pooler.urlFor(database.url),
      DATA_DIR: path.join(workDir, 'data'),
      ROOT_DOMAIN: 'localhost',
      SEED_DEMO: '1',
      TRUST_PROXY: '1',
      SHUTDOWN_DRAIN_MS: '3000',
      LOG_LEVEL: 'warn',
      BACKUP_RETENTION: '0',
      DOMAIN_RECHECK_SECONDS: '0',
      WEBHOOK_ALLOW_PRIVATE: '1',
      // A job whose process was killed is taken again by another within seconds, not a minute.
      JOB_LEASE_MS: '3000',
      // A failed delivery attempt's retry runs within the drill, not minutes later.
      WEBHOOK_RETRY_BASE_MS: '200',
      METRICS_TOKEN,
    },
    log: (message) => console.log(`cluster drill: ${message}`),
  })
  const app = cluster
  const fixture = await prepareFixture()

  // --- Under load ----------------------------------------------------------------------------
  phase = 'steady'
  const load = startLoad(fixture)
  await new Promise((resolve) => setTimeout(resolve, STEADY_MS))
  phase = 'rolling restart'
  await app.rollingRestart()
  phase = 'SIGKILL of one'
  await app.kill(1)
  phase = 'after'
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  await load.stop()

  console.log('\ncluster drill: requests (each retried up to 4 times on a failure)')
  console.log('  phase            sent  answered  failed  retried  lost')
  for (const [name, t] of phases) {
    console.log(
      `  ${name.padEnd(15)} ${String(t.sent).padStart(5)} ${String(t.answered).padStart(9)} ${String(t.failed).padStart(7)} ${String(t.retried).padStart(8)} ${String(t.lost).padStart(5)}`,
    )
  }
  if (failureSamples.length) console.log(`  first failures:\n    ${failureSamples.join('\n    ')}`)
  console.log('')
  const of = (name: string) => phases.get(name) ?? newTally()
  check(of('steady').sent > 0 && of('steady').failed === 0, 'steady load: no request failed')
  check(
    of('rolling restart').sent > 0 &&
      of('rolling restart').failed === 0 &&
      of('rolling restart').lost === 0,
    'rolling restart of all three: no request lost, none even failed once',
  )
  check(
    of('SIGKILL of one').lost === 0 && of('SIGKILL of one').failed <= load.loops,
    `SIGKILL of one: at most the ${load.loops} requests in flight failed, and every retry succeeded`,
  )
  check(
    [...phases.values()].every((t) => t.lost === 0),
    'no request lost in any phase',
  )

  // --- Across processes, without load --------------------------------------------------------
  await checkCoherence(app, fixture)
  await checkSessions(app)
  await checkRateLimit(app, fixture)
  await checkContacts(fixture, load.createdKeys)
  await checkJobsOnce(fixture)
  await checkMetrics(app)
} catch (error) {
  failures.push(`the drill could not run: ${(error as Error).stack ?? String(error)}`)
  console.error(error)
  for (const app of cluster?.processes ?? [])
    console.error(`process ${app.index + 1}:\n${app.output()}`)
  if (cluster) console.error(`Caddy:\n${cluster.caddy.output()}`)
  if (pooler) console.error(`PgBouncer:\n${pooler.output()}`)
} finally {
  agent.destroy()
  await cluster?.stop()
  await pooler?.stop()
  receiver.close()
  await owner.close()
  await database.drop()
  rmSync(workDir, { recursive: true, force: true })
}
console.log(
  `\ncluster drill: ${failures.length === 0 ? 'passed' : `${failures.length} rule(s) failed`} in ${Math.round((Date.now() - started) / 1000)} s`,
)
process.exit(failures.length === 0 ? 0 : 1)

// --- The parts ---------------------------------------------------------------------------------

/** An API key of the demo agency's admin and a webhook endpoint on the drill's receiver. */
async function prepareFixture(): Promise<Fixture> {
  const organization = await findOrganizationForHost(owner.db, { kind: 'subdomain', slug: 'acme' })
  if (!organization) throw new Error('the demo agency is missing')
  const { admin, alice, cardId } = await withTenant(organization.id, async (tx) => {
    const admin = await findUserByEmail(tx, organization.id, 'admin@acme.test')
    const alice = await findUserByEmail(tx, organization.id, 'alice@acme.test')
    if (!admin || !alice) throw new Error('the demo accounts are missing')
    const card = await getDefaultCardForOwner(tx, organization.id, alice.id)
    if (!card) throw new Error("Alice's card is missing")
    return { admin, alice, cardId: card.card.id }
  })
  const actor: Actor = {
    tenant: organization as unknown as Tenant,
    user: admin,
    session: { sessionId: 'cluster-drill' },
  }
  const { key } = await createApiKey(actor, {
    name: 'Cluster drill',
    scopes: [...API_SCOPES] as ApiScope[],
  })
  const endpoint = await request(
    {
      method: 'POST',
      path: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `http://127.0.0.1:${HOOK_PORT}/hook`,
        event_types: ['card.updated', 'contact.created'],
      }),
    },
    [201],
  )
  if (!endpoint) throw new Error(`could not create the webhook endpoint: ${failureSamples.at(-1)}`)
  return { apiKey: key, cardId, aliceId: alice.id, organizationId: organization.id }
}

/** An edit through the first process reaches every process's page cache. */
async function checkCoherence(app: AppCluster, fixture: Fixture) {
  const ports = app.processes.map((p) => p.port)
  // Each process has the card page in its cache first.
  for (const port of ports) await send({ method: 'GET', path: '/card/alice-anderson', port })
  const marker = `Coherent${Date.now().toString(36)}`
  const edited = await send({
    method: 'PATCH',
    path: `/api/v1/cards/${fixture.cardId}`,
    port: ports[0],
    headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bio: marker }),
  })
  const editedAt = Date.now()
  // Each process asked every 20 ms until its page shows the edit, all at once.
  const seenAfter = await Promise.all(
    ports.map(async (port) => {
      while (Date.now() - editedAt < 10_000) {
        const page = await send({ method: 'GET', path: '/card/alice-anderson', port })
        if (page.body.includes(marker)) return Date.now() - editedAt
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return Number.POSITIVE_INFINITY
    }),
  )
  check(
    edited.status === 200 && seenAfter.every(Number.isFinite),
    `an edit through one process is on every process's card page (seen after ${seenAfter.join(', ')} ms)`,
  )
}

/** A session made through Caddy works on every process; signed out on one, on none. */
async function checkSessions(app: AppCluster) {
  const signIn = await send({
    method: 'POST',
    path: '/auth/login',
    headers: { origin: `http://${HOST}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'alice@acme.test', password: DEMO_PASSWORD }).toString(),
  })
  const cookie = [signIn.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0])
    .join('; ')
  const dashboard = (port: number) =>
    send({ method: 'GET', path: '/dashboard/end-user', port, headers: { cookie } })
  const before = await Promise.all(app.processes.map((p) => dashboard(p.port)))
  check(
    signIn.status === 302 && before.every((answer) => answer.status === 200),
    'a session made through one process is signed in on every process',
  )
  await send({
    method: 'POST',
    path: '/auth/logout',
    port: app.processes[2]?.port,
    headers: {
      cookie,
      origin: `http://${HOST}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: '',
  })
  const after = await Promise.all(app.processes.map((p) => dashboard(p.port)))
  check(
    after.every((answer) => answer.status === 302),
    'signed out through one process, the session is refused by every process',
  )
}

/** The API's per-key limit is one count: each process sees the others' calls. */
async function checkRateLimit(app: AppCluster, fixture: Fixture) {
  const remaining: number[] = []
  for (const p of [...app.processes, ...app.processes]) {
    const answer = await send({
      method: 'GET',
      path: '/api/v1/cards',
      port: p.port,
      headers: { authorization: `Bearer ${fixture.apiKey}` },
    })
    const match = /;r=(\d+)/.exec(String(answer.headers.ratelimit ?? ''))
    remaining.push(Number(match?.[1] ?? Number.NaN))
  }
  check(
    remaining.every((value, i) => i === 0 || value === (remaining[i - 1] as number) - 1),
    `the API rate limit counts across processes (remaining ${remaining.join(', ')})`,
  )
}

/** Every contact create that was answered is there once; none is there twice. */
async function checkContacts(fixture: Fixture, createdKeys: string[]) {
  const rows = await withTenant(fixture.organizationId, (tx) =>
    tx
      .select({ email: contacts.email })
      .from(contacts)
      .where(
        and(
          eq(contacts.organizationId, fixture.organizationId),
          like(contacts.fullName, 'Drill Contact %'),
        ),
      ),
  )
  const distinct = new Set(rows.map((row) => row.email))
  check(
    rows.length === createdKeys.length && distinct.size === rows.length,
    `every contact create answered is stored once (${createdKeys.length} answered, ${rows.length} stored)`,
  )
}

/** Once the queue is empty, each webhook message reached the receiver once. */
async function checkJobsOnce(fixture: Fixture) {
  const deadline = Date.now() + 60_000
  const pending = async () => {
    const [row] = await owner.db
      .select({ count: sql<number>`count(*)::int` })
      .from(jobs)
      .where(and(eq(jobs.name, 'webhook.deliver'), inArray(jobs.state, ['queued', 'running'])))
    return row?.count ?? 0
  }
  while ((await pending()) > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const ran = await owner.db
    .select({ attempts: jobs.attempts, state: jobs.state })
    .from(jobs)
    .where(and(eq(jobs.name, 'webhook.deliver'), eq(jobs.organizationId, fixture.organizationId)))
  const [messages] = await owner.db
    .select({ count: sql<number>`count(*)::int` })
    .from(webhookMessages)
    .where(eq(webhookMessages.organizationId, fixture.organizationId))
  // An attempt that failed (the receiver never answering it) queues the next one as a job of its
  // own: a second delivery job, not a second run of one.
  const failedAttempts = await owner.db
    .select({ error: webhookAttempts.error, status: webhookAttempts.statusCode })
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.organizationId, fixture.organizationId),
        sql`(${webhookAttempts.error} is not null or ${webhookAttempts.statusCode} <> 204)`,
      ),
    )
  for (const attempt of failedAttempts) {
    console.log(
      `  a delivery attempt failed (then retried): ${attempt.status ?? ''} ${attempt.error ?? ''}`,
    )
  }
  // A job taken again after its process was killed mid-run may have sent its message twice
  // (at least once is the promise then; receivers dedupe by webhook-id): only those may repeat.
  const retaken = ran.filter((job) => job.attempts > 1).length
  const twice = [...deliveries.values()].filter((n) => n > 1).length
  const done = ran.filter((job) => job.state === 'done').length
  check(
    ran.length > 0 &&
      done === ran.length &&
      deliveries.size === messages?.count &&
      ran.length === deliveries.size + failedAttempts.length &&
      twice <= retaken,
    `every webhook delivery job ran once across the processes (${ran.length} jobs for ${messages?.count} messages and ${failedAttempts.length} failed attempts; ${deliveries.size} received, ${twice} twice, ${retaken} retaken after the kill)`,
  )
}

/** Each process counts its own requests and jobs for Prometheus (ADR 097). */
async function checkMetrics(app: AppCluster) {
  const scraped = await Promise.all(
    app.processes.map((p) =>
      send({
        method: 'GET',
        path: '/metrics',
        port: p.port,
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      }),
    ),
  )
  const counted = (text: string, series: string) =>
    new RegExp(`^${series}\\{[^}]*\\} [1-9]`, 'm').test(text)
  check(
    scraped.every(
      (answer) =>
        answer.status === 200 &&
        counted(answer.body, 'brandcard_http_requests_total') &&
        answer.body.includes('brandcard_job_queue_depth'),
    ),
    'every process serves its metrics (requests counted by route, the job queue)',
  )
}
