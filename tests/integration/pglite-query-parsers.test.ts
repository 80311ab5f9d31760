// The types drizzle reads as text (dates, timestamps, intervals and their arrays) read the same
// on both drivers, through the query builder and raw SQL. On PGlite (drizzle/pglite-view.server.ts,
// ADR 115) no query carries parsers of its own, which PGlite would merge into a copy of all of its
// parsers, and a statement is prepared once and then bound and run in one exchange.
import { randomUUID } from 'node:crypto'
import type { PGlite } from '@electric-sql/pglite'
import { inArray, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { PglitePreparedQuery } from 'drizzle-orm/pglite/session'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { rowsOf } from '#app/models/raw-rows.server'
import { getDatabaseHandle, getDb, type Queryable } from '#drizzle/db.server'
import { drizzleView } from '#drizzle/pglite-view.server'
import { organizations } from '#drizzle/schema'
import { makeOrganization } from '#tests/factories'
import { emptyPglite } from '#tests/setup/pglite-snapshot'

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

/** The protocol messages in one exchange with PGlite, by their type letter (P parse, B bind…). */
function messageTypes(bytes: Uint8Array) {
  const types: string[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let offset = 0; offset < bytes.length; offset += 1 + view.getInt32(offset + 1)) {
    types.push(String.fromCharCode(bytes[offset] as number))
  }
  return types.join('')
}

function watchPglite() {
  const client = (getDatabaseHandle() as unknown as { client: PGlite }).client
  const exchanges: string[] = []
  const execProtocol = client.execProtocol.bind(client)
  vi.spyOn(client, 'execProtocol').mockImplementation((bytes, options) => {
    exchanges.push(messageTypes(bytes))
    return execProtocol(bytes, options)
  })
  const withParsers: unknown[] = []
  const query = client.query.bind(client)
  vi.spyOn(client, 'query').mockImplementation((text, params, options) => {
    if (options?.parsers) withParsers.push(text)
    return query(text, params, options)
  })
  return { exchanges, withParsers }
}

describe.runIf(!onPostgres)('drizzle on PGlite', () => {
  test('a statement run again is bound and run in one exchange, never parsed again, in a transaction or not', async () => {
    const organization = await makeOrganization()
    const find = (db: Queryable) =>
      db.query.organizations.findFirst({ where: (table, { eq }) => eq(table.id, organization.id) })
    await find(getDb())
    const { exchanges, withParsers } = watchPglite()
    expect((await find(getDb()))?.id).toBe(organization.id)
    await getDb().transaction(async (tx) => {
      expect((await find(tx))?.id).toBe(organization.id)
    })
    // BEGIN and COMMIT go as PGlite's own simple queries; each run of the statement is one exchange.
    expect(exchanges.filter((types) => types.includes('P'))).toEqual([])
    expect(exchanges.filter((types) => types === 'BES')).toHaveLength(2)
    expect(withParsers).toEqual([])
  })

  test('a statement of more than 64 parameters runs unnamed, and an error leaves the statement usable', async () => {
    const organization = await makeOrganization()
    const ids = [organization.id, ...Array.from({ length: 70 }, () => randomUUID())]
    const { exchanges } = watchPglite()
    const found = await getDb().select().from(organizations).where(inArray(organizations.id, ids))
    expect(found.map((row) => row.id)).toEqual([organization.id])
    expect(exchanges.filter((types) => types.startsWith('B'))).toEqual([])
    const insert = () =>
      getDb().insert(organizations).values({ slug: organization.slug, name: 'Copy' })
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await insert().catch((caught: unknown) => caught)
      expect((error as { cause?: { code?: string } }).cause?.code).toBe('23505')
    }
    const [other] = await getDb()
      .insert(organizations)
      .values({ slug: `${organization.slug}-other`, name: 'Other' })
      .returning()
    expect(other?.name).toBe('Other')
  })

  test('a closed client refuses a statement as PGlite itself does', async () => {
    const client = emptyPglite()
    const db = drizzle({ client: drizzleView(client) as unknown as PGlite })
    expect(rowsOf(await db.execute(sql`select ${1}::int as one`))).toEqual([{ one: 1 }])
    await client.close()
    const error = await db.execute(sql`select ${1}::int as one`).catch((caught: unknown) => caught)
    expect((error as { cause?: Error }).cause?.message).toBe('PGlite is closed')
  })

  test('a table changed under a prepared statement fails it once, then it is prepared again', async () => {
    await getDb().execute(sql`create table changing (id int)`)
    await getDb().execute(sql`insert into changing values (1)`)
    const read = () => getDb().execute(sql`select * from changing where id = ${1}`)
    expect(rowsOf(await read())).toEqual([{ id: 1 }])
    await getDb().execute(sql`alter table changing add column note text`)
    const error = await read().catch((caught: unknown) => caught)
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('0A000')
    expect(rowsOf(await read())).toEqual([{ id: 1, note: null }])
  })
})

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
