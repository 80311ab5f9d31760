// Every request gets an answer: database work that never settles (a driver that lost track of
// a killed connection) is answered 503 after the time bound, like an unreachable database.
import { sql } from 'drizzle-orm'
import { afterEach, expect, test } from 'vitest'
import { setDatabaseWorkTimeBoundForTests, withTenant } from '#drizzle/db.server'
import { makeOrganization } from '#tests/factories'

afterEach(() => setDatabaseWorkTimeBoundForTests(10_000))

test('work that never settles answers 503 once the bound has passed', async () => {
  const organization = await makeOrganization()
  setDatabaseWorkTimeBoundForTests(300)
  // Settled by the test only once it has its answer: until then the work never settles. Left
  // pending, its transaction held a connection open, and the file's end waited out the pool's
  // 5 s close timeout for it, its worker idle meanwhile.
  let settle = () => {}
  const started = Date.now()
  const outcome = await withTenant(organization.id, async (tx) => {
    await tx.execute(sql`select 1`)
    await new Promise<void>((resolve) => {
      settle = resolve
    })
  }).catch((error: unknown) => error)
  expect(outcome).toBeInstanceOf(Response)
  expect((outcome as Response).status).toBe(503)
  expect(Date.now() - started).toBeLessThan(5_000)
  settle()
})

test('work within the bound is untouched', async () => {
  const organization = await makeOrganization()
  setDatabaseWorkTimeBoundForTests(5_000)
  const value = await withTenant(organization.id, async (tx) => {
    await tx.execute(sql`select pg_sleep(0.2)`)
    return 'done'
  })
  expect(value).toBe('done')
})
