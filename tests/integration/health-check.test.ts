import { expect, test, vi } from 'vitest'
import { CACHE_TAG_HEADER } from '#app/cache/page-cache.server'
import { loader as rootLoader } from '#app/root'
import { loader as liveness } from '#app/routes/api.health.live'
import { loader as readiness } from '#app/routes/api.health.ready'
import { loader } from '#app/routes/api.health-check'
import { getDatabaseHandle, openPostgres, setDatabaseHandle } from '#drizzle/db.server'
import { isDatabaseUnavailable } from '#drizzle/unavailable.server'
import { contextFor, requestFor, withStoppedDatabase } from '#tests/factories'

const call = async () =>
  (await loader({
    request: requestFor('localhost', '/api/health-check'),
    context: contextFor('localhost'),
    params: {},
  })) as Response

test('answers ok when the database answers', async () => {
  const response = await call()
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'ok' })
})

test('answers 503 with an error when the database is down', async () => {
  await withStoppedDatabase(async () => {
    const started = Date.now()
    const response = await call()
    expect(response.status).toBe(503)
    const body = (await response.json()) as { error: string }
    expect(body.error).toMatch(/Database unavailable/)
    expect(Date.now() - started).toBeLessThan(5000)
  })
})

test("the 503 names a fixed reason, never the driver's error; the detail goes to the log", async () => {
  const working = getDatabaseHandle()
  // A refused connection's message names the address and port it tried.
  const unreachable = openPostgres('postgres://secret_role@127.0.0.1:1/private_db', { max: 1 })
  setDatabaseHandle(unreachable)
  const logged: unknown[][] = []
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    logged.push(args)
  })
  try {
    const response = await call()
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ error: 'Database unavailable' })
    expect(logged.flat().join(' ')).toMatch(/127\.0\.0\.1|ECONNREFUSED|:1\b/)
  } finally {
    warn.mockRestore()
    setDatabaseHandle(working)
    await unreachable.close()
  }
})

test('pages answer 503 with the database warning when Postgres cannot be reached, not a 500', async () => {
  const working = getDatabaseHandle()
  const unreachable = openPostgres('postgres://postgres@127.0.0.1:1/none', { max: 1 })
  setDatabaseHandle(unreachable)
  try {
    // A host the tenant cache has not seen, so resolving it needs the database.
    const host = `down-${Date.now()}.localhost`
    // Not settle(): it runs the job queue afterwards, on the database that is down.
    const response = await Promise.resolve(
      rootLoader({ request: requestFor(host, '/'), context: contextFor(host), params: {} }),
    ).catch((thrown: unknown) => thrown)
    if (!(response instanceof Response)) throw response
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ databaseError: true })
  } finally {
    setDatabaseHandle(working)
    await unreachable.close()
  }
})

test('connection errors are told apart from other errors, through drizzle’s wrapping', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
  const terminated = Object.assign(new Error('terminating connection'), { code: '57P01' })
  expect(isDatabaseUnavailable(new Error('Failed query', { cause: refused }))).toBe(true)
  expect(isDatabaseUnavailable(terminated)).toBe(true)
  expect(isDatabaseUnavailable(new AggregateError([refused]))).toBe(true)
  expect(isDatabaseUnavailable(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false)
  expect(isDatabaseUnavailable(new Error('boom'))).toBe(false)
})

// Liveness and readiness (ADR 097). Readiness's 503 from the start of a shutdown is server.ts's
// (e2e/observability.spec.ts).
test('readiness is the health check under its new name: the same loader', () => {
  expect(loader).toBe(readiness)
})

test('liveness answers 200 with the database down, and is never kept by any cache', async () => {
  await withStoppedDatabase(async () => {
    const response = liveness()
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(response.headers.get(CACHE_TAG_HEADER)).toBeNull()
    expect(await response.json()).toEqual({ status: 'alive' })
    expect((await call()).status).toBe(503)
  })
})
