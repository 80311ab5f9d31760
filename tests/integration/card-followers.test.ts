// "Keep me updated" (issue 45 point 1, ADR 102): a visitor asks on the card page, the emailed
// link confirms (nothing else before), an edit of a watched field sends each follower one digest
// with the new vCard (batched, at most one a day per card), the one-click link stops it, the
// owner sees how many follow, and nothing usable rests in a table. Time is moved the way the
// other tests move it: the rows' timestamps and the job's run_at, never the process's clock.
import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { followAskedMessage } from '#app/cards/card-follow.server'
import { FOLLOW_LINK_INVALID } from '#app/cards/follow-route.server'
import { linkTokenOf } from '#app/email/link-token.server'
import { runJobsNow } from '#app/job-handlers.server'
import { loader as rootLoader } from '#app/root'
import { action as cardAction } from '#app/routes/card.$ref'
import { loader as listLoader } from '#app/routes/dashboard.end-user.digital-cards._index'
import * as confirmRoute from '#app/routes/follow.confirm'
import * as stopRoute from '#app/routes/follow.unsubscribe'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardFollowers, digitalCards, emailOutbox, jobs } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

async function world() {
  const organization = await makeOrganization({ name: 'Follow Co' })
  const host = `${organization.slug}.localhost`
  const owner = await makeUser(organization.id, {
    firstName: 'Fay',
    lastName: 'Owner',
    passwordHash: 'not-a-password',
  })
  const card = await makeCard(organization.id, owner.id, {
    firstName: 'Fay',
    lastName: 'Owner',
    jobTitle: 'Engineer',
    company: 'Follow Co',
  })
  return {
    organization,
    host,
    owner,
    card,
    cookie: await sessionCookieFor(organization.id, owner.id),
  }
}
type World = Awaited<ReturnType<typeof world>>

let visitor = 1
async function follow(w: World, email: string, extra: Record<string, string> = {}) {
  const response = await settle(() =>
    cardAction({
      request: formRequest(w.host, `/card/${w.card.id}`, { intent: 'follow', email, ...extra }),
      context: contextFor(w.host, `198.51.100.${visitor++}`),
      params: { ref: w.card.id },
    }),
  )
  return { status: response.status, body: (await response.json()) as { message: string } }
}

const outboxTo = async (w: World, to: string) =>
  asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, w.organization.id), eq(emailOutbox.toAddress, to)))
      .orderBy(emailOutbox.createdAt),
  )

const followersOf = (w: World) =>
  getDb().select().from(cardFollowers).where(eq(cardFollowers.organizationId, w.organization.id))

function linkIn(text: string, path: string) {
  const url = new RegExp(`https?://[^\\s"<]+${path}\\?token=[A-Za-z0-9_.-]+`).exec(text)?.[0]
  if (!url) throw new Error(`no ${path} link`)
  return new URL(url)
}

async function confirm(w: World, url: URL, host = w.host) {
  return settle(() =>
    confirmRoute.action({
      request: formRequest(host, `${url.pathname}${url.search}`, { intent: 'confirm' }),
      context: contextFor(host),
      params: {},
    }),
  )
}

/** Subscribes and confirms `email`; the confirmation's link as the visitor got it. */
async function followAndConfirm(w: World, email: string) {
  await follow(w, email)
  const [message] = await outboxTo(w, email)
  const url = linkIn(message?.text ?? '', '/follow/confirm')
  expect((await confirm(w, url)).status).toBeLessThan(400)
  return url
}

function edit(w: World, set: Partial<typeof digitalCards.$inferInsert>) {
  return withTenant(w.organization.id, (tx) =>
    tx
      .update(digitalCards)
      .set(set)
      .where(
        and(eq(digitalCards.organizationId, w.organization.id), eq(digitalCards.id, w.card.id)),
      ),
  )
}

const digestsTo = async (w: World, email: string) =>
  (await outboxTo(w, email)).filter((row) => row.subject.includes('contact details changed'))

const vcardOf = (row: { attachments: { content: string }[] }) =>
  Buffer.from(row.attachments[0]?.content ?? '', 'base64').toString('utf8')

