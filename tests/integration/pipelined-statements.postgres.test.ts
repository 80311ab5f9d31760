// Postgres only (a *.postgres.test.ts file): postgres.js pipelines a transaction's statements on
// its connection, and withTenant sends the work's first statement behind set_config (issue 44
// point 3); PGlite runs one statement at a time.
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { expect, test } from 'vitest'
import { getDatabaseHandle, transactionClient, withTenant } from '#drizzle/db.server'

const TENANT = '00000000-0000-0000-0000-000000000000'

// Each hung without patches/postgres+3.4.9.patch's fix: the first until its client gave up, the
// second until the unit's 10 s time bound answered 503, with its connection kept for good.
test('a statement that cannot be sent, behind one in flight, fails at once with its own error (porsager/postgres#1082)', async () => {
  const client = postgres(process.env.TEST_FILE_DATABASE_URL as string, {
    max: 1,
    onnotice: () => {},
  })
  try {
    await expect(
      client.begin((tx) => [tx`select 1`, tx`select ${undefined as unknown as string}`]),
    ).rejects.toMatchObject({ code: 'UNDEFINED_VALUE' })
    // The pool's one connection is free again.
    expect(await client`select 1 as one`).toEqual([{ one: 1 }])
  } finally {
    await client.end({ timeout: 1 })
  }
})

test("withTenant's first statement that cannot be sent fails at once, and keeps no connection", async () => {
  const { poolSize } = getDatabaseHandle()
  // More failures than the pool has connections: had any kept its connection, the last unit
  // below would wait for ever (until the time bound's 503).
  for (let attempt = 0; attempt <= poolSize; attempt++) {
    const failed = await withTenant(TENANT, (tx) => {
      // The postgres.js transaction under drizzle's, as withTenant itself reaches it.
      const client = transactionClient(tx)
      if (!client) throw new Error('no postgres.js transaction under this drizzle one')
      return client.unsafe('select $1::text', [undefined as unknown as string])
    }).then(
      () => 'resolved',
      (error: unknown) =>
        error instanceof Response ? `answered ${error.status}` : (error as { code?: string }).code,
    )
    expect(failed).toBe('UNDEFINED_VALUE')
  }
  const rows = (await withTenant(TENANT, (tx) => tx.execute(sql`select 1 as one`))) as unknown as {
    one: number
  }[]
  expect(rows[0]).toEqual({ one: 1 })
})
