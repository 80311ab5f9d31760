// Row-level security under the model functions: even a query without a tenant filter sees
// only the current tenant's rows, and with no tenant set it sees none.
import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb, withPlatformScope, withTenant } from '#drizzle/db.server'
import { digitalCards } from '#drizzle/schema'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'

async function twoTenants() {
  const a = await makeOrganization()
  const b = await makeOrganization()
  const userA = await makeUser(a.id)
  const userB = await makeUser(b.id)
  const cardA = await makeCard(a.id, userA.id)
  const cardB = await makeCard(b.id, userB.id)
  return { a, b, userA, userB, cardA, cardB }
}

describe('row-level security', () => {
  test('an unfiltered query inside a tenant sees only that tenant', async () => {
    const { a, cardA, cardB } = await twoTenants()
    const ids = await withTenant(a.id, async (tx) =>
      (await tx.select({ id: digitalCards.id }).from(digitalCards)).map((r) => r.id),
    )
    expect(ids).toContain(cardA.id)
    expect(ids).not.toContain(cardB.id)
  })

  test('with no tenant set, tenant tables return no rows', async () => {
    await twoTenants()
    const rows = await getDb().transaction(async (tx) => {
      await tx.execute(sql`set local role brandcard_app`)
      return tx.select().from(digitalCards)
    })
    expect(rows).toEqual([])
  })

  test("writing another tenant's rows is refused, updating them changes nothing", async () => {
    const { a, userB, cardB } = await twoTenants()
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(digitalCards).values({
          organizationId: userB.organizationId,
          userId: userB.id,
          title: 'x',
          firstName: 'x',
          lastName: 'y',
        }),
      ),
    ).rejects.toThrow()
    const updated = await withTenant(a.id, (tx) =>
      tx
        .update(digitalCards)
        .set({ title: 'stolen' })
        .where(sql`${digitalCards.id} = ${cardB.id}`)
        .returning(),
    )
    expect(updated).toEqual([])
  })

  test('the platform scope reads across tenants', async () => {
    const { cardA, cardB } = await twoTenants()
    const ids = await withPlatformScope(async (tx) =>
      (await tx.select({ id: digitalCards.id }).from(digitalCards)).map((r) => r.id),
    )
    expect(ids).toEqual(expect.arrayContaining([cardA.id, cardB.id]))
  })
})
