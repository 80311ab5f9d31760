import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { createOrganization } from '#app/models/organizations.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { digitalCards } from '#drizzle/schema'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'

describe('withTenant', () => {
  test('carries the organization id for the transaction only', async () => {
    const organization = await makeOrganization()
    const inside = await withTenant(organization.id, async (tx) => {
      const rows = await tx.execute(sql`select current_setting('app.organization_id', true) as id`)
      return (
        (rows as unknown as { rows?: { id: string }[] }).rows?.[0]?.id ??
        (rows as unknown as { id: string }[])[0]?.id
      )
    })
    expect(inside).toBe(organization.id)
  })
})

describe('schema rules', () => {
  test('one account per email per organization, case-insensitively; other organizations may reuse it', async () => {
    const a = await makeOrganization()
    const b = await makeOrganization()
    await makeUser(a.id, { email: 'Same@Example.test' })
    await expect(makeUser(a.id, { email: 'same@example.TEST' })).rejects.toThrow()
    const other = await makeUser(b.id, { email: 'same@example.test' })
    expect(other.email).toBe('same@example.test')
  })

  test('a card cannot belong to a user of another organization', async () => {
    const a = await makeOrganization()
    const b = await makeOrganization()
    const userOfB = await makeUser(b.id)
    await expect(
      getDb().insert(digitalCards).values({
        organizationId: a.id,
        userId: userOfB.id,
        title: 'x',
        firstName: 'x',
        lastName: 'y',
      }),
    ).rejects.toThrow()
  })

  test('the first card is the default and at most one card per user is default', async () => {
    const organization = await makeOrganization()
    const user = await makeUser(organization.id)
    const first = await makeCard(organization.id, user.id, { firstName: 'Ann' })
    const second = await makeCard(organization.id, user.id, { firstName: 'Ann' })
    expect(first.isDefault).toBe(true)
    expect(first.title).toBe("Ann's Card")
    expect(second.isDefault).toBe(false)
    await expect(
      getDb().update(digitalCards).set({ isDefault: true }).where(eq(digitalCards.id, second.id)),
    ).rejects.toThrow()
  })

  test('only one platform organization can exist', async () => {
    await makeOrganization({ kind: 'platform', slug: 'the-platform' })
    await expect(
      createOrganization(getDb(), { kind: 'platform', slug: 'another-platform', name: 'x' }),
    ).rejects.toThrow()
  })
})
