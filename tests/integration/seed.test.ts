import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { DEMO_ORGANIZATIONS, seedDemo } from '#app/demo/seed.server'
import { listCardsForOwner } from '#app/models/cards.server'
import {
  countCardViewsBySource,
  countUserViewsBySourcePerDay,
  endUserFigures,
} from '#app/models/stats.server'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import { loader as mediaLoader } from '#app/routes/media.$file'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  cardViewHours,
  cardViews,
  contacts,
  digitalCards,
  organizations,
  users,
} from '#drizzle/schema'
import { contextFor, requestFor } from '#tests/factories'
import { readWithVcf } from '#tests/vcard-readers'

// Its own file: the seed needs an empty database. The demo is dated back from the moment of
// seeding, so the test fixes that moment instead of taking the time of day it runs at: ten
// past midnight UTC, the hour at which today is shorter than the quiet spell before the seed
// (SEED_CLOCK moves it to check another hour by hand).
const now = new Date(process.env.SEED_CLOCK ?? '2026-11-26T00:10:00Z')
beforeAll(async () => {
  await seedDemo(getDb(), now)
})

const demoCardOwners = DEMO_ORGANIZATIONS.flatMap((org) =>
  org.users.filter((u) => u.card).map((u) => ({ org: org.slug, email: u.email })),
)

async function ownerOf(slug: string, email: string) {
  const [row] = await getDb()
    .select({ org: organizations, user: users })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(organizations.slug, slug), eq(users.email, email)))
  if (!row) throw new Error(`no demo user ${email}`)
  const host = row.org.kind === 'platform' ? 'localhost' : `${row.org.slug}.localhost`
  return { organizationId: row.org.id, userId: row.user.id, host }
}

describe('demo seed', () => {
  test('creates the platform, the agencies with their people, and cards', async () => {
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
    // A name under .localhost: the demo's custom domain opens here without a hosts file.
    expect(acme?.customDomain).toBe('cards.acme.localhost')
    expect(acme?.customDomainVerifiedAt).not.toBeNull()
    const resolution = await resolveTenant('cards.acme.localhost')
    expect(resolution.status === 'found' && resolution.tenant.slug).toBe('acme')
    const cards = await getDb()
      .select()
      .from(digitalCards)
      .where(and(eq(digitalCards.organizationId, acme?.id as string)))
    expect(cards.length).toBeGreaterThan(0)
  })

  test.each(demoCardOwners)(
    '$email has cards with a photo, a bio, links and a short link',
    async ({ org, email }) => {
      const owner = await ownerOf(org, email)
      const cards = await withTenant(owner.organizationId, (tx) =>
        listCardsForOwner(tx, owner.organizationId, owner.userId),
      )
      expect(cards).toHaveLength(2)
      for (const { card, profilePictureUrl, links, shortSlug } of cards) {
        expect(card.bio.length, card.title).toBeGreaterThan(20)
        expect(card.pronouns).not.toBe('')
        expect(card.addressCity).not.toBe('')
        expect(links.length).toBeGreaterThanOrEqual(2)
        expect(shortSlug).toMatch(/^[a-z]+-[a-z]+(-\d+)?$/)
        expect(profilePictureUrl).toMatch(/^\/media\/[0-9a-f]{64}\.jpg$/)
        const path = profilePictureUrl as string
        const response = await mediaLoader({
          request: requestFor(owner.host, path),
          context: contextFor(owner.host),
          params: { file: path.slice('/media/'.length) },
        })
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('image/jpeg')
      }
      // The profile matches the card: its photo, and no onboarding offered.
      const [profile] = await getDb().select().from(users).where(eq(users.id, owner.userId))
      expect(profile?.profilePictureMediaId).toBe(cards[0]?.card.profilePictureMediaId)
      expect(profile?.onboardingCompletedAt).not.toBeNull()
      const main = cards.find((c) => c.card.isDefault)
      expect(main?.links.length).toBeGreaterThanOrEqual(3)
      expect(main?.shortSlug).toBe(email.startsWith('alice') ? 'alice-anderson' : main?.shortSlug)
      const response = await vcardLoader({
        request: requestFor(owner.host, `/card/${main?.card.id}/vcard`),
        context: contextFor(owner.host),
        params: { ref: main?.card.id as string },
      })
      const vcard = readWithVcf(await response.text())
      expect(vcard.photo).toBeTruthy()
      expect(vcard.note).toBe(main?.card.bio)
    },
  )

  test.each(demoCardOwners)(
    '$email has two weeks of views by source, and contacts',
    async ({ org, email }) => {
      const owner = await ownerOf(org, email)
      const { organizationId, userId } = owner
      const [chart, perCard, figures] = await withTenant(organizationId, (tx) =>
        Promise.all([
          countUserViewsBySourcePerDay(tx, organizationId, userId, now),
          countCardViewsBySource(tx, organizationId, userId, now),
          endUserFigures(tx, organizationId, userId, now),
        ]),
      )
      // Every one of the chart's 14 days has views, from several sources.
      expect(chart).toHaveLength(14)
      for (const day of chart) expect(day.views, day.day).toBeGreaterThan(0)
      const sources = new Set(chart.flatMap((day) => Object.keys(day.sources)))
      expect([...sources]).toEqual(expect.arrayContaining(['qr', 'nfc', 'link', 'share', 'direct']))
      // Both cards were viewed, the main one more.
      expect(perCard).toHaveLength(2)
      expect(figures.views.current).toBeGreaterThan(0)
      expect(figures.views.previous).toBeGreaterThan(0)
      expect(figures.contacts.current + figures.contacts.previous).toBeGreaterThanOrEqual(3)
      expect(figures.activity.map((a) => a.kind)).toEqual(expect.arrayContaining(['view', 'lead']))
      // A contact heads the list, not a run of today's views.
      expect(figures.activity[0]?.kind).not.toBe('view')
      // None in the future, and the hourly sums the dashboards read agree with the views.
      const views = await getDb()
        .select()
        .from(cardViews)
        .innerJoin(digitalCards, eq(digitalCards.id, cardViews.cardId))
        .where(eq(digitalCards.userId, userId))
      expect(views.every((v) => v.card_views.viewedAt.getTime() <= now.getTime())).toBe(true)
      expect(views.every((v) => /^[0-9a-f]{64}$/.test(v.card_views.visitorHash))).toBe(true)
      const hours = await getDb()
        .select()
        .from(cardViewHours)
        .innerJoin(digitalCards, eq(digitalCards.id, cardViewHours.cardId))
        .where(eq(digitalCards.userId, userId))
      expect(hours.reduce((sum, h) => sum + h.card_view_hours.views, 0)).toBe(views.length)
      const people = await getDb().select().from(contacts).where(eq(contacts.userId, userId))
      expect(people.length).toBeGreaterThanOrEqual(3)
      expect(people.every((p) => p.email.endsWith('@example.test'))).toBe(true)
      expect(new Set(people.map((p) => p.source))).toContain('lead')
    },
  )
})
