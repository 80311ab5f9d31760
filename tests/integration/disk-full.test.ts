// Issue 39 point 4: a write the disk cannot take. Under PGlite on a 100% full disk the card page
// answered 500 (`53100 could not extend file`) to visitors with a query string or a cookie (the
// pages the server does not cache, whose loader writes the view). The failure is the database's
// own: a trigger raises SQLSTATE 53100 with the message PGlite gave, on either driver. The view
// must not cost the page (it is written later, by the batch writer), and every other write the
// disk refuses answers the 503 "Saving is paused", as the disk-space gate does (ADR 033).
import { sql } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  discardCardViewsForTests,
  flushCardViews,
  pendingCardViews,
} from '#app/cards/view-batcher.server'
import { action as loginAction } from '#app/routes/auth.login'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { getDb, withDatabase, withTenant } from '#drizzle/db.server'
import { databaseErrorSummary } from '#drizzle/redact.server'
import { cardViews } from '#drizzle/schema'
import { isDiskFull, SAVING_PAUSED_MESSAGE } from '#drizzle/unavailable.server'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  settle,
} from '#tests/factories'

beforeAll(async () => {
  await getDb().execute(
    sql.raw(`create function test_disk_full() returns trigger
    language plpgsql as $$ begin
      raise exception 'could not extend file "base/5/16523": No space left on device'
        using errcode = '53100', hint = 'Check free disk space.';
    end $$`),
  )
})

const full = new Set<string>()
/** The disk refuses every row `table` would get, as a full disk refuses a new page. */
async function fillDiskFor(table: string) {
  full.add(table)
  await getDb().execute(
    sql.raw(`create trigger test_disk_full before insert or update on ${table}
      for each row execute function test_disk_full()`),
  )
}

async function freeDisk() {
  for (const table of full) {
    await getDb().execute(sql.raw(`drop trigger if exists test_disk_full on ${table}`))
  }
  full.clear()
}

afterEach(async () => {
  await freeDisk()
  discardCardViewsForTests()
})

const viewsOf = (organizationId: string) =>
  withTenant(organizationId, async (tx) => (await tx.select().from(cardViews)).length)

describe('the card page on a full disk', () => {
  test('visitors with a query string or a cookie get the page; their views are written once the disk takes writes', async () => {
    const organization = await makeOrganization()
    const user = await makeUser(organization.id)
    const card = await makeCard(organization.id, user.id)
    const host = `${organization.slug}.localhost`
    await fillDiskFor('card_views')
    const visits: { path: string; headers: Record<string, string>; ip: string }[] = [
      { path: `/card/${card.id}?utm_source=newsletter`, headers: {}, ip: '198.51.100.1' },
      { path: `/card/${card.id}`, headers: { Cookie: 'theme=dark' }, ip: '198.51.100.2' },
    ]
    for (const visit of visits) {
      const page = await settle(() =>
        cardLoader({
          request: requestFor(host, visit.path, { headers: visit.headers }),
          context: contextFor(host, visit.ip),
          params: { ref: card.id },
        }),
      )
      expect(page.status, visit.path).toBe(200)
      expect(await page.json()).toMatchObject({ found: true, card: { id: card.id } })
    }
    // Nothing was written, and nothing lost: both views wait in the batch writer.
    expect(await viewsOf(organization.id)).toBe(0)
    expect(pendingCardViews()).toBe(2)
    await expect(flushCardViews()).rejects.toBeInstanceOf(Response)
    expect(pendingCardViews()).toBe(2)

    await freeDisk()
    await flushCardViews()
    expect(pendingCardViews()).toBe(0)
    expect(await viewsOf(organization.id)).toBe(2)
  })
})

describe('a write the disk cannot take', () => {
  test('answers 503 "Saving is paused", for a route and for any unit of database work', async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const user = await makeUser(organization.id, { password: 'right-pass' })
    await fillDiskFor('rate_limits')
    // A failed sign-in counts the attempt: the write the disk refuses.
    const signIn = await settle(() =>
      loginAction({
        request: formRequest(host, '/auth/login', { email: user.email, password: 'wrong-pass' }),
        context: contextFor(host, '203.0.113.9'),
        params: {},
      }),
    )
    expect(signIn.status).toBe(503)
    expect(signIn.headers.get('Retry-After')).toBe('60')
    expect(await signIn.json()).toEqual({ diskFull: true, error: SAVING_PAUSED_MESSAGE })
    expect(SAVING_PAUSED_MESSAGE).toMatch(/^Saving is paused: .*Nothing was changed/)

    await fillDiskFor('card_views')
    const card = await makeCard(organization.id, user.id)
    const refused = await withTenant(organization.id, (tx) =>
      tx.insert(cardViews).values({
        organizationId: organization.id,
        cardId: card.id,
        visitorHash: 'a-visitor',
      }),
    ).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Response)
    expect((refused as Response).status).toBe(503)
    expect(databaseErrorSummary(refused)).toBe('503 Saving is paused')
    const platform = await withDatabase((tx) =>
      tx.execute(sql`insert into rate_limits (key, reset_at) values ('k', now())`),
    ).catch((error: unknown) => error)
    expect((platform as Response).status).toBe(503)
    expect(await (platform as Response).json()).toMatchObject({ diskFull: true })
  })

  test('one test of a full disk: SQLSTATE 53100, ENOSPC, EDQUOT, or the database saying so, however wrapped', () => {
    const wrapped = (cause: unknown) =>
      Object.assign(new Error('Failed query: insert …'), { cause })
    expect(isDiskFull(Object.assign(new Error('x'), { code: '53100' }))).toBe(true)
    expect(isDiskFull(wrapped(Object.assign(new Error('write'), { code: 'ENOSPC' })))).toBe(true)
    expect(isDiskFull(wrapped(Object.assign(new Error('write'), { code: 'EDQUOT' })))).toBe(true)
    expect(isDiskFull(new Error('could not extend file "base/5/1": wrote only 4096 of 8192'))).toBe(
      true,
    )
    expect(isDiskFull(new AggregateError([new Error('No space left on device')]))).toBe(true)
    expect(isDiskFull(Object.assign(new Error('too many connections'), { code: '53300' }))).toBe(
      false,
    )
    expect(isDiskFull(new Error('duplicate key value'))).toBe(false)
  })

  test('words a visitor typed never pause saving: another code, or a wrapper quoting the parameters', () => {
    const typed = 'no space left on device'
    // Postgres echoes a bad value in its message (22P02, 23505 …): the code decides.
    expect(
      isDiskFull(
        Object.assign(new Error(`invalid input syntax for type uuid: "${typed}"`), {
          code: '22P02',
        }),
      ),
    ).toBe(false)
    const wrapper = (cause: unknown) =>
      Object.assign(new Error(`Failed query: insert into leads … params: ${typed}`), { cause })
    expect(isDiskFull(wrapper(Object.assign(new Error('value too long'), { code: '22001' })))).toBe(
      false,
    )
    expect(isDiskFull(wrapper(new Error('the connection was closed')))).toBe(false)
    // The driver's own words, with no code anywhere, still count (PGlite's file system).
    expect(isDiskFull(wrapper(new Error('could not extend file "base/5/1"')))).toBe(true)
  })
})
