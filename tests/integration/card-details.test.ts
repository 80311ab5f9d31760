// Issue 28 through the routes: the card editor saves a bio, pronouns, typed
// phones, an address and ordered links (refusing a wrong link next to its row, changing nothing;
// a row moved without JavaScript comes back in its new place and is saved there), and the public
// card page, its link preview and its vCard carry them.
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { updateCard } from '#app/models/cards.server'
import { storeMedia } from '#app/models/media.server'
import { loader as cardLoader, meta as cardMeta } from '#app/routes/card.$ref'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import {
  action as editAction,
  loader as editLoader,
} from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { action as profileAction } from '#app/routes/profile._index'
import { linkHostMessage } from '#app/validation/card-details'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardLinks, digitalCards } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { readWithIcal, readWithVcf } from '#tests/vcard-readers'

async function owner() {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id, { firstName: 'Ada', lastName: 'Lovelace' })
  const cookie = await sessionCookieFor(organization.id, user.id)
  const card = await makeCard(organization.id, user.id, {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.test',
    phoneNumber: '+44 20 7946 0000',
  })
  return { organization, user, cookie, card, host: `${organization.slug}.localhost` }
}

const DETAILS = {
  intent: 'details',
  title: 'Work',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.test',
  phoneNumber: '+44 20 7946 0000',
  phoneType: 'mobile',
  phone2: '+44 20 7946 0001',
  phone2Type: 'work',
  bio: 'Poetical science for engines.',
  pronouns: 'she/her',
  addressStreet: '12 St James Square',
  addressCity: 'London',
  addressPostalCode: 'SW1Y 4JH',
  addressCountry: 'United Kingdom',
  'links[0].kind': 'github',
  'links[0].url': 'github.com/ada',
  'links[1].kind': 'custom',
  'links[1].label': '',
  'links[1].url': '',
  'links[2].kind': 'linkedin',
  'links[2].url': 'https://www.linkedin.com/in/ada',
}

function edit(who: Awaited<ReturnType<typeof owner>>, fields: Record<string, string>) {
  return settle(() =>
    editAction({
      request: formRequest(
        who.host,
        `/dashboard/end-user/digital-cards/edit/${who.card.id}`,
        fields,
        who.cookie,
      ),
      context: contextFor(who.host),
      params: { cardId: who.card.id },
    }),
  )
}

const linksOf = (cardId: string) =>
  getDb()
    .select({ position: cardLinks.position, kind: cardLinks.kind, url: cardLinks.url })
    .from(cardLinks)
    .where(eq(cardLinks.cardId, cardId))
    .orderBy(cardLinks.position)

describe('the card editor', () => {
  test('saves the details and the links in order, blank rows dropped', async () => {
    const who = await owner()
    const response = await edit(who, DETAILS)
    expect(response).toHaveRedirect(
      `/dashboard/end-user/digital-cards/edit/${who.card.id}?step=details`,
    )
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, who.card.id))
    expect(row).toMatchObject({
      bio: 'Poetical science for engines.',
      pronouns: 'she/her',
      phone2: '+44 20 7946 0001',
      phone2Type: 'work',
      addressCity: 'London',
    })
    expect(await linksOf(who.card.id)).toEqual([
      { position: 0, kind: 'github', url: 'https://github.com/ada' },
      { position: 1, kind: 'linkedin', url: 'https://www.linkedin.com/in/ada' },
    ])
    // The editor shows them back.
    const loaded = (await editLoader({
      request: requestFor(who.host, `/dashboard/end-user/digital-cards/edit/${who.card.id}`, {
        headers: { Cookie: who.cookie },
      }),
      context: contextFor(who.host),
      params: { cardId: who.card.id },
    })) as { card: { links: unknown[]; bio: string } }
    expect(loaded.card.bio).toBe('Poetical science for engines.')
    expect(loaded.card.links).toHaveLength(2)
    // Saving again with one link fewer removes it.
    await edit(who, { ...DETAILS, 'links[0].url': '' })
    expect(await linksOf(who.card.id)).toEqual([
      { position: 0, kind: 'linkedin', url: 'https://www.linkedin.com/in/ada' },
    ])
  })

  test("a link off its kind's service is refused next to its row, and nothing changes", async () => {
    const who = await owner()
    await edit(who, DETAILS)
    const response = await edit(who, {
      ...DETAILS,
      bio: 'Changed',
      'links[2].url': 'https://evil.example.test/in/ada',
    })
    expect(response.status).toBe(400)
    expect(await replyErrors(response)).toEqual({
      'links[2].url': [linkHostMessage('linkedin')],
    })
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, who.card.id))
    expect(row?.bio).toBe('Poetical science for engines.')
    expect(await linksOf(who.card.id)).toHaveLength(2)
  })
})

