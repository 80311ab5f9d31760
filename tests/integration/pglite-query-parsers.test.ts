// The types drizzle reads as text (dates, timestamps, intervals and their arrays) read the same
// on both drivers, through the query builder and raw SQL; and on PGlite no query carries parsers
// of its own, which PGlite would merge into a copy of all of its parsers on every query
// (drizzleView in drizzle/db.server.ts, ADR 115).
import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { PglitePreparedQuery } from 'drizzle-orm/pglite/session'
import { afterEach, expect, test, vi } from 'vitest'
import { rowsOf } from '#app/models/raw-rows.server'
import { getDatabaseHandle, getDb } from '#drizzle/db.server'
import { makeOrganization } from '#tests/factories'

const onPostgres = process.env.TEST_DB_DRIVER === 'postgres'

afterEach(() => {
  vi.restoreAllMocks()
})

test('dates, timestamps, intervals and their arrays read as the same text on both drivers', async () => {
  const [row] = rowsOf<Record<string, unknown>>(
    await getDb().execute(sql`
      select '2026-12-05 10:11:12.345+00'::timestamptz at time zone 'UTC' as "timestamp",
        '2026-12-05'::date as "date", '1 day 02:03:04'::interval as "interval",
        array['2026-12-05'::date, '2026-12-06'::date] as "dates",
        array['2026-12-05 10:11:12'::timestamp] as "timestamps",
        array[1.5::numeric] as "numerics"`),
  )
  expect(row).toEqual({
    timestamp: '2026-12-05 10:11:12.345',
    date: '2026-12-05',
    interval: '1 day 02:03:04',
    dates: '{2026-12-05,2026-12-06}',
    timestamps: '{"2026-12-05 10:11:12"}',
    numerics: '{1.5}',
  })
})

test('a column of the schema reads as its type through the query builder', async () => {
  const organization = await makeOrganization()
  const [read] = await getDb().query.organizations.findMany({
    where: (table, { eq }) => eq(table.id, organization.id),
    columns: { createdAt: true },
  })
  expect(read?.createdAt).toBeInstanceOf(Date)
  expect(read?.createdAt.getTime()).toBe(organization.createdAt.getTime())
})

test.runIf(!onPostgres)(
  'on PGlite, no query drizzle sends carries parsers of its own',
  async () => {
    const client = (getDatabaseHandle() as unknown as { client: PGlite }).client
    const sent: unknown[] = []
    const query = client.query.bind(client)
    vi.spyOn(client, 'query').mockImplementation((text, params, options) => {
      sent.push(options)
      return query(text, params, options)
    })
    const transaction = client.transaction.bind(client)
    vi.spyOn(client, 'transaction').mockImplementation((run) =>
      transaction((tx) => {
        const inTransaction = tx.query.bind(tx)
        tx.query = (text, params, options) => {
          sent.push(options)
          return inTransaction(text, params, options)
        }
        return run(tx)
      }),
    )
    const organization = await makeOrganization()
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`select now()`)
      await tx.query.organizations.findFirst({
        where: (table, { eq }) => eq(table.id, organization.id),
      })
    })
    await getDb().execute(sql`select now()`)
    expect(sent.length).toBeGreaterThanOrEqual(4)
    for (const options of sent) expect((options as { parsers?: unknown })?.parsers).toBeUndefined()
  },
)

test('drizzle’s own parsers hand the text back unchanged, so one copy serves every query', () => {
  const prepared = new PglitePreparedQuery(
    {} as never,
    'select 1',
    [],
    undefined as never,
    undefined as never,
    undefined,
    undefined,
    undefined,
    undefined,
    false,
  ) as unknown as Record<'queryConfig' | 'rawQueryConfig', { parsers: Record<string, unknown> }>
  for (const config of [prepared.queryConfig, prepared.rawQueryConfig]) {
    const parsers = Object.values(config.parsers) as ((text: string, type: number) => unknown)[]
    expect(parsers.length).toBeGreaterThan(0)
    for (const parse of parsers) expect(parse('{2026-12-05}', 0)).toBe('{2026-12-05}')
  }
})
