// A card that follows a person who leaves (issue 45 point 2, ADR 103): the hand-over's offer of
// a personal card (an emailed link whose token rests nowhere), the claim on the agency's host
// (name, personal email or phone; bad input answered next to the field; once), the personal card
// on the platform organization only (row-level security keeps it from the agency, an agency's
// host has no /p/ page), and the followers told "has moved" once the person has left: one email
// each with both cards and the one-click way out, never twice, never while the person is active,
// and the digest stays quiet. The agency keeps its contacts and its forwarding.
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { linkTokenOf } from '#app/email/link-token.server'
import { runJobsNow } from '#app/job-handlers.server'
import { CLAIM_LINK_INVALID } from '#app/people/personal-card.server'
import {
  action as usersAction,
  loader as usersLoader,
} from '#app/routes/dashboard.agency.users._index'
import * as pageRoute from '#app/routes/p.$slug'
import * as manageRequestRoute from '#app/routes/p.$slug_.manage'
import * as claimRoute from '#app/routes/personal-card.claim'
import * as manageRoute from '#app/routes/personal-card.manage'
import {
  EMAIL_INVALID,
  EMAIL_OR_PHONE_REQUIRED,
  MANAGE_LINK_INVALID,
  MANAGE_LINK_SENT,
  PERSONAL_CARD_OFFERED,
  PERSONAL_CARD_REMOVED,
  PERSONAL_CARD_SAVED,
  PHONE_INVALID,
} from '#app/validation/personal-card'
import { PERSONAL_CARD_MANAGE_LINK } from '#app/validation/token-lifetimes'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  auditEvents,
  cardFollowers,
  digitalCards,
  emailOutbox,
  personalCardOffers,
  personalCards,
  seatSuccessors,
} from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

type Org = Awaited<ReturnType<typeof makeOrganization>>
const NO_HASH = { passwordHash: 'not-a-password-hash' }
const USERS = '/dashboard/agency/users?index'

let platform: Org
beforeAll(async () => {
  platform = await getPlatformOrganization()
})

async function world(name: string) {
  const agency = await makeOrganization({ name })
  const host = `${agency.slug}.localhost`
  const admin = await makeUser(agency.id, { role: 'agency_admin', ...NO_HASH })
  const departing = await makeUser(agency.id, {
    firstName: 'Dora',
    lastName: 'Departing',
    email: `dora-${agency.slug}@agency.test`,
    ...NO_HASH,
  })
  const successor = await makeUser(agency.id, {
    firstName: 'Sam',
    lastName: 'Successor',
    ...NO_HASH,
  })
  const card = await makeCard(agency.id, departing.id, {
    firstName: 'Dora',
    lastName: 'Departing',
    company: name,
    jobTitle: 'Account Lead',
  })
  await makeCard(agency.id, successor.id, { firstName: 'Sam', lastName: 'Successor' })
  return {
    agency,
    host,
    admin,
    departing,
    successor,
    card,
    cookie: await sessionCookieFor(agency.id, admin.id),
  }
}
type World = Awaited<ReturnType<typeof world>>

const post = (w: World, fields: Record<string, string>) =>
  settle(() =>
    usersAction({
      request: formRequest(w.host, USERS, fields, w.cookie),
      context: contextFor(w.host),
      params: {},
    }),
  )

/** A follower who confirmed (the double opt-in itself is card-followers.test.ts's). */
const follower = (w: World, email: string, cardId = w.card.id, language = 'en') =>
  getDb()
    .insert(cardFollowers)
    .values({ organizationId: w.agency.id, cardId, email, state: 'confirmed', language })

const outboxTo = async (organizationId: string, to: string) =>
  asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, organizationId), eq(emailOutbox.toAddress, to)))
      .orderBy(emailOutbox.createdAt),
  )

function linkIn(text: string, path: string) {
  const url = new RegExp(`https?://[^\\s"<]+${path}\\?token=[A-Za-z0-9_.-]+`).exec(text)?.[0]
  if (!url) throw new Error(`no ${path} link`)
  return new URL(url)
}

async function handOver(w: World, offer: boolean) {
  return post(w, {
    intent: 'hand-over',
    userId: w.departing.id,
    successorId: w.successor.id,
    ...(offer ? { offerPersonalCard: 'on' } : {}),
  })
}

async function claimLink(w: World) {
  const [offer] = await outboxTo(w.agency.id, w.departing.email)
  expect(offer?.subject).toBe('Keep a personal card')
  return linkIn(offer?.text ?? '', '/personal-card/claim')
}

