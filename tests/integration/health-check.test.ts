import { expect, test } from 'vitest'
import { loader } from '#app/routes/api.health-check'
import { getDatabaseHandle, openPglite, openPostgres, setDatabaseHandle } from '#drizzle/db.server'

const call = async () => (await loader()) as Response

test('answers ok when the database answers', async () => {
  const response = await call()
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'ok' })
})

test('answers 503 with an error when the database is down', async () => {
  const working = getDatabaseHandle()
  // A stopped database: a closed PGlite, or a Postgres address nothing listens on.
  const stopped =
    working.driver === 'pglite'
      ? openPglite()
      : openPostgres('postgres://postgres@127.0.0.1:1/none', { max: 1 })
  if (stopped.driver === 'pglite') await stopped.close()
  setDatabaseHandle(stopped)
  try {
    const started = Date.now()
    const response = await call()
    expect(response.status).toBe(503)
    const body = (await response.json()) as { error: string }
    expect(body.error).toMatch(/Database unavailable/)
    expect(Date.now() - started).toBeLessThan(5000)
  } finally {
    setDatabaseHandle(working)
    if (stopped.driver === 'postgres') await stopped.close()
  }
})