/** What conform's "Move up"/"Move down" buttons post as `__intent__` (form.reorder). */
const reorder = (from: number, to: number) =>
  JSON.stringify({ type: 'reorder', payload: { name: 'links', from, to } })

describe('moving a link', () => {
  test('without JavaScript: the form comes back with the rows moved, nothing saved; saving keeps the order', async () => {
    const who = await owner()
    await edit(who, DETAILS)
    const moved = await edit(who, { ...DETAILS, bio: 'Not yet', __intent__: reorder(2, 0) })
    // Not a refusal: no message, and the rows in their new order for the form to show.
    expect(moved.status).toBe(200)
    const body = (await moved.json()) as {
      error: string | null
      result: { initialValue: { links: { kind: string; url?: string }[] } }
    }
    expect(body.error).toBeNull()
    expect(body.result.initialValue.links.map((link) => link.kind)).toEqual([
      'linkedin',
      'github',
      'custom',
    ])
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, who.card.id))
    expect(row?.bio).toBe('Poetical science for engines.')
    expect((await linksOf(who.card.id)).map((link) => link.kind)).toEqual(['github', 'linkedin'])
    // The form posted again, in the order it now shows, is saved in that order.
    await edit(who, {
      ...DETAILS,
      'links[0].kind': 'linkedin',
      'links[0].url': 'https://www.linkedin.com/in/ada',
      'links[2].kind': 'github',
      'links[2].url': 'github.com/ada',
    })
    expect(await linksOf(who.card.id)).toEqual([
      { position: 0, kind: 'linkedin', url: 'https://www.linkedin.com/in/ada' },
      { position: 1, kind: 'github', url: 'https://github.com/ada' },
    ])
  })
})

// The profile repeats none of the card's fields (issue 41 point 11, ADR 078): its Business Card
// tab shows the card and links to the editor, where the details above are saved. The tests that
// posted the profile's details form moved here, to the editor.
describe('the profile', () => {
  test("no longer writes a card's details: the old form is refused and the card keeps them", async () => {
    const who = await owner()
    await edit(who, DETAILS)
    const response = await settle(() =>
      profileAction({
        request: formRequest(
          who.host,
          '/profile/end-user?tab=card',
          { intent: 'card-details', cardId: who.card.id, bio: 'Changed', pronouns: 'they/them' },
          who.cookie,
        ),
        context: contextFor(who.host),
        params: {},
      }),
    )
    expect(response.status).toBe(400)
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, who.card.id))
    expect(row).toMatchObject({ bio: 'Poetical science for engines.', pronouns: 'she/her' })
  })

  test("the editor: another user's card is not opened, and keeps its details", async () => {
    const who = await owner()
    const other = await makeUser(who.organization.id)
    const theirs = await makeCard(who.organization.id, other.id, { bio: 'Theirs' })
    const response = await settle(() =>
      editAction({
        request: formRequest(
          who.host,
          `/dashboard/end-user/digital-cards/edit/${theirs.id}`,
          { ...DETAILS, bio: 'Taken over' },
          who.cookie,
        ),
        context: contextFor(who.host),
        params: { cardId: theirs.id },
      }),
    )
    // Sent back to the list, as for any card that is not one's own (cards.test.ts).
    expect(response).toHaveRedirect('/dashboard/end-user/digital-cards')
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, theirs.id))
    expect(row?.bio).toBe('Theirs')
    expect(await linksOf(theirs.id)).toEqual([])
  })
})

