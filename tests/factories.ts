// Small builders for test data. Tests never depend on the demo seed.

import { randomBytes } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { eq } from 'drizzle-orm'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import sharp from 'sharp'
import type { NewAccount } from '#app/auth/accounts.server'
import { hashPassword } from '#app/auth/password.server'
import { createSession, sessionCookieName } from '#app/auth/session.server'
import { flushCardEvents } from '#app/cards/event-batcher.server'
import { runJobsNow } from '#app/job-handlers.server'
import { createCard, type NewCard } from '#app/models/cards.server'
import { storeMedia } from '#app/models/media.server'
import {
  createOrganization,
  type NewOrganization,
  setOrganizationBrandingImages,
} from '#app/models/organizations.server'
import { createUser } from '#app/models/users.server'
import {
  type Database,
  type DatabaseHandle,
  getDatabaseHandle,
  getDb,
  openPostgres,
  setDatabaseHandle,
  type Transaction,
  withTenant,
} from '#drizzle/db.server'
import * as schema from '#drizzle/schema'
import { jobs, organizations } from '#drizzle/schema'
import { openPgliteSnapshot } from './setup/pglite-snapshot'

export const uniqueSuffix = () => randomBytes(4).toString('hex')

export async function makeOrganization(overrides: Partial<NewOrganization> = {}) {
  const suffix = uniqueSuffix()
  return createOrganization(getDb(), {
    slug: `org-${suffix}`,
    name: `Org ${suffix}`,
    kind: 'agency',
    ...overrides,
  })
}

export async function makePng(color: string, width = 40, height = 20) {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer()
}

/** The one platform organization of the test database, created on first use. */
export async function getPlatformOrganization() {
  const [existing] = await getDb()
    .select()
    .from(organizations)
    .where(eq(organizations.kind, 'platform'))
  return existing ?? makeOrganization({ kind: 'platform', slug: 'platform', name: 'Platform' })
}

/** An agency with a logo and favicon of its own. */
export async function makeBrandedOrganization(overrides: Partial<NewOrganization> = {}) {
  const organization = await makeOrganization(overrides)
  return withTenant(organization.id, async (tx) => {
    const logo = await storeMedia(tx, organization.id, {
      bytes: await makePng(organization.primaryColor, 40, 20),
      contentType: 'image/png',
      width: 40,
      height: 20,
      purpose: 'organization-logo',
    })
    const favicon = await storeMedia(tx, organization.id, {
      bytes: await makePng(organization.secondaryColor, 16, 16),
      contentType: 'image/png',
      width: 16,
      height: 16,
      purpose: 'organization-favicon',
    })
    await setOrganizationBrandingImages(tx, organization.id, {
      logoMediaId: logo.id,
      faviconMediaId: favicon.id,
    })
    return { organization, logo, favicon }
  })
}

// One argon2 hash per password and test process: the users a file makes share it (each is still
// a real hash their password signs in with). Hashing anew for each user was most of the CPU of
// the files that build role matrices.
const hashes = new Map<string, Promise<string>>()
function hashOf(password: string) {
  let hashed = hashes.get(password)
  if (!hashed) {
    hashed = hashPassword(password)
    hashes.set(password, hashed)
  }
  return hashed
}

/**
 * A user of the organization, with a confirmed email unless `emailConfirmedAt: null` is given.
 * A `passwordHash` given skips argon2 (for users nobody signs in as).
 */
export async function makeUser(
  organizationId: string,
  overrides: Partial<NewAccount> & { passwordHash?: string } = {},
) {
  const { password = 'password123', passwordHash, ...account } = overrides
  const hash = passwordHash ?? (await hashOf(password))
  return withTenant(organizationId, (tx) =>
    createUser(tx, organizationId, {
      email: `user-${uniqueSuffix()}@example.test`,
      firstName: 'Test',
      lastName: 'User',
      emailConfirmedAt: new Date(),
      ...account,
      passwordHash: hash,
    }),
  )
}

export async function makeCard(
  organizationId: string,
  userId: string,
  overrides: Partial<NewCard> = {},
) {
  return withTenant(organizationId, (tx) =>
    createCard(tx, organizationId, userId, { firstName: 'Test', lastName: 'User', ...overrides }),
  )
}

/** The load context server.ts would build for a request on `host`. */
export function contextFor(host: string | null, clientIp = '203.0.113.1'): AppLoadContext {
  return { host, cspNonce: 'test-nonce', clientIp, responseCookies: [] }
}

/** A signed-in Cookie header for the user, as the browser would send it. */
export async function sessionCookieFor(organizationId: string, userId: string) {
  const { token } = await createSession(organizationId, userId)
  return `${sessionCookieName()}=${token}`
}

/** A form POST as a browser on `host` sends it. */
export function formRequest(
  host: string,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
) {
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded' })
  if (cookie) headers.set('Cookie', cookie)
  return new Request(`http://${host}${path}`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
  })
}

/**
 * Runs a loader or action and returns its Response, whether returned or thrown, once the jobs it
 * queued (emails, reset tokens, CRM forwarding) have run too.
 */
