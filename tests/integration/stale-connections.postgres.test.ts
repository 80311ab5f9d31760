// Postgres only (a *.postgres.test.ts file): PGlite runs in-process and has no pool to go stale.
import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getDb, openPostgres, withTenant } from '#drizzle/db.server'

test('a pooled connection that died while idle is replaced, not turned into a 503', async () => {
  const tenant = '00000000-0000-0000-0000-000000000000'
  const ping = () => withTenant(tenant, (tx) => tx.execute(sql`select pg_sleep(0.05)`))
  // Fill the pool, then end every one of its backends behind its back, as a restart would.
  await Promise.all(Array.from({ length: 5 }, ping))
  const rows = (await getDb().execute(sql`select current_database() as name`)) as unknown as {
    name: string
  }[]
  const name = rows[0]?.name
  const server = openPostgres(process.env.TEST_DATABASE_URL as string, { max: 1 })
  try {
    await server.db.execute(sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = ${name} and pid <> pg_backend_pid()`)
    const answers = await Promise.all(Array.from({ length: 5 }, ping))
    expect(answers).toHaveLength(5)
  } finally {
    await server.close()
  }
})