/** A day passes for this card's digests: its last one and its waiting jobs, moved back. */
async function aDayLater(w: World) {
  await getDb()
    .update(cardFollowers)
    .set({
      lastDigestAt: sql`${cardFollowers.lastDigestAt} - interval '25 hours'`,
      changedAt: sql`${cardFollowers.changedAt} - interval '25 hours'`,
    })
    .where(eq(cardFollowers.organizationId, w.organization.id))
  await getDb()
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(and(eq(jobs.organizationId, w.organization.id), eq(jobs.state, 'queued')))
}

describe('Keep me updated', () => {
  test('subscribe, confirm, edit: one digest with the new vCard and a one-click way out', async () => {
    const w = await world()
    const asked = await follow(w, 'Vera@Example.test')
    expect(asked.body.message).toBe(followAskedMessage('Fay'))
    const [confirmation, ...more] = await outboxTo(w, 'Vera@Example.test')
    expect(more).toEqual([])
    expect(confirmation?.subject).toBe('Confirm updates from Fay Owner')

    // Before the link is opened: an edit sends nothing, and no job is queued.
    await edit(w, { jobTitle: 'Lead Engineer' })
    await runJobsNow()
    expect(await digestsTo(w, 'vera@example.test')).toEqual([])

    const url = linkIn(confirmation?.text ?? '', '/follow/confirm')
    // Opening the link only shows the page (a link scanner confirms nothing).
    const shown = await settle(() =>
      confirmRoute.loader({
        request: requestFor(w.host, `${url.pathname}${url.search}`),
        context: contextFor(w.host),
        params: {},
      }),
    )
    expect(shown.status).toBe(200)
    expect((await followersOf(w))[0]?.state).toBe('pending')
    await confirm(w, url)
    const [row] = await followersOf(w)
    expect(row).toMatchObject({
      state: 'confirmed',
      email: 'vera@example.test',
      confirmTokenHash: null,
    })
    // The link works once.
    expect((await confirm(w, url)).status).toBe(404)

    await edit(w, { jobTitle: 'Head of Engineering' })
    await runJobsNow()
    const [digest, ...others] = await digestsTo(w, 'vera@example.test')
    expect(others).toEqual([])
    expect(digest?.subject).toBe("Fay Owner's contact details changed")
    expect(digest?.attachments[0]).toMatchObject({
      filename: expect.stringMatching(/\.vcf$/),
      contentType: 'text/vcard',
    })
    expect(vcardOf(digest as never)).toContain('TITLE:Head of Engineering')
    expect(digest?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    const stop = linkIn(digest?.headers['List-Unsubscribe'] ?? '', '/follow/unsubscribe')
    expect(digest?.text).toContain(stop.href)

    // The owner sees one follower on their card list.
    const list = (await settle(() =>
      listLoader({
        request: requestFor(w.host, '/dashboard/end-user/digital-cards', {
          headers: { Cookie: w.cookie },
        }),
        context: contextFor(w.host),
        params: {},
      }),
    ).then((response) => response.json())) as { cards: { id: string; followers: number }[] }
    expect(list.cards.find((card) => card.id === w.card.id)?.followers).toBe(1)

    // One click (a mailbox provider's POST: no session, no Origin) stops the updates.
    const stopped = await settle(() =>
      stopRoute.action({
        request: formRequest(w.host, `${stop.pathname}${stop.search}`, {
          'List-Unsubscribe': 'One-Click',
        }),
        context: contextFor(w.host),
        params: {},
      }),
    )
    expect(stopped.status).toBe(200)
    expect((await followersOf(w))[0]?.state).toBe('unsubscribed')
    await aDayLater(w)
    await edit(w, { company: 'Elsewhere Ltd' })
    await runJobsNow()
    expect(await digestsTo(w, 'vera@example.test')).toHaveLength(1)
  })

  test("a visitor's emails are in the language of the page they asked on (ADR 105)", async () => {
    const w = await world()
    const request = formRequest(w.host, `/card/${w.card.id}`, {
      intent: 'follow',
      email: 'greta@example.test',
    })
    request.headers.set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.5')
    const asked = await settle(() =>
      cardAction({
        request,
        context: contextFor(w.host, '198.51.100.250'),
        params: { ref: w.card.id },
      }),
    )
    expect(asked.status).toBe(200)
    const [confirmation] = await outboxTo(w, 'greta@example.test')
    expect(confirmation?.subject).toBe('Updates von Fay Owner bestätigen')
    expect(confirmation?.text).toContain('Der Link gilt 7 Tage.')
    expect((await followersOf(w))[0]?.language).toBe('de')
    const link = linkIn(confirmation?.text ?? '', '/follow/confirm')
    // The page the link opens speaks the browser's language too, and says it varies by it.
    const german = { 'Accept-Language': 'de-DE,de;q=0.9' }
    const root = await rootLoader({
      request: requestFor(w.host, `${link.pathname}${link.search}`, { headers: german }),
      context: contextFor(w.host),
      params: {},
    })
    expect(root.language).toBe('de')
    const shown = await settle(() =>
      confirmRoute.loader({
        request: requestFor(w.host, `${link.pathname}${link.search}`, { headers: german }),
        context: contextFor(w.host),
        params: {},
      }),
    )
    expect(shown.headers.get('Vary')).toContain('Accept-Language')
    await confirm(w, link)

    // The digest, written later by a job, is German too: the language was kept with the follower.
    await edit(w, { jobTitle: 'Leiterin Technik' })
    await runJobsNow()
    const [digest] = (await outboxTo(w, 'greta@example.test')).filter((row) =>
      row.subject.includes('haben sich geändert'),
    )
    expect(digest?.subject).toBe('Die Kontaktdaten von Fay Owner haben sich geändert')
    expect(digest?.text).toContain('Position')
    expect(digest?.text).toContain('Leiterin Technik')
    expect(digest?.html).toContain('lang="de"')
    // The owner's own words stay as written; the one-click way out is kept.
    expect(digest?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
  })

  test('several edits are one email, and the next waits for the day to pass', async () => {
    const w = await world()
    await followAndConfirm(w, 'batch@example.test')
    // Two edits before the job runs: one email with both.
    await edit(w, { jobTitle: 'Director' })
    await edit(w, { phoneNumber: '+1 555 0100' })
    await runJobsNow()
    const first = await digestsTo(w, 'batch@example.test')
    expect(first).toHaveLength(1)
    expect(vcardOf(first[0] as never)).toContain('TITLE:Director')
    expect(vcardOf(first[0] as never)).toContain('+1 555 0100')

    // An edit within the day: nothing now, even with its job run early.
    await edit(w, { company: 'Next Co' })
    await getDb()
      .update(jobs)
      .set({ runAt: sql`now() - interval '1 second'` })
      .where(and(eq(jobs.organizationId, w.organization.id), eq(jobs.state, 'queued')))
    await runJobsNow()
    expect(await digestsTo(w, 'batch@example.test')).toHaveLength(1)
    // A field nobody watches queues nothing.
    const before = await getDb()
      .select()
      .from(jobs)
      .where(eq(jobs.organizationId, w.organization.id))
    await edit(w, { bio: 'A new bio' })
    const after = await getDb()
      .select()
      .from(jobs)
      .where(eq(jobs.organizationId, w.organization.id))
    expect(after.length).toBe(before.length)

    // A day later the waiting change goes out, once.
    await aDayLater(w)
    await runJobsNow()
    const second = await digestsTo(w, 'batch@example.test')
    expect(second).toHaveLength(2)
    expect(vcardOf(second[1] as never)).toContain('ORG:Next Co')
  })

  test('asking again never says whether the address follows, and a follower gets no second confirmation', async () => {
    const w = await world()
    await followAndConfirm(w, 'again@example.test')
    const again = await follow(w, 'again@example.test')
    const fresh = await follow(w, 'new@example.test')
    expect(again).toEqual(fresh)
    expect(await outboxTo(w, 'again@example.test')).toHaveLength(1)
    expect((await followersOf(w)).find((row) => row.email === 'again@example.test')?.state).toBe(
      'confirmed',
    )
    // The honeypot: answered alike, nothing kept or sent.
    const bot = await follow(w, 'bot@example.test', { website: 'http://spam.test' })
    expect(bot.body.message).toBe(fresh.body.message)
    expect(await outboxTo(w, 'bot@example.test')).toEqual([])
    // A bad address is refused next to the field.
    const bad = await follow(w, 'not-an-email')
    expect(bad.status).toBe(400)
  })

  test('one address cannot be flooded with confirmations', async () => {
    const w = await world()
    const answers = []
    for (let i = 0; i < 12; i++) answers.push(await follow(w, 'target@example.test'))
    // Answered alike every time; one confirmation within the hour.
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1)
    expect(await outboxTo(w, 'target@example.test')).toHaveLength(1)
    // An hour later (the row's time moved back) the address may be sent a new link.
    await getDb()
      .update(cardFollowers)
      .set({ updatedAt: sql`now() - interval '61 minutes'` })
      .where(eq(cardFollowers.organizationId, w.organization.id))
    await follow(w, 'target@example.test')
    expect(await outboxTo(w, 'target@example.test')).toHaveLength(2)
    // Past the send limits (20 an hour to one address, whatever the card): 429, nothing sent.
    const cards = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        makeCard(w.organization.id, w.owner.id, { firstName: `Card${i}`, lastName: 'X' }),
      ),
    )
    const statuses = []
    for (const card of cards) {
      statuses.push((await follow({ ...w, card }, 'target@example.test')).status)
    }
    expect(statuses).toContain(429)
    expect((await outboxTo(w, 'target@example.test')).length).toBe(20)
  })

  test('links are the tenant’s own, and no usable token rests in a table', async () => {
    const a = await world()
    const b = await world()
    const url = await followAndConfirm(a, 'iso@example.test')
    await edit(a, { jobTitle: 'Changed' })
    await runJobsNow()
    const [digest] = await digestsTo(a, 'iso@example.test')
    const stop = linkIn(digest?.text ?? '', '/follow/unsubscribe')
    // A's stop link on B's host changes nothing.
    const elsewhere = await settle(() =>
      stopRoute.action({
        request: formRequest(b.host, `${stop.pathname}${stop.search}`, {
          'List-Unsubscribe': 'One-Click',
        }),
        context: contextFor(b.host),
        params: {},
      }),
    )
    expect(elsewhere.status).toBe(400)
    expect((await followersOf(a))[0]?.state).toBe('confirmed')
    // B sees none of A's followers, even by asking for them.
    expect(await followersOf(b)).toEqual([])
    const seenByB = await withTenant(b.organization.id, (tx) => tx.select().from(cardFollowers))
    expect(seenByB).toEqual([])

    // At rest: the stored emails carry markers, not tokens; the follower row keeps no token.
    const token = url.searchParams.get('token') ?? ''
    const stored = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.organizationId, a.organization.id))
    const dump = JSON.stringify(stored) + JSON.stringify(await followersOf(a))
    expect(dump).not.toContain(token)
    expect(dump).not.toContain(stop.searchParams.get('token') ?? '')
    // A pending address's row has only the hash of its link's token.
    await follow(a, 'pending@example.test')
    const [pending] = (await followersOf(a)).filter((row) => row.email === 'pending@example.test')
    expect(pending?.confirmTokenHash).toMatch(/^[0-9a-f]{64}$/)
    const [message] = await outboxTo(a, 'pending@example.test')
    const pendingToken = linkIn(message?.text ?? '', '/follow/confirm').searchParams.get('token')
    expect(JSON.stringify(await followersOf(a))).not.toContain(pendingToken)
    expect(linkTokenOf('x')).not.toBe(pendingToken)
    // A's confirmation link opens nothing on B's host.
    const onB = await settle(() =>
      confirmRoute.loader({
        request: requestFor(b.host, `/follow/confirm?token=${pendingToken}`),
        context: contextFor(b.host),
        params: {},
      }),
    )
    expect(onB.status).toBe(404)
    expect(((await onB.json()) as { message: string }).message).toBe(FOLLOW_LINK_INVALID)
  })
})
