// card_view_hours (migration 0009) follows card_views through statement-level triggers, and the
// end user's figures read whole hours from it and raw views only in the hours a window's edge
// cuts. Here views land on both sides of every edge, inside the edge hours, in one multi-row
// insert as the app's tenant login (row-level security on both tables); the figures must equal
// a plain count of the views, also after deleting some, updating one and deleting a card.
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { comparisonWindows, endUserFigures } from '#app/models/stats.server'
import { type Queryable, withTenant } from '#drizzle/db.server'
import { cardViewHours, cardViews, digitalCards } from '#drizzle/schema'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'

const MINUTE = 60_000
const DAY = 86_400_000

/** Views of the user's cards in (from, to], counted one by one: what the figures must equal. */
async function countViews(tx: Queryable, cardIds: string[], from: Date, to: Date) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(cardViews)
    .where(
      and(
        inArray(cardViews.cardId, cardIds),
        gt(cardViews.viewedAt, from),
        lte(cardViews.viewedAt, to),
      ),
    )
  return row?.n ?? 0
}

async function expectFiguresToMatch(
  organizationId: string,
  userId: string,
  cardIds: string[],
  now: Date,
) {
  const { weekAgo, twoWeeksAgo } = comparisonWindows(now)
  await withTenant(organizationId, async (tx) => {
    const figures = await endUserFigures(tx, organizationId, userId, now)
    expect(figures.views).toEqual({
      current: await countViews(tx, cardIds, weekAgo, now),
      previous: await countViews(tx, cardIds, twoWeeksAgo, weekAgo),
    })
  })
}

test('the hourly counts follow inserts, updates and deletes, and the figures equal a plain count', async () => {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id)
  const first = await makeCard(organization.id, user.id)
  const second = await makeCard(organization.id, user.id, { title: 'Second' })
  // A "now" 25 minutes into an hour: every edge hour holds views on both sides of the edge.
  const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 35 * MINUTE)
  const { weekAgo, twoWeeksAgo } = comparisonWindows(now)
  const times = [
    ...[-20, -1, 0, 1, 20].map((m) => new Date(twoWeeksAgo.getTime() + m * MINUTE)),
    ...[-20, -1, 0, 1, 20].map((m) => new Date(weekAgo.getTime() + m * MINUTE)),
    ...[-90, -20, -1, 0, 1, 20].map((m) => new Date(now.getTime() + m * MINUTE)),
    new Date(now.getTime() - 3 * DAY),
    new Date(now.getTime() - 10 * DAY),
    new Date(now.getTime() - 20 * DAY),
  ]
  const rows = times.flatMap((viewedAt, i) =>
    [first, second].map((card, j) => ({
      organizationId: organization.id,
      cardId: card.id,
      visitorHash: `visitor-${i}-${j}`,
      viewedAt,
    })),
  )
  // One multi-row insert as the tenant's login: one trigger run for all of them.
  await withTenant(organization.id, (tx) => tx.insert(cardViews).values(rows))
  const cardIds = [first.id, second.id]
  await expectFiguresToMatch(organization.id, user.id, cardIds, now)

  await withTenant(organization.id, async (tx) => {
    const hours = await tx
      .select({ views: sql<number>`sum(${cardViewHours.views})::int` })
      .from(cardViewHours)
      .where(eq(cardViewHours.organizationId, organization.id))
    expect(hours[0]?.views).toBe(rows.length)
    // Views at the edges removed, one moved by a day: the counts follow.
    await tx
      .delete(cardViews)
      .where(
        and(
          eq(cardViews.organizationId, organization.id),
          inArray(cardViews.viewedAt, [weekAgo, new Date(now.getTime() + MINUTE)]),
        ),
      )
    await tx
      .update(cardViews)
      .set({ viewedAt: sql`${cardViews.viewedAt} - interval '1 day'` })
      .where(eq(cardViews.visitorHash, 'visitor-12-0'))
  })
  await expectFiguresToMatch(organization.id, user.id, cardIds, now)

  // Deleting a card takes its views and its hourly counts with it.
  await withTenant(organization.id, (tx) =>
    tx.delete(digitalCards).where(eq(digitalCards.id, second.id)),
  )
  await expectFiguresToMatch(organization.id, user.id, [first.id], now)
  await withTenant(organization.id, async (tx) => {
    const left = await tx
      .select({ cardId: cardViewHours.cardId })
      .from(cardViewHours)
      .where(eq(cardViewHours.cardId, second.id))
    expect(left).toEqual([])
  })
})

test("another tenant's login sees none of the hourly counts", async () => {
  const organization = await makeOrganization()
  const other = await makeOrganization()
  const user = await makeUser(organization.id)
  const card = await makeCard(organization.id, user.id)
  await withTenant(organization.id, (tx) =>
    tx
      .insert(cardViews)
      .values({ organizationId: organization.id, cardId: card.id, visitorHash: 'v' }),
  )
  const seen = await withTenant(other.id, (tx) => tx.select().from(cardViewHours))
  expect(seen).toEqual([])
  const own = await withTenant(organization.id, (tx) => tx.select().from(cardViewHours))
  expect(own.map((row) => row.views)).toEqual([1])
})