describe('the public card and its vCard', () => {
  test('the link preview describes the card by its bio, else by its title line', async () => {
    const who = await owner()
    const description = async () => {
      const page = (await cardLoader({
        request: requestFor(who.host, `/card/${who.card.id}`),
        context: contextFor(who.host),
        params: { ref: who.card.id },
      })) as unknown as { data: unknown }
      const tags = cardMeta({ data: page.data } as Parameters<typeof cardMeta>[0]) as {
        name?: string
        property?: string
        content?: string
      }[]
      return {
        meta: tags.find((tag) => tag.name === 'description')?.content,
        og: tags.find((tag) => tag.property === 'og:description')?.content,
      }
    }
    await withTenant(who.organization.id, (tx) =>
      updateCard(tx, who.organization.id, who.user.id, who.card.id, {
        jobTitle: 'Analyst',
        company: 'Engines',
      }),
    )
    expect(await description()).toEqual({ meta: 'Analyst at Engines', og: 'Analyst at Engines' })
    await edit(who, { ...DETAILS, bio: 'Poetical science\nfor engines.' })
    expect(await description()).toEqual({
      meta: 'Poetical science for engines.',
      og: 'Poetical science for engines.',
    })
  })

  test('carry every detail: the page as actions, the vCard as fields two parsers read back', async () => {
    const who = await owner()
    await edit(who, DETAILS)
    const photo = await sharp({
      create: { width: 500, height: 500, channels: 3, background: '#884422' },
    })
      .jpeg()
      .toBuffer()
    await withTenant(who.organization.id, async (tx) => {
      const stored = await storeMedia(tx, who.organization.id, {
        bytes: photo,
        contentType: 'image/jpeg',
        width: 500,
        height: 500,
        purpose: 'profile-picture',
      })
      await updateCard(tx, who.organization.id, who.user.id, who.card.id, {
        profilePictureMediaId: stored.id,
      })
    })
    const page = (await cardLoader({
      request: requestFor(who.host, `/card/${who.card.id}`),
      context: contextFor(who.host),
      params: { ref: who.card.id },
    })) as unknown as { data: { extras: { links: unknown[]; phone2: string; bio: string } } }
    expect(page.data.extras).toMatchObject({
      bio: 'Poetical science for engines.',
      phone2: '+44 20 7946 0001',
      links: [
        { kind: 'github', label: '', url: 'https://github.com/ada' },
        { kind: 'linkedin', label: '', url: 'https://www.linkedin.com/in/ada' },
      ],
    })
    const response = await vcardLoader({
      request: requestFor(who.host, `/card/${who.card.id}/vcard`),
      context: contextFor(who.host),
      params: { ref: who.card.id },
    })
    const text = await response.text()
    for (const read of [readWithVcf, readWithIcal]) {
      const card = read(text)
      expect(card, read.name).toMatchObject({
        fn: 'Ada Lovelace',
        note: 'Poetical science for engines.',
        pronouns: 'she/her',
        adr: ['', '', '12 St James Square', 'London', '', 'SW1Y 4JH', 'United Kingdom'],
      })
      expect(card.tels, read.name).toEqual([
        { types: ['cell'], value: '+44 20 7946 0000' },
        { types: ['work'], value: '+44 20 7946 0001' },
      ])
      expect(card.socialProfiles.map((p) => p.types[0])).toEqual(['github', 'linkedin'])
      expect(card.urls.map((u) => u.value)).toContain('https://www.linkedin.com/in/ada')
      const meta = await sharp(Buffer.from(card.photo, 'base64')).metadata()
      expect(meta).toMatchObject({ format: 'jpeg', width: 256 })
    }
  })
})
