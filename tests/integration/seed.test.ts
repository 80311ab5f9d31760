import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getDb } from '#drizzle/db.server'
import { digitalCards, organizations, users } from '#drizzle/schema'
import { DEMO_ORGANIZATIONS, seedDemo } from '#drizzle/seed.server'

// Its own file: the seed needs an empty database.
describe('demo seed', () => {
  test('creates the platform, the agencies with their people, and cards', async () => {
    await seedDemo(getDb())
    const orgs = await getDb().select().from(organizations)
    for (const demo of DEMO_ORGANIZATIONS) {
      const org = orgs.find((o) => o.slug === demo.slug)
      expect(org, demo.slug).toBeDefined()
      expect(org?.logoMediaId).not.toBeNull()
      expect(org?.faviconMediaId).not.toBeNull()
      const people = await getDb()
        .select()
        .from(users)
        .where(eq(users.organizationId, org?.id as string))
      expect(people.map((u) => u.email).sort()).toEqual(demo.users.map((u) => u.email).sort())
    }
    const acme = orgs.find((o) => o.slug === 'acme')
    expect(acme?.customDomain).toBe('cards.acme.test')
    expect(acme?.customDomainVerifiedAt).not.toBeNull()
    const cards = await getDb()
      .select()
      .from(digitalCards)
      .where(and(eq(digitalCards.organizationId, acme?.id as string)))
    expect(cards.length).toBeGreaterThan(0)
  })
})
