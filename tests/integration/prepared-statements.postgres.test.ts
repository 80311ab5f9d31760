// Postgres only (a *.postgres.test.ts file): PGlite has no statement cache per connection.
// postgres.js keeps every statement a connection prepared for the connection's life, keyed by its
// text (ADR 111). A text that grows with its input would be kept once per length: the view batch
// of 1 to 500 rows held megabytes of statements per connection under card-page load.
import { randomUUID } from 'node:crypto'
import { inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { recordCardEvents } from '#app/models/card-events.server'
import { recordCardViews } from '#app/models/card-views.server'
import { type DatabaseHandle, MAX_PREPARED_PARAMETERS, openPostgres } from '#drizzle/db.server'
import { users } from '#drizzle/schema'

let handle: DatabaseHandle

beforeAll(() => {
  // One connection, so pg_prepared_statements (per session) shows everything the test prepared.
  handle = openPostgres(process.env.TEST_FILE_DATABASE_URL as string, { max: 1 })
})
afterAll(() => handle.close())

async function prepared(containing: string) {
  const rows = (await handle.db.execute(
    sql`select statement from pg_prepared_statements where statement like ${`%${containing}%`}`,
  )) as unknown as { statement: string }[]
  // The lookup itself is prepared too, and its text holds the pattern only as a parameter.
  return rows.length
}

const organizationId = randomUUID()
const view = (index: number) => ({
  cardId: randomUUID(),
  visitorHash: `visitor-${index}`,
  deviceClass: 'mobile' as const,
  viewedAt: new Date(Date.UTC(2026, 0, 1)),
})

test('a batch of views or events is one prepared statement whatever its size', async () => {
  for (const size of [1, 2, 3, 50, 500]) {
    await recordCardViews(
      handle.db,
      organizationId,
      Array.from({ length: size }, (_, index) => view(index)),
    )
    await recordCardEvents(
      handle.db,
      organizationId,
      Array.from({ length: size }, (_, index) => ({
        cardId: randomUUID(),
        hour: new Date(Date.UTC(2026, 0, 1)),
        source: 'direct' as const,
        kind: 'vcard' as const,
        linkId: `${index}`,
        count: 1,
      })),
    )
  }
  expect(await prepared('insert into "card_views"')).toBe(1)
  expect(await prepared('insert into "card_event_hours"')).toBe(1)
})

test('a statement with more parameters than the bound goes unnamed, one within it is prepared', async () => {
  const ids = (count: number) => Array.from({ length: count }, () => randomUUID())
  await handle.db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, ids(3)))
  await handle.db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, ids(MAX_PREPARED_PARAMETERS + 1)))
  const statements = (await handle.db.execute(
    sql`select statement from pg_prepared_statements where statement like ${'%from "users" where "users"."id" in%'}`,
  )) as unknown as { statement: string }[]
  expect(statements.map(({ statement }) => statement.split('$').length - 1)).toEqual([3])
})
