// Start-up work: apply migrations, seed the demo when the database is empty and the demo is
// wanted (always on the embedded database, on Postgres only with SEED_DEMO=1), then on
// Postgres hand requests to a connection that logs in as the non-owner role brandcard_app.

import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { seedDemo } from '#app/demo/seed.server'
import { getEnv } from '#app/env.server'
import { hasPlatformOrganization } from '#app/models/organizations.server'
import {
  type DatabaseHandle,
  getDatabaseHandle,
  openPostgres,
  setDatabaseHandle,
} from '#drizzle/db.server'
import { secureDataDir } from '#drizzle/private-files.server'

type Log = (message: string) => void

export async function prepareDatabase(options: { log?: Log } = {}) {
  const log = options.log ?? (() => {})
  // Before anything is written: DATA_DIR holds password hashes and the generated secret.
  secureDataDir(process.env.DATA_DIR ?? './data')
  // Fail at boot, not on the first request, when the environment is wrong.
  getEnv()
  const owner = getDatabaseHandle()
  await owner.migrate()
  log(`database migrated (${owner.driver})`)
  const wantDemo =
    process.env.SEED_DEMO === '1' || (process.env.SEED_DEMO !== '0' && owner.driver === 'pglite')
  if (wantDemo && !(await hasPlatformOrganization(owner.db))) {
    // Processes starting together (a cluster, ADR 096) seed one after another: the second finds
    // the demo there and leaves it.
    if (await seedDemoOnce(owner)) log('demo data seeded (see README for the accounts)')
  }
  if (owner.driver === 'postgres') await connectAsAppRole(owner, log)
  // PGlite has no autovacuum: the planner would otherwise never see how large the tables have
  // grown (a data directory filled by an import, a restore or months of use).
  else await owner.db.execute(sql`analyze`)
}

/** Seeds the demo unless another process has, under a lock held by whichever seeds. */
async function seedDemoOnce(owner: DatabaseHandle) {
  if (owner.driver === 'pglite') {
    await seedDemo(owner.db)
    return true
  }
  return owner.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('brandcard demo seed'))`)
    if (await hasPlatformOrganization(tx)) return false
    // Its own transaction, on another connection: the lock is held until this one ends.
    await seedDemo(owner.db)
    return true
  })
}

/**
 * Requests run as brandcard_app: not the tables' owner, not a superuser, no BYPASSRLS, so
 * row-level security holds even for a query that never switches role. DATABASE_APP_URL names
 * that login; without it the owner enables the role's login with a password derived from
 * APP_SECRET (the same on every instance that shares the secret). Start-up fails rather than
 * serve requests on the owner's connection, where row-level security would not hold (ADR 032).
 */
async function connectAsAppRole(owner: DatabaseHandle, log: Log) {
  const env = getEnv()
  const appUrl = env.DATABASE_APP_URL ?? derivedLoginUrl(env.DATABASE_URL ?? '', env.APP_SECRET)
  const app = env.DATABASE_APP_URL
    ? await openUnprivileged(env.DATABASE_APP_URL)
    : await connectWithDerivedLogin(owner, env.DATABASE_URL ?? '', env.APP_SECRET, log)
  if (env.DATABASE_POOLER_URL) {
    await app.close()
    setDatabaseHandle(await openThroughPooler(env.DATABASE_POOLER_URL, appUrl))
    log('database: requests go through the transaction pooler, LISTEN straight to Postgres')
  } else {
    setDatabaseHandle(app)
  }
  await owner.close()
  log('database: requests run as brandcard_app (not the owner, no superuser, no BYPASSRLS)')
}

/**
 * Requests through a transaction-mode pooler (PgBouncer, ADR 096) as the app login: the pooler's
 * address with the login's name and password unless the pooler URL names its own. Statements go
 * unprepared (the pooler may run each transaction on another server connection), and LISTEN
 * keeps its own session straight to Postgres on the app login's URL. Row-level security's
 * settings are SET LOCAL (withTenant), so they hold within the one transaction the pooler pins.
 */
export async function openThroughPooler(poolerUrl: string, appUrl: string) {
  const pooled = new URL(poolerUrl)
  if (!pooled.username) {
    const login = new URL(appUrl)
    pooled.username = login.username
    pooled.password = login.password
  }
  const handle = openPostgres(pooled.toString(), { prepare: false, listenUrl: appUrl })
  try {
    await assertUnprivileged(handle)
    return handle
  } catch (error) {
    await handle.close()
    throw redacted(error, 'could not connect through DATABASE_POOLER_URL')
  }
}

/** The app login's URL on the owner's server: brandcard_app with the password from the secret. */
function derivedLoginUrl(ownerUrl: string, secret: string | undefined) {
  const url = new URL(ownerUrl)
  url.username = 'brandcard_app'
  url.password = appLoginPassword(secret ?? '')
  return url.toString()
}

/** The app login's password: an HMAC of APP_SECRET, never stored, never logged. */
export function appLoginPassword(secret: string) {
  return createHmac('sha256', secret).update('brandcard_app database login').digest('hex')
}

/**
 * Connects as brandcard_app with the password derived from the secret, first giving the role
 * that login when it does not have it yet. Several instances starting at once each do this:
 * the owner's ALTER ROLE is serialised by an advisory lock (one database) and retried when the
 * catalog row changed under it anyway (another database of the same server: the role is
 * server-wide), which once failed a start in three ("tuple concurrently updated").
 */
export async function connectWithDerivedLogin(
  owner: DatabaseHandle,
  ownerUrl: string,
  secret: string,
  log: Log = () => {},
): Promise<DatabaseHandle> {
  const password = appLoginPassword(secret)
  const appUrl = derivedLoginUrl(ownerUrl, secret)
  try {
    // Already set up by this or another instance: nothing to change.
    return await openUnprivileged(appUrl)
  } catch (error) {
    if (!isLoginRefused(error)) throw redacted(error, 'could not connect as brandcard_app')
  }
  await enableAppLogin(owner, password, log)
  try {
    return await openUnprivileged(appUrl)
  } catch (error) {
    throw redacted(error, 'could not connect as brandcard_app')
  }
}

const LOGIN_LOCK = 'brandcard_app login'
const ROLE_RETRIES = 5

async function enableAppLogin(owner: DatabaseHandle, password: string, log: Log) {
  for (let attempt = 1; ; attempt++) {
    try {
      await owner.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${LOGIN_LOCK}))`)
        // The role's password as a SCRAM verifier: the statement, the server's own log of a
        // failed statement and pg_stat_activity never carry the password itself.
        await tx.execute(
          sql.raw(`alter role brandcard_app with login password '${scramVerifier(password)}'`),
        )
      })
      return
    } catch (error) {
      if (attempt < ROLE_RETRIES && isConcurrentCatalogUpdate(error)) {
        log(`database: brandcard_app's login changed meanwhile, trying again (${attempt})`)
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50))
        continue
      }
      throw redacted(
        error,
        'could not give brandcard_app its login; set DATABASE_APP_URL to a login that neither owns the tables nor is a superuser, or let the owner alter roles',
      )
    }
  }
}

