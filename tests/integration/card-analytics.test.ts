// Analytics past views (issue 41 point 8, ADR 082), on both drivers: saves (vCard, wallet), link
// taps and exchanges counted per card, hour and source, bots and the owner left out; a link's
// tap leads only to the card's own stored URL; the screen's figures and rates come from the two
// rollups, a rate without views is "—", the CSV says the same, and a scope a role may not choose
// is refused.
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { vcardResponse } from '#app/cards/card-files.server'
import { flushCardEvents, pendingCardEvents, queueCardEvent } from '#app/cards/event-batcher.server'
import { recordPublicCardView } from '#app/cards/public-card-route.server'
import { flushCardViews } from '#app/cards/view-batcher.server'
import { analyticsCsvLoader, analyticsLoader } from '#app/dashboard/analytics-route.server'
import { replaceCardLinks } from '#app/models/cards.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { loader as linkTapLoader } from '#app/routes/card_.$ref.l.$linkId'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardEventHours, cardLinks } from '#drizzle/schema'
import {
  contextFor,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
} from '#tests/factories'

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1'
const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)'

async function setup() {
  const organization = await makeOrganization()
  const owner = await makeUser(organization.id, { firstName: 'Ana', lastName: 'Lytic' })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Ana', lastName: 'Lytic' })
  await withTenant(organization.id, (tx) =>
    replaceCardLinks(tx, organization.id, owner.id, card.id, [
      { kind: 'github', label: 'Code', url: 'https://github.com/ana' },
    ]),
  )
  const [link] = await getDb().select().from(cardLinks).where(eq(cardLinks.cardId, card.id))
  if (!link) throw new Error('the card has no link')
  return { organization, owner, card, link, host: `${organization.slug}.localhost` }
}

const eventsOf = (cardId: string) =>
  getDb().select().from(cardEventHours).where(eq(cardEventHours.cardId, cardId))

afterEach(async () => {
  await flushCardEvents().catch(() => {})
})

describe('counting', () => {
  test('a vCard download counts a save with its source; a bot and the owner do not', async () => {
    const { organization, owner, card, host } = await setup()
    const path = `/card/${card.id}/vcard?s=q`
    await vcardResponse(
      requestFor(host, path, { headers: { 'User-Agent': PHONE } }),
      contextFor(host),
      card.id,
    )
    await vcardResponse(
      requestFor(host, path, { headers: { 'User-Agent': BOT } }),
      contextFor(host),
      card.id,
    )
    const cookie = await sessionCookieFor(organization.id, owner.id)
    await vcardResponse(
      requestFor(host, path, { headers: { 'User-Agent': PHONE, Cookie: cookie } }),
      contextFor(host, '203.0.113.9'),
      card.id,
    )
    await flushCardEvents()
    const rows = await eventsOf(card.id)
    expect(rows.map((r) => [r.kind, r.source, r.count])).toEqual([['vcard', 'qr', 1]])
  })

  test("a cached vCard's hit counts a save through the page cache's mark", async () => {
    const { organization, card } = await setup()
    recordPublicCardView(organization.id, `vcard:${card.id}`, '198.51.100.1', PHONE, 'nfc')
    await flushCardEvents()
    await flushCardViews()
    const rows = await eventsOf(card.id)
    expect(rows.map((r) => [r.kind, r.source, r.count])).toEqual([['vcard', 'nfc', 1]])
  })

  test("a tap goes to the card's stored URL and counts; another id is a 404, never a redirect", async () => {
    const { card, link, host } = await setup()
    const tap = (await linkTapLoader({
      request: requestFor(host, `/card/${card.id}/l/${link.id}?s=l`, {
        headers: { 'User-Agent': PHONE },
      }),
      context: contextFor(host),
      params: { ref: card.id, linkId: link.id },
    })) as Response
    expect(tap.status).toBe(302)
    expect(tap.headers.get('Location')).toBe('https://github.com/ana')
    const refused = await Promise.resolve(
      linkTapLoader({
        request: requestFor(host, `/card/${card.id}/l/https%3A%2F%2Fevil.example`),
        context: contextFor(host),
        params: { ref: card.id, linkId: 'https://evil.example' },
      }),
    ).catch((error: unknown) => error)
    expect((refused as Response).status).toBe(404)
    await flushCardEvents()
    const rows = await eventsOf(card.id)
    expect(rows.map((r) => [r.kind, r.source, r.linkId, r.count])).toEqual([
      ['link', 'link', link.id, 1],
    ])
  })

  test('counts add up per hour in one row, and a deleted card’s counts are dropped', async () => {
    const { organization, card } = await setup()
    for (let i = 0; i < 3; i++) {
      queueCardEvent({
        organizationId: organization.id,
        cardId: card.id,
        kind: 'lead',
        source: 'qr',
      })
    }
    queueCardEvent({
      organizationId: organization.id,
      cardId: '00000000-0000-4000-8000-000000000000',
      kind: 'lead',
      source: 'qr',
    })
    expect(pendingCardEvents()).toBe(4)
    await flushCardEvents()
    expect(pendingCardEvents()).toBe(0)
    queueCardEvent({ organizationId: organization.id, cardId: card.id, kind: 'lead', source: 'qr' })
    await flushCardEvents()
    const rows = await eventsOf(card.id)
    expect(rows.map((r) => [r.kind, r.count])).toEqual([['lead', 4]])
  })
})

