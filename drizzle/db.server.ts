// One database handle per process: PGlite (embedded, data in DATA_DIR) when no
// DATABASE_URL is set, postgres.js otherwise. Same schema, migrations and queries.
import { AsyncLocalStorage } from 'node:async_hooks'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { NodeFS } from '@electric-sql/pglite/nodefs'
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import { metrics, setPoolSizeSource } from '#app/observability/metrics.server'
import { currentTraceId } from '#app/observability/trace-context'
import { inSpan } from '#app/observability/tracing.server'
import { drizzleView } from '#drizzle/pglite-view.server'
import { ensurePrivateDir, tightenTree } from '#drizzle/private-files.server'
import * as schema from './schema'
import { answeringUnavailable, isDatabaseUnavailable } from './unavailable.server'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  Schema,
  ExtractTablesWithRelations<Schema>
>
/** Either the database or a transaction: model functions accept both. */
export type Queryable = Database | Transaction

export type DatabaseHandle = {
  db: Database
  driver: 'pglite' | 'postgres'
  /** The most connections its pool opens (the metrics' denominator). */
  poolSize: number
  migrate(): Promise<void>
  close(): Promise<void>
  /**
   * Calls `onNotify` for each NOTIFY on `channel`, and `onListening` each time the listener is
   * (re)connected: notifications sent while it was away are lost, so callers start afresh then.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListening: () => void,
  ): Promise<() => Promise<void>>
}

const migrationsFolder = () => path.resolve(process.env.MIGRATIONS_DIR ?? 'migrations')

/**
 * Postgres's 128 MB of shared buffers live in PGlite's WebAssembly memory, which never shrinks:
 * they were most of the server's resident memory. The operating system already caches the data
 * directory's files, so a smaller pool costs a copy, not a disk read (ADR 023).
 */
function pgliteSharedBuffers() {
  const value = process.env.PGLITE_SHARED_BUFFERS?.trim() || '16MB'
  if (!/^\d+(kB|MB|GB)$/.test(value))
    throw new Error(`PGLITE_SHARED_BUFFERS must look like 16MB, not ${value}`)
  return value
}

/**
 * PGlite starts Postgres with `-F` (fsync off), and its file system (Emscripten's NODEFS) has no
 * fsync at all, so a commit was acknowledged before it reached the disk: a power loss or an
 * operating-system crash could lose it. By default fsync is on, WAL flushes use fsync (the
 * fdatasync that Postgres would pick is a no-op in Emscripten), and NODEFS learns to pass fsync
 * through to the real file. PGLITE_FSYNC=off is the opt-out for throwaway demos (ADR 033).
 */
export function pgliteFsync(): 'on' | 'off' {
  const value = process.env.PGLITE_FSYNC?.trim().toLowerCase() || 'on'
  if (value !== 'on' && value !== 'off')
    throw new Error(`PGLITE_FSYNC must be on or off, not ${value}`)
  return value
}

/** Postgres's settings in every PGlite the app opens (tests' throwaway ones too): ADRs 023, 033. */
export function pgliteStartParams() {
  const durability =
    pgliteFsync() === 'on' ? ['-c', 'fsync=on', '-c', 'wal_sync_method=fsync'] : ['-c', 'fsync=off']
  return [
    ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
    ...durability,
    '-c',
    `shared_buffers=${pgliteSharedBuffers()}`,
  ]
}

type NodeStream = { nfd?: number }
type EmscriptenNodeFs = {
  NODEFS: { stream_ops: Record<string, unknown>; tryFSOperation<T>(work: () => T): T }
}

/** NodeFS whose streams fsync the real file when Postgres asks (Emscripten's NODEFS ignores it). */
class DurableNodeFS extends NodeFS {
  async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts)
    const passFsyncThrough = (mod: EmscriptenNodeFs) => {
      mod.NODEFS.stream_ops.fsync = (stream: NodeStream) => {
        if (stream.nfd === undefined) return 0
        mod.NODEFS.tryFSOperation(() => fs.fsyncSync(stream.nfd as number))
        return 0
      }
    }
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [...(emscriptenOpts.preRun ?? []), passFsyncThrough as never],
      },
    }
  }
}