export async function settle(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = asResponse(await run())
    if (result instanceof Response) return result
    throw new Error(`expected a Response, got ${typeof result}`)
  } catch (error) {
    if (error instanceof Response) return error
    if (isDataWithInit(error)) return asResponse(error) as Response
    throw error
  } finally {
    await settleBackgroundWork()
  }
}

type DataWithInit = { type: 'DataWithResponseInit'; data: unknown; init: ResponseInit | null }

function isDataWithInit(value: unknown): value is DataWithInit {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'DataWithResponseInit'
  )
}

/**
 * A loader's or action's answer as the Response tests read: single fetch lets routes answer
 * naked objects and `data(value, init)`, which the server encodes itself; here they become the
 * JSON Response `json(value, init)` used to be, so status, headers and body read the same.
 */
export function asResponse<T>(result: T): T | Response {
  if (result instanceof Response) return result
  if (isDataWithInit(result)) return Response.json(result.data, result.init ?? undefined)
  if (typeof result === 'object' && result !== null) return Response.json(result)
  return result
}

/** A loader's or action's answer (naked, `data()` or a Response) as a Response. */
export function toResponse(result: unknown): Response {
  const response = asResponse(result)
  if (response instanceof Response) return response
  throw new Error(`expected a Response or data(), got ${typeof result}`)
}

/**
 * Runs every due job of the queue (emails, password resets, CRM forwarding) in this process, as
 * the server's worker would.
 */
export async function settleBackgroundWork() {
  await runJobsNow()
  // The saves, taps and exchanges a request counted (ADR 082) are written now, with the request
  // that made them, not by the batcher's timer in the middle of a later test's checksums. A
  // database a fault test stopped keeps them queued (the batcher retries, as in production).
  await flushCardEvents().catch(() => {})
}

export type SubmissionReply = {
  result: { status?: string; error?: Record<string, string[] | null> | null }
}

/** The field errors (and '' for form errors) of a conform reply. */
export async function replyErrors(response: Response) {
  const body = (await response.json()) as SubmissionReply
  return body.result.error ?? {}
}

export function requestFor(host: string, path = '/', init?: RequestInit) {
  return new Request(`http://${host}${path}`, init)
}

/**
 * Runs `work` with the app's database stopped (a closed PGlite, or a Postgres address nothing
 * listens on, matching the driver under test), then puts the working one back.
 */
export async function withStoppedDatabase<T>(work: () => Promise<T>): Promise<T> {
  const working = getDatabaseHandle()
  const stopped =
    working.driver === 'pglite'
      ? openPgliteSnapshot()
      : openPostgres('postgres://postgres@127.0.0.1:1/none', { max: 1 })
  if (stopped.driver === 'pglite') await stopped.close()
  setDatabaseHandle(stopped)
  try {
    return await work()
  } finally {
    setDatabaseHandle(working)
    if (stopped.driver === 'postgres') await stopped.close()
  }
}

/**
 * A database handle for a Postgres address nothing listens on, on either driver: what a request
 * meets while the server is down (connections refused). Without the app pool's reconnect
 * backoff, so each refusal costs milliseconds, not the up to a second the app waits between.
 */
export function openUnreachableDatabase(): DatabaseHandle {
  const client = postgres('postgres://postgres@127.0.0.1:1/none', {
    max: 1,
    backoff: () => 0,
    fetch_types: false,
    onnotice: () => {},
  })
  return {
    ...getDatabaseHandle(),
    db: drizzlePostgres(client, { schema }) as unknown as Database,
    driver: 'postgres',
    close: () => client.end({ timeout: 1 }),
  }
}

/** Runs `work` with the database unreachable, then puts the working one back. */
export async function withUnreachableDatabase<T>(work: () => Promise<T>): Promise<T> {
  const working = getDatabaseHandle()
  const unreachable = openUnreachableDatabase()
  setDatabaseHandle(unreachable)
  try {
    return await work()
  } finally {
    setDatabaseHandle(working)
    await unreachable.close()
  }
}

/** An awaitable query builder that fails however it is continued (`.values().onConflict…`). */
function failingQuery(error: Error): unknown {
  const chain: unknown = new Proxy(() => {}, {
    get: (_target, property) =>
      property === 'then'
        ? (_resolve: unknown, reject: (reason: unknown) => void) => reject(error)
        : () => chain,
  })
  return chain
}

/**
 * Runs `work` with the database dropping at the moment a job (every email, every reset request)
 * is queued: reads and other writes work, the insert into `jobs` fails as a lost connection does,
 * so the transaction that asked for it rolls back.
 */
export async function withQueueWritesFailing<T>(work: () => Promise<T>): Promise<T> {
  const working = getDatabaseHandle()
  const lost = () => Object.assign(new Error('connection lost'), { code: 'ECONNRESET' })
  const wrap = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, property) {
        if (property === 'insert') {
          return (table: unknown) =>
            table === jobs ? failingQuery(lost()) : target.insert(table as typeof jobs)
        }
        const value = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  const db = new Proxy(working.db, {
    get(target, property) {
      if (property === 'transaction') {
        return (run: (tx: Transaction) => Promise<unknown>, config?: never) =>
          target.transaction((tx) => run(wrap(tx as Transaction)), config)
      }
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  }) as Database
  setDatabaseHandle({ ...working, db })
  try {
    return await work()
  } finally {
    setDatabaseHandle(working)
  }
}