describe('the screen and the CSV', () => {
  test('figures from the rollups, rates with "—" for no views, and scopes by role', async () => {
    const { organization, owner, card, link, host } = await setup()
    const cookie = await sessionCookieFor(organization.id, owner.id)
    const request = (path: string) => requestFor(host, path, { headers: { Cookie: cookie } })
    // Nothing yet: zeros, and no rate.
    const empty = await analyticsLoader(request('/dashboard/analytics'), contextFor(host))
    expect(empty.analytics.totals).toMatchObject({ views: 0, saves: 0, saveRate: null })
    for (let i = 0; i < 4; i++) {
      recordPublicCardView(organization.id, card.id, `198.51.100.${i}`, PHONE, 'qr')
    }
    await flushCardViews()
    const at = { organizationId: organization.id, cardId: card.id }
    queueCardEvent({ ...at, kind: 'vcard', source: 'qr' })
    queueCardEvent({ ...at, kind: 'wallet', source: 'qr' })
    queueCardEvent({ ...at, kind: 'lead', source: 'qr' })
    queueCardEvent({ ...at, kind: 'link', source: 'direct', linkId: link.id })
    await flushCardEvents()
    const { analytics, scopes } = await analyticsLoader(
      request('/dashboard/analytics?days=7'),
      contextFor(host),
    )
    expect(scopes).toEqual([{ scope: 'mine', label: 'My cards' }])
    expect(analytics.totals).toMatchObject({
      views: 4,
      vcardSaves: 1,
      walletSaves: 1,
      saves: 2,
      linkTaps: 1,
      exchanges: 1,
      saveRate: 0.5,
      exchangeRate: 0.25,
    })
    expect(analytics.cards).toHaveLength(1)
    expect(analytics.sources.map((s) => [s.source, s.views, s.saves, s.saveRate])).toEqual([
      ['direct', 0, 0, null],
      ['qr', 4, 2, 0.5],
    ])
    expect(analytics.links).toEqual([
      expect.objectContaining({ link: 'Code', url: 'https://github.com/ana', taps: 1 }),
    ])
    const csv = await (
      await analyticsCsvLoader(request('/dashboard/analytics.csv?days=7'), contextFor(host))
    ).text()
    expect(csv).toContain('"Total","All cards","","4","1","1","1","1","0","1","50%","25%"')
    // The direct source had a tap but no views: its rates are "—".
    expect(csv).toContain('"Source","Direct","","0","0","0","1","0","0","0","—","—"')
    expect(csv).toContain('"Link","Ana\'s Card: Code (https://github.com/ana)"')
    // An end user may not ask for the agency's figures.
    const refused = await analyticsLoader(
      request('/dashboard/analytics?scope=agency'),
      contextFor(host),
    ).catch((error: unknown) => error)
    expect((refused as Response).status).toBe(403)
  })

  test("an agency admin's agency scope counts every card of the agency, and no other's", async () => {
    const { organization, card } = await setup()
    const admin = await makeUser(organization.id, { role: 'agency_admin' })
    const other = await setup()
    queueCardEvent({
      organizationId: organization.id,
      cardId: card.id,
      kind: 'connect',
      source: 'nfc',
    })
    queueCardEvent({
      organizationId: other.organization.id,
      cardId: other.card.id,
      kind: 'connect',
      source: 'nfc',
    })
    await flushCardEvents()
    const host = `${organization.slug}.localhost`
    const cookie = await sessionCookieFor(organization.id, admin.id)
    const { analytics, scopes } = await analyticsLoader(
      requestFor(host, '/dashboard/analytics?scope=agency&days=90', {
        headers: { Cookie: cookie },
      }),
      contextFor(host),
    )
    expect(scopes.map((option) => option.scope)).toEqual(['mine', 'agency'])
    expect(analytics.totals.connects).toBe(1)
    expect(analytics.cards.map((c) => c.cardId)).toEqual([card.id])
  })

  test("a team's admin sees its members' cards; a member may not ask for them", async () => {
    const { organization, owner, card } = await setup()
    const member = await makeUser(organization.id, { firstName: 'Mo' })
    const memberCard = await makeCard(organization.id, member.id, { firstName: 'Mo' })
    const team = await withTenant(organization.id, async (tx) => {
      const made = await createTeamWithAdmin(tx, organization.id, owner.id, {
        name: 'Sales',
        description: '',
      })
      await addTeamMember(tx, organization.id, made.id, member.id, 'member')
      return made
    })
    for (const cardId of [card.id, memberCard.id]) {
      queueCardEvent({ organizationId: organization.id, cardId, kind: 'vcard', source: 'qr' })
    }
    await flushCardEvents()
    const host = `${organization.slug}.localhost`
    const path = `/dashboard/analytics?scope=team&team=${team.id}`
    const asOwner = await analyticsLoader(
      requestFor(host, path, {
        headers: { Cookie: await sessionCookieFor(organization.id, owner.id) },
      }),
      contextFor(host),
    )
    expect(asOwner.chosen).toEqual({ scope: 'team', team: team.id, label: 'Team Sales' })
    expect(asOwner.analytics.totals.vcardSaves).toBe(2)
    const asMember = await analyticsLoader(
      requestFor(host, path, {
        headers: { Cookie: await sessionCookieFor(organization.id, member.id) },
      }),
      contextFor(host),
    ).catch((error: unknown) => error)
    expect((asMember as Response).status).toBe(403)
  })
})