/**
 * A SCRAM-SHA-256 verifier for `password` (RFC 5802/7677, as Postgres stores it): Postgres
 * accepts one in place of a password and keeps it as it is.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096) {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256')
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest()
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest()
  const serverKey = hmac(salted, 'Server Key')
  const b64 = (bytes: Buffer) => bytes.toString('base64')
  return `SCRAM-SHA-256$${iterations}:${b64(salt)}$${b64(storedKey)}:${b64(serverKey)}`
}

/** SQLSTATE class 28: the login was refused (no such login, NOLOGIN, wrong password). */
function isLoginRefused(error: unknown) {
  return sqlStateOf(error)?.startsWith('28') ?? false
}

/** Another session changed the role's catalog row first, or a lock wait went wrong. */
function isConcurrentCatalogUpdate(error: unknown) {
  const state = sqlStateOf(error)
  return state === 'XX000' || state === '40001' || state === '40P01'
}

function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * The server's reason, without the statement or its parameters: drizzle's message quotes the
 * whole SQL ("Failed query: alter role … password …") and the driver's error carries it too, so
 * neither is passed on (nor kept as the cause) to whatever logs the failure.
 */
function redacted(error: unknown, what: string) {
  let reason = 'unknown error'
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown }
    if (typeof message === 'string' && !message.startsWith('Failed query:')) {
      reason = typeof code === 'string' ? `${code}: ${message}` : message
      break
    }
    current = (current as { cause?: unknown }).cause
  }
  return Object.assign(new Error(`Database start-up: ${what} (${reason})`), {
    code: sqlStateOf(error),
  })
}

async function openUnprivileged(url: string) {
  const app = openPostgres(url)
  try {
    await assertUnprivileged(app)
    return app
  } catch (error) {
    await app.close()
    throw error
  }
}

async function assertUnprivileged(app: DatabaseHandle) {
  const rows = (await app.db.execute(sql`
    select current_user as name, r.rolsuper as superuser, r.rolbypassrls as bypassrls,
      exists (select 1 from pg_tables where schemaname = 'public' and tableowner = current_user)
        as owns_tables
    from pg_roles r where r.rolname = current_user`)) as unknown as {
    name: string
    superuser: boolean
    bypassrls: boolean
    owns_tables: boolean
  }[]
  const role = rows[0]
  if (!role || role.superuser || role.bypassrls || role.owns_tables) {
    throw new Error(
      `The request connection must not be a superuser, have BYPASSRLS or own the tables (got ${role?.name ?? 'nothing'})`,
    )
  }
}