const claim = (host: string, url: URL, fields: Record<string, string>) =>
  settle(() =>
    claimRoute.action({
      request: formRequest(host, `${url.pathname}${url.search}`, { intent: 'claim', ...fields }),
      context: contextFor(host),
      params: {},
    }),
  )

const showClaim = (host: string, url: URL) =>
  settle(() =>
    claimRoute.loader({
      request: requestFor(host, `${url.pathname}${url.search}`),
      context: contextFor(host),
      params: {},
    }),
  )

const openPersonalCard = (host: string, slug: string) =>
  settle(() =>
    pageRoute.loader({
      request: requestFor(host, `/p/${slug}`),
      context: contextFor(host),
      params: { slug },
    }),
  )

const deactivate = (w: World) =>
  post(w, { intent: 'set-status', userId: w.departing.id, status: 'inactive' })

const movedTo = async (w: World, email: string) =>
  (await outboxTo(w.agency.id, email)).filter((row) => row.subject.endsWith('has moved'))

describe('a personal card offered at a hand-over', () => {
  test('offer, claim, leave: each follower is told once, with both cards and a way out', async () => {
    const w = await world('Moving Agency')
    await follower(w, 'fan@example.test')
    await follower(w, 'quiet@example.test')
    await getDb()
      .update(cardFollowers)
      .set({ state: 'unsubscribed' })
      .where(eq(cardFollowers.email, 'quiet@example.test'))
    // An address following two of her cards hears once.
    const second = await makeCard(w.agency.id, w.departing.id, {
      firstName: 'Dora',
      lastName: 'Departing',
    })
    await follower(w, 'fan@example.test', second.id)
    // One who asked on the card page in French (ADR 105) is told in French.
    await follower(w, 'fanny@example.test', w.card.id, 'fr')

    const handed = await handOver(w, true)
    await expect(handed).toSendToast({
      title: "Dora Departing's seat handed over to Sam Successor (0 contacts moved)",
      description: PERSONAL_CARD_OFFERED,
    })
    const url = await claimLink(w)
    expect(url.hostname).toBe(w.host)

    // Opening the link shows the form with her name only; nothing is written.
    const shown = await showClaim(w.host, url)
    expect(shown.status).toBe(200)
    const form = (await shown.json()) as Record<string, unknown>
    expect(form).toEqual({ status: 'open', firstName: 'Dora', lastName: 'Departing' })
    expect(
      await getDb().select().from(personalCards).where(eq(personalCards.firstName, 'Dora')),
    ).toEqual([])

    // Bad input is answered next to its field, and keeps the link usable.
    const neither = await claim(w.host, url, { firstName: 'Dora', lastName: 'Departing' })
    expect(neither.status).toBe(400)
    expect((await replyErrors(neither)).email).toEqual([EMAIL_OR_PHONE_REQUIRED])
    const badPhone = await claim(w.host, url, {
      firstName: 'Dora',
      lastName: 'Departing',
      phone: 'call me maybe',
    })
    expect((await replyErrors(badPhone)).phone).toEqual([PHONE_INVALID])
    const badEmail = await claim(w.host, url, {
      firstName: 'Dora',
      lastName: '',
      email: 'not-an-email',
    })
    const errors = await replyErrors(badEmail)
    expect(errors.email?.length).toBe(1)
    expect(errors.lastName).toEqual(['Last name is required'])

    const claimed = await claim(w.host, url, {
      firstName: 'Dora',
      lastName: 'Departing',
      email: 'Dora@Home.test',
      phone: '+44 20 7946 0000',
    })
    expect(claimed.status).toBe(200)
    const reply = (await claimed.json()) as { claimed: boolean; url: string }
    expect(reply.claimed).toBe(true)
    const personalUrl = new URL(reply.url)
    expect(personalUrl.hostname).toBe('localhost')
    const slug = personalUrl.pathname.replace('/p/', '')
    // The link works once.
    expect(
      (await claim(w.host, url, { firstName: 'X', lastName: 'Y', phone: '123456' })).status,
    ).toBe(404)

    // The card is the platform's row, with what she typed; the agency keeps its address only.
    const [card] = await getDb().select().from(personalCards).where(eq(personalCards.slug, slug))
    expect(card).toMatchObject({
      organizationId: platform.id,
      firstName: 'Dora',
      lastName: 'Departing',
      email: 'dora@home.test',
      phone: '+44 20 7946 0000',
    })
    const [offer] = await getDb()
      .select()
      .from(personalCardOffers)
      .where(eq(personalCardOffers.organizationId, w.agency.id))
    expect(offer).toMatchObject({ tokenHash: null, personalCardSlug: slug })
    expect(await withTenant(w.agency.id, (tx) => tx.select().from(personalCards))).toEqual([])
    const agencyRows = await getDb()
      .select()
      .from(personalCardOffers)
      .where(eq(personalCardOffers.organizationId, w.agency.id))
    expect(JSON.stringify(agencyRows)).not.toContain('home.test')

    // The page opens on the platform's host only, with nothing of the agency's.
    const page = await openPersonalCard('localhost', slug)
    expect(page.status).toBe(200)
    const shownCard = JSON.stringify(await page.json())
    expect(shownCard).toContain('dora@home.test')
    expect(shownCard).not.toContain('Moving Agency')
    expect(shownCard).not.toContain('Account Lead')
    expect((await openPersonalCard(w.host, slug)).status).toBe(404)
    expect((await openPersonalCard('localhost', 'nobody-here')).status).toBe(404)

    // Still active: her card is still hers, nobody is told.
    await runJobsNow()
    expect(await movedTo(w, 'fan@example.test')).toEqual([])

    // She leaves: one email to each follower, both cards named, the one-click way out.
    await deactivate(w)
    await runJobsNow()
    const [moved, ...more] = await movedTo(w, 'fan@example.test')
    expect(more).toEqual([])
    expect(moved?.subject).toBe('Dora Departing has moved')
    expect(moved?.text).toContain(reply.url)
    expect(moved?.text).toMatch(new RegExp(`http://${w.host}(:\\d+)?/(c|card)/`))
    expect(moved?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    const stop = linkIn(moved?.headers['List-Unsubscribe'] ?? '', '/follow/unsubscribe')
    expect(moved?.text).toContain(stop.href)
    expect(await movedTo(w, 'quiet@example.test')).toEqual([])
    const [inFrench] = await outboxTo(w.agency.id, 'fanny@example.test')
    expect(inFrench?.subject).toBe('Dora Departing a changé de poste')
    expect(inFrench?.text).toContain(reply.url)

    // Never twice: another deactivation round, another run.
    await post(w, { intent: 'set-status', userId: w.departing.id, status: 'active' })
    await deactivate(w)
    await runJobsNow()
    expect(await movedTo(w, 'fan@example.test')).toHaveLength(1)

    // The digest stays quiet for a departed owner's edit.
    await withTenant(w.agency.id, (tx) =>
      tx
        .update(digitalCards)
        .set({ jobTitle: 'Gone' })
        .where(and(eq(digitalCards.organizationId, w.agency.id), eq(digitalCards.id, w.card.id))),
    )
    await runJobsNow()
    const fanMail = await outboxTo(w.agency.id, 'fan@example.test')
    expect(fanMail.filter((row) => row.subject.includes('contact details changed'))).toEqual([])

    // The agency keeps its forwarding to the successor.
    const [seat] = await getDb()
      .select()
      .from(seatSuccessors)
      .where(eq(seatSuccessors.userId, w.departing.id))
    expect(seat?.successorId).toBe(w.successor.id)
  })

  test('no offer without the choice; a claimed offer is not sent again', async () => {
    const w = await world('Plain Agency')
    await handOver(w, false)
    expect(await outboxTo(w.agency.id, w.departing.email)).toEqual([])
    expect(
      await getDb()
        .select()
        .from(personalCardOffers)
        .where(eq(personalCardOffers.organizationId, w.agency.id)),
    ).toEqual([])
    await handOver(w, true)
    const url = await claimLink(w)
    expect(
      (await claim(w.host, url, { firstName: 'Dora', lastName: 'D', phone: '0123 456' })).status,
    ).toBe(200)
    const again = await handOver(w, true)
    await expect(again).toSendToast(
      "Dora Departing's seat handed over to Sam Successor (0 contacts moved)",
    )
    expect(await outboxTo(w.agency.id, w.departing.email)).toHaveLength(1)
  })

  test("links are the agency's own, and no usable token rests in a table", async () => {
    const a = await world('Agency A')
    const b = await world('Agency B')
    await handOver(a, true)
    const url = await claimLink(a)
    const token = url.searchParams.get('token') ?? ''
    // A's link on B's host, or on the platform's: nothing opens, nothing is written.
    for (const host of [b.host, 'localhost']) {
      const shown = await showClaim(host, url)
      expect(shown.status).toBe(404)
      expect(((await shown.json()) as { message: string }).message).toBe(CLAIM_LINK_INVALID)
      const refused = await claim(host, url, { firstName: 'X', lastName: 'Y', phone: '123456' })
      expect(refused.status).toBe(404)
    }
    // A malformed token is refused before any query.
    expect(
      (await showClaim(a.host, new URL(`http://${a.host}/personal-card/claim?token=x`))).status,
    ).toBe(404)
    // At rest: the offer keeps a hash, the outbox a marker.
    const stored =
      JSON.stringify(
        await getDb().select().from(emailOutbox).where(eq(emailOutbox.organizationId, a.agency.id)),
      ) + JSON.stringify(await getDb().select().from(personalCardOffers))
    expect(stored).not.toContain(token)
    expect(linkTokenOf('x')).not.toBe(token)
    // B sees none of A's offers, even by asking for them.
    expect(await withTenant(b.agency.id, (tx) => tx.select().from(personalCardOffers))).toEqual([])
    // The End Users screen still loads for the admin.
    const loaded = await settle(() =>
      usersLoader({
        request: requestFor(a.host, '/dashboard/agency/users', { headers: { Cookie: a.cookie } }),
        context: contextFor(a.host),
        params: {},
      }),
    )
    expect(loaded.status).toBe(200)
  })
})

/** Hands the seat over with an offer and claims it with a personal email: the card's slug. */
async function claimedCard(name: string, email: string) {
  const w = await world(name)
  await handOver(w, true)
  const claimed = await claim(w.host, await claimLink(w), {
    firstName: 'Dora',
    lastName: 'Departing',
    email,
    phone: '+44 20 7946 0000',
  })
  const { url } = (await claimed.json()) as { url: string }
  return { w, slug: new URL(url).pathname.replace('/p/', '') }
}

const askForLink = (host: string, slug: string, email: string, clientIp?: string) =>
  settle(() =>
    manageRequestRoute.action({
      request: formRequest(host, `/p/${slug}/manage`, { email }),
      context: contextFor(host, clientIp),
      params: { slug },
    }),
  )

const showManage = (host: string, url: URL) =>
  settle(() =>
    manageRoute.loader({
      request: requestFor(host, `${url.pathname}${url.search}`),
      context: contextFor(host),
      params: {},
    }),
  )

const manage = (host: string, url: URL, fields: Record<string, string>) =>
  settle(() =>
    manageRoute.action({
      request: formRequest(host, `${url.pathname}${url.search}`, fields),
      context: contextFor(host),
      params: {},
    }),
  )

const manageLinksTo = async (email: string) =>
  (await outboxTo(platform.id, email)).filter(
    (row) => row.subject === 'Edit or remove your personal card',
  )

const cardRow = async (slug: string) =>
  (await getDb().select().from(personalCards).where(eq(personalCards.slug, slug)))[0]

describe('its owner edits or removes a personal card (ADR 106)', () => {
  test('a link goes to the card’s own email only, and edits or removes the card', async () => {
    const { w, slug } = await claimedCard('Editing Agency', 'dora-edit@home.test')
    const sent = MANAGE_LINK_SENT(PERSONAL_CARD_MANAGE_LINK.words)

    // The request page is the platform's: an agency's host has none.
    const shown = await settle(() =>
      manageRequestRoute.loader({
        request: requestFor('localhost', `/p/${slug}/manage`),
        context: contextFor('localhost'),
        params: { slug },
      }),
    )
    expect(shown.status).toBe(200)
    expect(JSON.stringify(await shown.json())).not.toContain('dora-edit@home.test')
    expect((await askForLink(w.host, slug, 'dora-edit@home.test')).status).toBe(404)
    expect((await askForLink('localhost', 'nobody-here', 'dora-edit@home.test')).status).toBe(404)

    // Bad input is answered next to the field; any address gets the same answer.
    expect((await replyErrors(await askForLink('localhost', slug, 'nope'))).email).toEqual([
      EMAIL_INVALID,
    ])
    const stranger = await askForLink('localhost', slug, 'someone@else.test')
    expect(stranger.status).toBe(200)
    expect(await stranger.json()).toMatchObject({ sent })
    const owner = await askForLink('localhost', slug, 'Dora-Edit@Home.test')
    expect(await owner.json()).toMatchObject({ sent })
    await runJobsNow()
    expect(await outboxTo(platform.id, 'someone@else.test')).toEqual([])
    const [email, ...others] = await manageLinksTo('dora-edit@home.test')
    expect(others).toEqual([])
    const url = linkIn(email?.text ?? '', '/personal-card/manage')
    expect(url.hostname).toBe('localhost')

    // The link opens on the platform's host only; GET writes nothing.
    expect((await showManage(w.host, url)).status).toBe(404)
    const form = await showManage('localhost', url)
    expect(form.status).toBe(200)
    expect(await form.json()).toMatchObject({
      status: 'open',
      card: { firstName: 'Dora', email: 'dora-edit@home.test', phone: '+44 20 7946 0000' },
    })

    // Bad input changes nothing.
    const neither = await manage('localhost', url, {
      intent: 'save',
      firstName: 'Dora',
      lastName: 'Departing',
    })
    expect(neither.status).toBe(400)
    expect((await replyErrors(neither)).email).toEqual([EMAIL_OR_PHONE_REQUIRED])
    expect((await cardRow(slug))?.phone).toBe('+44 20 7946 0000')

    // A new phone is saved, and the link still works for the rest of its hour.
    const saved = await manage('localhost', url, {
      intent: 'save',
      firstName: 'Dora',
      lastName: 'Departing',
      email: 'dora-edit@home.test',
      phone: '+44 20 7946 1111',
    })
    expect(saved.status).toBe(200)
    expect(await saved.json()).toMatchObject({ saved: PERSONAL_CARD_SAVED })
    expect((await cardRow(slug))?.phone).toBe('+44 20 7946 1111')
    expect((await showManage('localhost', url)).status).toBe(200)

    // A new email ends the link: it was sent to the old address.
    await manage('localhost', url, {
      intent: 'save',
      firstName: 'Dora',
      lastName: 'Departing',
      email: 'dora-new@home.test',
      phone: '',
    })
    expect(await cardRow(slug)).toMatchObject({ email: 'dora-new@home.test', phone: '' })
    const ended = await showManage('localhost', url)
    expect(ended.status).toBe(404)
    expect(await ended.json()).toMatchObject({ message: MANAGE_LINK_INVALID })

    // A link from the new address removes the card; its page and the link are gone.
    await askForLink('localhost', slug, 'dora-new@home.test')
    await runJobsNow()
    const [second] = await manageLinksTo('dora-new@home.test')
    const removeUrl = linkIn(second?.text ?? '', '/personal-card/manage')
    const removed = await manage('localhost', removeUrl, { intent: 'remove' })
    expect(await removed.json()).toMatchObject({ removed: PERSONAL_CARD_REMOVED })
    expect(await cardRow(slug)).toBeUndefined()
    expect((await openPersonalCard('localhost', slug)).status).toBe(404)
    expect((await manage('localhost', removeUrl, { intent: 'remove' })).status).toBe(404)
    const audits = await getDb()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, platform.id))
    expect(audits.map((row) => row.action)).toEqual(
      expect.arrayContaining(['personal_card.updated', 'personal_card.removed']),
    )

    // The followers of a person whose personal card is gone are told nothing.
    await follower(w, 'late-fan@example.test')
    await deactivate(w)
    await runJobsNow()
    expect(await movedTo(w, 'late-fan@example.test')).toEqual([])
  })

  test('a link lasts an hour, asks are limited per card whatever the address, no token rests', async () => {
    const { slug } = await claimedCard('Limited Agency', 'dora-limit@home.test')
    await askForLink('localhost', slug, 'dora-limit@home.test', '198.51.100.7')
    await runJobsNow()
    const [email] = await manageLinksTo('dora-limit@home.test')
    const url = linkIn(email?.text ?? '', '/personal-card/manage')
    const token = url.searchParams.get('token') ?? ''
    const stored =
      JSON.stringify(await getDb().select().from(personalCards)) +
      JSON.stringify(
        await getDb().select().from(emailOutbox).where(eq(emailOutbox.organizationId, platform.id)),
      )
    expect(stored).not.toContain(token)

    // Past its hour, the link opens nothing and changes nothing.
    await getDb()
      .update(personalCards)
      .set({ manageLinkSentAt: sql`now() - interval '61 minutes'` })
      .where(eq(personalCards.slug, slug))
    expect((await showManage('localhost', url)).status).toBe(404)
    expect((await manage('localhost', url, { intent: 'remove' })).status).toBe(404)
    expect(await cardRow(slug)).toBeDefined()

    // Three asks an hour per card, from any address, for any email: the fourth is refused alike.
    await askForLink('localhost', slug, 'x@else.test', '198.51.100.8')
    await askForLink('localhost', slug, 'y@else.test', '198.51.100.9')
    const limited = await askForLink('localhost', slug, 'dora-limit@home.test', '198.51.100.10')
    expect(limited.status).toBe(429)
    const other = await askForLink('localhost', slug, 'z@else.test', '198.51.100.11')
    expect(other.status).toBe(429)
  })
})