const BYTEA_OID = 17

/**
 * PGlite's own bytea codecs go one byte at a time in JavaScript (a substring and a parseInt per
 * byte to read, a string per byte to write): storing a 100 KB photo took 13 ms of CPU and reading
 * it 6.5 ms, against 2.2 and 2.5 ms with Node's hex codec (2026-12-05). Read as a Buffer, as
 * postgres.js reads bytea.
 */
const BYTEA_CODECS = {
  parsers: { [BYTEA_OID]: (value: string) => Buffer.from(value.slice(2), 'hex') },
  serializers: {
    [BYTEA_OID]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type')
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`
    },
  },
}

/**
 * Where and how PGlite keeps a database the app opens: the server's, and the one `npm run backup`
 * or `npm run restore` opens (app/backups/commands.server.ts), so both run with the same shared
 * buffers and fsync.
 */
export function pgliteStorage(dataDir: string | undefined) {
  return {
    ...(dataDir && pgliteFsync() === 'on' ? { fs: new DurableNodeFS(dataDir) } : { dataDir }),
    startParams: pgliteStartParams(),
  }
}

export function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): DatabaseHandle {
  const { dataDir } = options
  if (dataDir) ensurePrivateDir(dataDir)
  const client = new PGlite({
    ...pgliteStorage(dataDir),
    loadDataDir: options.loadDataDir,
    ...BYTEA_CODECS,
  })
  // PGlite copies a new data directory's files in with mode 0666: private once it is ready,
  // before any query of ours runs (this callback is the first one waiting for it).
  if (dataDir) void client.waitReady.then(() => tightenTree(dataDir))
  return pgliteHandle(client)
}

/**
 * The handle the app queries `client` through: a new drizzle view of it, with no statement of its
 * own prepared yet. The test setup gives each test file one around a client it reused, its
 * session discarded first (tests/setup/pglite-reuse.ts).
 */
export function pgliteHandle(client: PGlite): DatabaseHandle {
  const db = drizzlePglite({
    client: drizzleView(client) as unknown as PGlite,
    schema,
    logger: statementLog,
  }) as unknown as Database
  return {
    db,
    driver: 'pglite',
    poolSize: 1,
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    close: () => client.close(),
    async listen(channel, onNotify, onListening) {
      // PGlite is one connection in this process: it never drops, so it listens once.
      const unlisten = await client.listen(channel, onNotify)
      onListening()
      return unlisten
    },
    ...{ client },
  }
}

export type PostgresOptions = {
  max?: number
  /**
   * A transaction-mode pooler (PgBouncer before 1.21) hands each transaction whichever server
   * connection is free, so a statement prepared on one is unknown on the next: postgres.js then
   * sends every query unnamed (`prepare: false`).
   */
  prepare?: boolean
  /**
   * Where LISTEN goes when `url` is such a pooler: a session that stays put, straight to Postgres
   * (a pooler in transaction mode would drop the subscription with the transaction).
   */
  listenUrl?: string
}

export function openPostgres(url: string, options: PostgresOptions = {}): DatabaseHandle {
  const max = options.max ?? 10
  const client = postgres(url, {
    max,
    prepare: options.prepare ?? true,
    connect_timeout: 3,
    idle_timeout: 30,
    // No array-type lookup on each new connection: the schema has no array columns, and that
    // lookup's promise is left unhandled by postgres.js when the connection dies meanwhile,
    // which would end the process (found by e2e/database-faults.spec.ts).
    fetch_types: false,
    // Reconnects wait at most 1 s. postgres.js's default backoff grows as 3^n / 100 s (capped at
    // 20 s) with a failure count shared by the whole pool and reset only by a completed startup,
    // so after a burst of killed connections (a failover) every connection could sit out 10-20 s
    // while requests queued behind them: the fault test saw requests unanswered for 15 s.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    onnotice: () => {},
  })
  const listener = options.listenUrl
    ? postgres(options.listenUrl, {
        max: 1,
        connect_timeout: 3,
        fetch_types: false,
        backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
        onnotice: () => {},
      })
    : undefined
  const db = drizzlePostgres(preparingStatements(client), {
    schema,
    logger: statementLog,
  }) as unknown as Database
  return {
    db,
    driver: 'postgres',
    poolSize: max,
    async migrate() {
      // Migrations get their own single connection so advisory locks and DDL stay on one session.
      const migrationClient = postgres(url, { max: 1, onnotice: () => {} })
      try {
        // Several processes starting at once (a cluster, ADR 096) migrate one after another:
        // drizzle's migrator takes no lock, and two running the same DDL would collide. The lock
        // is the session's, and ends with the connection should this process die meanwhile.
        await migrationClient`select pg_advisory_lock(hashtext('brandcard migrations'))`
        await migratePostgres(drizzlePostgres(migrationClient), {
          migrationsFolder: migrationsFolder(),
        })
      } finally {
        await migrationClient.end()
      }
    },
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), listener?.end({ timeout: 5 })])
    },
    async listen(channel, onNotify, onListening) {
      // postgres.js keeps one extra connection for LISTEN and re-subscribes after a reconnect.
      const { unlisten } = await (listener ?? client).listen(channel, onNotify, onListening)
      return unlisten
    },
  }
}

/**
 * postgres.js keeps every statement a connection prepared, keyed by its text, for the
 * connection's life (30-60 minutes under load). A statement whose text grows with its input (an
 * `in` list, a VALUES list) would be a new one for every length: those go unnamed, and the cache
 * holds at most this many variants of each.
 */
export const MAX_PREPARED_PARAMETERS = 64

/**
 * drizzle-orm's postgres.js driver sends every query unnamed (`unsafe(…, { prepare: false })`),
 * and postgres.js sends an unnamed query with parameters in two round trips: Parse and Describe,
 * then, once the parameters' types are back, Bind and Execute. Prepared, a statement is described
 * once per connection and then sent in one round trip; a signed-in page runs about twenty (issue
 * 44, ADR 099). A client opened with `prepare: false` (a pooler that cannot keep them) still wins:
 * postgres.js prepares only when both its own option and the query's allow it.
 */
function preparingStatements<T extends postgres.Sql | postgres.TransactionSql>(sql: T): T {
  type Work = (inner: postgres.TransactionSql) => unknown
  const scoped =
    (open: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const work = args.pop() as Work
      return open(...args, (inner: postgres.TransactionSql) => work(preparingStatements(inner)))
    }
  return new Proxy(sql, {
    get(target, key) {
      if (key === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: object) =>
          target.unsafe(query, parameters as never, {
            ...options,
            prepare: (parameters?.length ?? 0) <= MAX_PREPARED_PARAMETERS,
          })
      }
      if (key === 'begin' && 'begin' in target) return scoped(target.begin.bind(target) as never)
      if (key === 'savepoint' && 'savepoint' in target) {
        return scoped(target.savepoint.bind(target) as never)
      }
      return Reflect.get(target, key)
    },
  })
}

type Holder = { handle?: DatabaseHandle }
// Kept on globalThis so the dev server's module reloads and the production entry share one pool.
const globalStore = globalThis as { __brandcardDatabase?: Holder }
globalStore.__brandcardDatabase ??= {}
const holder: Holder = globalStore.__brandcardDatabase
setPoolSizeSource(() => holder.handle?.poolSize ?? 0)

export function getDatabaseHandle(): DatabaseHandle {
  if (!holder.handle) {
    const url = process.env.DATABASE_URL
    holder.handle = url
      ? openPostgres(url)
      : openPglite({ dataDir: path.resolve(process.env.DATA_DIR ?? './data', 'pglite') })
  }
  return holder.handle
}

export function getDb(): Database {
  return getDatabaseHandle().db
}

/** The handle the app holds, if any, without opening one as getDatabaseHandle would. */
export function heldDatabaseHandle(): DatabaseHandle | undefined {
  return holder.handle
}

/** Tests install their own database (a fresh clone per test file). */
export function setDatabaseHandle(handle: DatabaseHandle | undefined) {
  holder.handle = handle
}

export async function closeDatabase() {
  const handle = holder.handle
  holder.handle = undefined
  await handle?.close()
}

/**
 * The one entry point for tenant rows: the work runs in a transaction that carries
 * the organization id in `app.organization_id`, which row-level security policies read.
 * Pass the transaction down; on PGlite, using the outer db inside it would deadlock.
 */
export async function withTenant<T>(
  organizationId: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return answeringUnavailable(() =>
    transactionRetryingStaleConnections('tenant', async (tx, started) => {
      // Row-level security applies to a role that neither owns the tables nor is a superuser.
      // set_config('role', …, true) is SET LOCAL ROLE; one statement for both saves a round
      // trip on every transaction (a signed-in page runs several).
      const organizationConfig = sql`select set_config('role', 'brandcard_app', true), set_config('app.organization_id', ${organizationId}, true)`
      const client = holder.handle?.driver === 'postgres' ? transactionClient(tx) : undefined
      if (!client) {
        await tx.execute(organizationConfig)
        started()
        return work(tx)
      }
      // On Postgres the work's first statement goes out without waiting for set_config's
      // answer (issue 44 point 3): one round trip and one socket write fewer per transaction.
      // set_config is handed to postgres.js here, synchronously, before the work runs: every
      // query reaches its connection one microtask after it is started, so none of the work's
      // can overtake it, and Postgres runs a connection's statements in order: the first one
      // already runs as brandcard_app in the tenant. postgres.js writes what a turn of the
      // event loop queued in one write. Should set_config fail, the work's statements fail in
      // the aborted transaction and the unit throws, as before. A connection found dead fails
      // at BEGIN, before this runs, and is still tried again.
      statementLog.logQuery(ORGANIZATION_CONFIG)
      const configuring = client.unsafe(ORGANIZATION_CONFIG, [organizationId], { prepare: true })
      configuring.execute()
      started()
      const [, result] = await Promise.all([configuring, work(tx)])
      return result
    }),
  )
}

/** withTenant's set_config, as drizzle writes `organizationConfig` (one prepared statement). */
const ORGANIZATION_CONFIG =
  "select set_config('role', 'brandcard_app', true), set_config('app.organization_id', $1, true)"

/**
 * The postgres.js transaction under a drizzle transaction (drizzle keeps it on the session it
 * marks internal), or undefined should a drizzle release move it: withTenant then waits for
 * set_config as it used to.
 */
export function transactionClient(tx: Transaction): postgres.TransactionSql | undefined {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client
  return typeof client === 'function' && 'unsafe' in client
    ? (client as postgres.TransactionSql)
    : undefined
}

type Unit = 'tenant' | 'database' | 'platform'

/**
 * What the operator sees of each unit of database work (ADR 097): a span when tracing is on, its
 * duration and the units in flight in the metrics (postgres.js does not say how many of its
 * connections are busy; each unit holds one), and one warn line when it is slower than
 * SLOW_QUERY_MS. The statements are drizzle's text, whose values are `$1` placeholders; quoted
 * literals (a `sql.raw` with a value written in) are blanked too: a log outlives the secrets it
 * might otherwise hold.
 */
type UnitRecord = { statements: string[]; count: number }
const unitStatements = new AsyncLocalStorage<UnitRecord>()
const MAX_STATEMENTS = 20
const MAX_STATEMENT_CHARS = 300

let statementObserver: ((query: string) => void) | undefined

/**
 * Tests that must know every statement some work runs (the tables a cached page reads,
 * tests/integration/private-page-cache.test.ts) watch them here, whole.
 */
export function observeStatementsForTests(observer?: (query: string) => void) {
  statementObserver = observer
}

const statementLog = {
  logQuery(query: string) {
    statementObserver?.(query)
    const record = unitStatements.getStore()
    if (!record) return
    record.count++
    if (record.statements.length < MAX_STATEMENTS) record.statements.push(query)
  },
}

/** A statement as logs and spans show it: literals blanked, whitespace folded, length capped. */
export function loggedStatement(query: string) {
  const text = query
    .replace(/'(?:[^']|'')*'/g, "'…'")
    .replace(/\s+/g, ' ')
    .trim()
  return text.length > MAX_STATEMENT_CHARS ? `${text.slice(0, MAX_STATEMENT_CHARS)}…` : text
}

export type SlowWork = {
  unit: Unit
  duration_ms: number
  statements: string[]
  statement_count: number
  trace_id?: string
}
const consoleSlowLog = (message: string, fields: SlowWork) =>
  console.warn(`${message}: ${JSON.stringify(fields)}`)
let slowLog = consoleSlowLog
let slowQueryMs: number | null | undefined

/** SLOW_QUERY_MS: a number of milliseconds (200 when unset), or `off`. */
export function parseSlowQueryMs(value: string | undefined): number | null {
  const text = value?.trim() ?? ''
  if (text === '') return 200
  if (text.toLowerCase() === 'off') return null
  const ms = Number(text)
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`SLOW_QUERY_MS must be milliseconds or off, not ${text}`)
  return ms
}

/** Where slow units are reported (server.ts: its pino logger, at warn). */
export function setSlowQueryLog(log: (message: string, fields: SlowWork) => void) {
  slowLog = log
}

/** Tests set the threshold (0: every unit is slow); without an argument SLOW_QUERY_MS is read again. */
export function setSlowQueryMsForTests(ms?: number | null) {
  slowQueryMs = ms
}

/** A test file's reporting is not the next one's (tests/setup/process-state.ts). */
export function resetSlowQueryReportForTests() {
  slowLog = consoleSlowLog
  slowQueryMs = undefined
}

const unitDuration = {
  tenant: metrics.dbDuration.labels('tenant'),
  database: metrics.dbDuration.labels('database'),
  platform: metrics.dbDuration.labels('platform'),
}

async function observedUnit<T>(unit: Unit, work: () => Promise<T>): Promise<T> {
  const record: UnitRecord = { statements: [], count: 0 }
  const started = performance.now()
  metrics.dbInFlight.inc()
  try {
    return await inSpan(
      `db ${unit}`,
      { 'db.system': holder.handle?.driver === 'pglite' ? 'pglite' : 'postgresql' },
      () => unitStatements.run(record, work),
      () => ({
        'db.query.text': record.statements.map(loggedStatement).join(';\n'),
        'db.statement_count': record.count,
      }),
    )
  } finally {
    metrics.dbInFlight.dec()
    const ms = performance.now() - started
    unitDuration[unit].observe(ms / 1000)
    if (slowQueryMs === undefined) slowQueryMs = parseSlowQueryMs(process.env.SLOW_QUERY_MS)
    if (slowQueryMs !== null && ms >= slowQueryMs) {
      metrics.dbSlow.inc()
      slowLog('slow database work', {
        unit,
        duration_ms: Math.round(ms),
        statements: record.statements.map(loggedStatement),
        statement_count: record.count,
        trace_id: currentTraceId(),
      })
    }
  }
}

/**
 * A pooled connection can die while idle (a restart, a failover, `pg_terminate_backend`) and
 * be handed out before the pool notices. When it fails before the caller's work has begun,
 * nothing was written, so the transaction is tried again on a fresh connection. Once the work
 * has started it is never repeated: the request answers 503 instead.
 */
async function transactionRetryingStaleConnections<T>(
  unit: Unit,
  work: (tx: Transaction, started: () => void) => Promise<T>,
  attempts = 3,
): Promise<T> {
  return observedUnit(unit, () => withinTimeBound(retrying(work, attempts)))
}

/**
 * The last guard of "every request gets an answer": a unit of database work that has not
 * settled in this time is answered as an unreachable database (503). Nothing in the product
 * takes a fraction of it; it exists for a driver that loses track of a killed connection
 * (postgres.js did, see ADR 005), where waiting longer would hold the request forever.
 */
const TIME_BOUND_MS = 10_000
let timeBoundMs = TIME_BOUND_MS

/** Tests shorten the bound instead of waiting 10 s; without an argument, the bound is put back. */
export function setDatabaseWorkTimeBoundForTests(ms = TIME_BOUND_MS) {
  timeBoundMs = ms
}

/**
 * Work answered at the bound goes on: a transaction waiting on a row lock stays open, and holds
 * its connection and its locks, until Postgres ends it. A caller that must not start the same
 * work again meanwhile (the job worker: a job retried at once ran beside its own first attempt,
 * issue 39 point 4) runs under `collectingOverdueWork` and awaits what it collected.
 */
const overdueWork = new AsyncLocalStorage<Promise<void>[]>()

/** Runs `work`; each unit of database work in it that outlives the bound adds its end to `into`. */
export function collectingOverdueWork<T>(into: Promise<void>[], work: () => Promise<T>) {
  return overdueWork.run(into, work)
}

function withinTimeBound<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const collector = overdueWork.getStore()
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      collector?.push(work.then(noop, noop))
      reject(
        Object.assign(new Error('The database did not answer in time'), {
          code: 'DATABASE_WORK_TIMEOUT',
        }),
      )
    }, timeBoundMs)
    timer.unref()
  })
  return Promise.race([work, bound]).finally(() => clearTimeout(timer))
}

const noop = () => {}

async function retrying<T>(
  work: (tx: Transaction, started: () => void) => Promise<T>,
  attempts: number,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let workStarted = false
    try {
      return await getDb().transaction((tx) =>
        work(tx, () => {
          workStarted = true
        }),
      )
    } catch (error) {
      if (workStarted || attempt >= attempts || !isDatabaseUnavailable(error)) throw error
    }
  }
}

/**
 * Work outside any tenant: the tenant registry (organizations) and rate-limit counters. It runs
 * as brandcard_app in a transaction like withTenant, with no tenant set, so PGlite and the
 * owner's connection see exactly what the app login sees in production: no tenant rows at all
 * (a query that needs one belongs in withTenant). A database that cannot be reached answers 503.
 */
export function withDatabase<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  return answeringUnavailable(() =>
    transactionRetryingStaleConnections('database', async (tx, started) => {
      await tx.execute(sql`set local role brandcard_app`)
      started()
      return work(tx)
    }),
  )
}

/**
 * Permission to read across tenants. Only the super-admin guard issues one
 * (`tests/unit/platform-scope.test.ts` checks the importers); a forged object is refused.
 */
export type PlatformScopeGrant = { readonly actorUserId: string; readonly organizationId: string }
const issuedGrants = new WeakSet<PlatformScopeGrant>()

export function issuePlatformScopeGrant(actor: {
  userId: string
  organizationId: string
}): PlatformScopeGrant {
  const grant = Object.freeze({ actorUserId: actor.userId, organizationId: actor.organizationId })
  issuedGrants.add(grant)
  return grant
}

/**
 * Platform-wide reads across tenants: the one other way past the tenant policies.
 * Every use is audited in the same transaction, with the purpose the caller names.
 */
export async function withPlatformScope<T>(
  grant: PlatformScopeGrant,
  purpose: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  if (!issuedGrants.has(grant)) {
    throw new Error('withPlatformScope needs a grant from the super-admin guard')
  }
  return answeringUnavailable(() =>
    transactionRetryingStaleConnections('platform', async (tx, started) => {
      await tx.execute(
        sql`select set_config('role', 'brandcard_app', true), set_config('app.platform_scope', 'on', true)`,
      )
      started()
      await tx.insert(schema.auditEvents).values({
        organizationId: grant.organizationId,
        actorUserId: grant.actorUserId,
        action: 'platform.read',
        entityType: 'platform',
        metadata: { purpose },
      })
      return work(tx)
    }),
  )
}

/** Answers whether the database responds, within a time limit. */
export async function pingDatabase(timeoutMs = 3000): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Database did not answer in time')), timeoutMs)
  })
  try {
    await Promise.race([getDb().execute(sql`select 1`), timeout])
  } finally {
    clearTimeout(timer)
  }
}
