import { count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { deleteCard, setDefaultCard } from '#app/models/cards.server'
import {
  action as listAction,
  loader as listLoader,
} from '#app/routes/dashboard.end-user.digital-cards._index'
import {
  action as editAction,
  loader as editLoader,
} from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { loader as profileLoader } from '#app/routes/profile._index'
import { loader as shareLoader } from '#app/routes/qrcode.$cardId'
import { action as uploadAction } from '#app/routes/resources.upload'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, digitalCards, media, organizations } from '#drizzle/schema'
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
import { blankPng } from '#tests/images'

async function signedInUser(organizationId?: string) {
  const [existing] = organizationId
    ? await getDb().select().from(organizations).where(eq(organizations.id, organizationId))
    : []
  const org = existing ?? (await makeOrganization())
  const user = await makeUser(org.id, { firstName: 'Owner', lastName: 'Person' })
  const cookie = await sessionCookieFor(org.id, user.id)
  return { organization: org, user, cookie, host: `${org.slug}.localhost` }
}

const defaults = async (userId: string) =>
  (await getDb().select().from(digitalCards).where(eq(digitalCards.userId, userId)))
    .filter((c) => c.isDefault)
    .map((c) => c.id)

describe('default card rules', () => {
  test('first card is default; setting moves it; deleting the default promotes the oldest', async () => {
    const { organization, user } = await signedInUser()
    const first = await makeCard(organization.id, user.id, { title: 'one' })
    const second = await makeCard(organization.id, user.id, { title: 'two' })
    const third = await makeCard(organization.id, user.id, { title: 'three' })
    expect(await defaults(user.id)).toEqual([first.id])
    await withTenant(organization.id, (tx) =>
      setDefaultCard(tx, organization.id, user.id, third.id),
    )
    expect(await defaults(user.id)).toEqual([third.id])
    await withTenant(organization.id, (tx) => deleteCard(tx, organization.id, user.id, third.id))
    expect(await defaults(user.id)).toEqual([first.id])
    await withTenant(organization.id, (tx) => deleteCard(tx, organization.id, user.id, first.id))
    expect(await defaults(user.id)).toEqual([second.id])
  })
})

async function upload(host: string, cookie: string, file: Blob, purpose = 'profilePicture') {
  const body = new FormData()
  body.set('purpose', purpose)
  body.set('file', file, 'upload.png')
  const request = new Request(`http://${host}/resources/upload`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
  return settle(() => uploadAction({ request, context: contextFor(host), params: {} }))
}

describe('uploads', () => {
  test.each([
    ['a text file named .png', () => Buffer.from('just some text, definitely not a PNG')],
    [
      'a 6 MB image',
      () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(6 * 1024 * 1024)]),
    ],
    ['a 20000×20000 PNG', () => blankPng(20000, 20000)],
  ])('%s is refused with the spec message and nothing is stored', async (_name, makeBytes) => {
    const { cookie, host } = await signedInUser()
    const [before] = await getDb().select({ n: count() }).from(media)
    const response = await upload(host, cookie, new Blob([makeBytes()], { type: 'image/png' }))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'Invalid file. Please upload a JPG, PNG, or WebP image under 5MB.',
    })
    const [after] = await getDb().select({ n: count() }).from(media)
    expect(after?.n).toBe(before?.n)
  })

  test('a real image is re-encoded and stored once by content hash', async () => {
    const { organization, cookie, host } = await signedInUser()
    const png = await sharp({
      create: { width: 900, height: 900, channels: 3, background: '#0f0' },
    })
      .png()
      .toBuffer()
    const first = await upload(host, cookie, new Blob([png], { type: 'image/png' }))
    const second = await upload(host, cookie, new Blob([png], { type: 'image/png' }))
    const a = (await first.json()) as { mediaId: string; url: string }
    const b = (await second.json()) as { mediaId: string; url: string }
    expect(a.url).toMatch(/^\/media\/[0-9a-f]{64}\.jpg$/)
    expect(b.mediaId).toBe(a.mediaId)
    const rows = await getDb().select().from(media).where(eq(media.organizationId, organization.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ contentType: 'image/jpeg', width: 500, height: 500 })
  })

  test('signed out uploads are sent to sign in', async () => {
    const organization = await makeOrganization()
    const host = `${organization.slug}.localhost`
    const response = await upload(host, '', new Blob([Buffer.from('x')]))
    expect(response.status).toBe(302)
  })
})

describe('card ownership', () => {
  async function scenario() {
    const owner = await signedInUser()
    const card = await makeCard(owner.organization.id, owner.user.id, { title: 'Mine' })
    const sameOrg = await signedInUser(owner.organization.id)
    const otherOrg = await signedInUser()
    return { owner, card, sameOrg, otherOrg }
  }

  async function snapshot(cardId: string) {
    return getDb().select().from(digitalCards).where(eq(digitalCards.id, cardId))
  }

  test('another user (same or other organization) cannot view, edit, default or delete a card', async () => {
    const { owner, card, sameOrg, otherOrg } = await scenario()
    const before = await snapshot(card.id)
    for (const intruder of [sameOrg, otherOrg]) {
      const ctx = () => contextFor(intruder.host)
      const headers = { Cookie: intruder.cookie }
      const view = await settle(() =>
        shareLoader({
          request: requestFor(intruder.host, `/qrcode/${card.id}`, { headers }),
          context: ctx(),
          params: { cardId: card.id },
        }),
      )
      // The QR screen is public within the tenant (ADR 009), without the owner's Edit link;
      // another tenant's card is not found.
      if (intruder === sameOrg) {
        expect(view.status).toBe(200)
        expect(await view.json()).toMatchObject({ status: 'card', editPath: null })
      } else {
        expect(view).toHaveRedirect('/dashboard/end-user/digital-cards')
      }
      const edit = await settle(() =>
        editLoader({
          request: requestFor(intruder.host, `/dashboard/end-user/digital-cards/edit/${card.id}`, {
            headers,
          }),
          context: ctx(),
          params: { cardId: card.id },
        }),
      )
      expect(edit).toHaveRedirect('/dashboard/end-user/digital-cards')
      const save = await settle(() =>
        editAction({
          request: formRequest(
            intruder.host,
            `/dashboard/end-user/digital-cards/edit/${card.id}`,
            {
              intent: 'details',
              title: 'Hacked',
              firstName: 'H',
              lastName: 'H',
            },
            intruder.cookie,
          ),
          context: ctx(),
          params: { cardId: card.id },
        }),
      )
      expect(save.status).toBe(302)
      for (const intent of ['set-default', 'delete']) {
        const response = await settle(() =>
          listAction({
            request: formRequest(
              intruder.host,
              '/dashboard/end-user/digital-cards',
              { intent, cardId: card.id },
              intruder.cookie,
            ),
            context: ctx(),
            params: {},
          }),
        )
        expect(response.status).toBe(404)
      }
    }
    expect(await snapshot(card.id)).toEqual(before)
    // The owner still sees it.
    const list = await settle(() =>
      listLoader({
        request: requestFor(owner.host, '/dashboard/end-user/digital-cards', {
          headers: { Cookie: owner.cookie },
        }),
        context: contextFor(owner.host),
        params: {},
      }),
    )
    const body = (await list.json()) as { cards: { id: string }[] }
    expect(body.cards.map((c) => c.id)).toEqual([card.id])
  })

  test('duplicating needs a profile with names', async () => {
    const { organization } = await signedInUser()
    const nameless = await makeUser(organization.id, { firstName: '', lastName: '' })
    const cookie = await sessionCookieFor(organization.id, nameless.id)
    const host = `${organization.slug}.localhost`
    const response = await settle(() =>
      listAction({
        request: formRequest(
          host,
          '/dashboard/end-user/digital-cards',
          { intent: 'create', method: 'duplicate' },
          cookie,
        ),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toBe(
      'Profile must have a first and last name',
    )
  })

  test('background values other than presets, hex and own media are refused', async () => {
    const { owner, card } = await scenario()
    const attempts: Record<string, string>[] = [
      { kind: 'color', value: 'red;}body{background:url(x)' },
      { kind: 'gradient', value: 'linear-gradient(red,blue)' },
      {
        kind: 'image',
        mediaId: '00000000-0000-4000-8000-000000000000',
        backgroundMediaId: '00000000-0000-4000-8000-000000000000',
      },
    ]
    for (const fields of attempts) {
      const response = await settle(() =>
        editAction({
          request: formRequest(
            owner.host,
            `/dashboard/end-user/digital-cards/edit/${card.id}`,
            { intent: 'background', ...fields },
            owner.cookie,
          ),
          context: contextFor(owner.host),
          params: { cardId: card.id },
        }),
      )
      expect(response.status).toBe(400)
    }
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, card.id))
    expect(row?.backgroundValue).toBe('#ffffff')
  })
  test("an image background is only ever the checked media: another tenant's id in a side field is ignored", async () => {
    const { owner, card, otherOrg } = await scenario()
    const png = async (color: string) =>
      new Blob(
        [
          await sharp({ create: { width: 60, height: 60, channels: 3, background: color } })
            .png()
            .toBuffer(),
        ],
        { type: 'image/png' },
      )
    const mine = (await (await upload(owner.host, owner.cookie, await png('#123456'))).json()) as {
      mediaId: string
    }
    const theirs = (await (
      await upload(otherOrg.host, otherOrg.cookie, await png('#654321'))
    ).json()) as { mediaId: string }
    const response = await settle(() =>
      editAction({
        request: formRequest(
          owner.host,
          `/dashboard/end-user/digital-cards/edit/${card.id}`,
          {
            intent: 'background',
            kind: 'image',
            mediaId: theirs.mediaId,
            backgroundMediaId: mine.mediaId,
          },
          owner.cookie,
        ),
        context: contextFor(owner.host),
        params: { cardId: card.id },
      }),
    )
    expect(response.status).toBe(200)
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, card.id))
    expect(row).toMatchObject({ backgroundKind: 'image', backgroundMediaId: mine.mediaId })
  })
})

describe('card details', () => {
  test('saving details (with the noindex option) changes only the owner card', async () => {
    const owner = await signedInUser()
    const card = await makeCard(owner.organization.id, owner.user.id, { title: 'Before' })
    const response = await settle(() =>
      editAction({
        request: formRequest(
          owner.host,
          `/dashboard/end-user/digital-cards/edit/${card.id}`,
          {
            intent: 'details',
            title: 'After',
            firstName: 'Ann',
            lastName: 'Bee',
            website: 'javascript:alert(1)',
          },
          owner.cookie,
        ),
        context: contextFor(owner.host),
        params: { cardId: card.id },
      }),
    )
    expect(response.status).toBe(400)
    const ok = await settle(() =>
      editAction({
        request: formRequest(
          owner.host,
          `/dashboard/end-user/digital-cards/edit/${card.id}`,
          {
            intent: 'details',
            title: 'After',
            firstName: 'Ann',
            lastName: 'Bee',
            noindex: 'on',
            userId: 'x',
            organizationId: 'y',
          },
          owner.cookie,
        ),
        context: contextFor(owner.host),
        params: { cardId: card.id },
      }),
    )
    // Save is the one step (issue 41 point 5): it stays on the tab, says so, and is the update
    // the activity shows; the refused post before it recorded nothing.
    expect(ok).toHaveRedirect(`/dashboard/end-user/digital-cards/edit/${card.id}?step=details`)
    await expect(ok).toSendToast('Card updated successfully')
    const updates = await getDb()
      .select({ entityId: auditEvents.entityId })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'card.updated'))
    expect(updates).toEqual([{ entityId: card.id }])
    const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, card.id))
    expect(row).toMatchObject({
      title: 'After',
      firstName: 'Ann',
      noindex: true,
      userId: owner.user.id,
      organizationId: owner.organization.id,
    })
  })
})

describe('audit of default and background changes (spec §3)', () => {
  test('setting the default card and changing a background write audit events shown on the Activity tab', async () => {
    const owner = await signedInUser()
    const first = await makeCard(owner.organization.id, owner.user.id, { title: 'First' })
    const second = await makeCard(owner.organization.id, owner.user.id, { title: 'Second' })
    const setDefault = await settle(() =>
      listAction({
        request: formRequest(
          owner.host,
          '/dashboard/end-user/digital-cards',
          { intent: 'set-default', cardId: second.id },
          owner.cookie,
        ),
        context: contextFor(owner.host),
        params: {},
      }),
    )
    expect(setDefault.status).toBe(302)
    const background = await settle(() =>
      editAction({
        request: formRequest(
          owner.host,
          `/dashboard/end-user/digital-cards/edit/${first.id}`,
          { intent: 'background', kind: 'color', value: '#111827' },
          owner.cookie,
        ),
        context: contextFor(owner.host),
        params: { cardId: first.id },
      }),
    )
    expect(background.status).toBe(200)
    const events = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorUserId, owner.user.id))
    expect(events.map((e) => [e.action, e.entityId])).toEqual(
      expect.arrayContaining([
        ['card.default_set', second.id],
        ['card.background_set', first.id],
      ]),
    )
    const profile = await settle(() =>
      profileLoader({
        request: requestFor(owner.host, '/profile/end-user', {
          headers: { Cookie: owner.cookie },
        }),
        context: contextFor(owner.host),
        params: {},
      }),
    )
    const labels = ((await profile.json()) as { activity: { label: string }[] }).activity.map(
      (a) => a.label,
    )
    expect(labels).toEqual(
      expect.arrayContaining(['Changed your default card', 'Changed a card background']),
    )
  })

  test("another user's default or background change writes no audit event", async () => {
    const owner = await signedInUser()
    const card = await makeCard(owner.organization.id, owner.user.id, { title: 'Mine' })
    const intruder = await signedInUser(owner.organization.id)
    await settle(() =>
      listAction({
        request: formRequest(
          intruder.host,
          '/dashboard/end-user/digital-cards',
          { intent: 'set-default', cardId: card.id },
          intruder.cookie,
        ),
        context: contextFor(intruder.host),
        params: {},
      }),
    )
    await settle(() =>
      editAction({
        request: formRequest(
          intruder.host,
          `/dashboard/end-user/digital-cards/edit/${card.id}`,
          { intent: 'background', kind: 'color', value: '#111827' },
          intruder.cookie,
        ),
        context: contextFor(intruder.host),
        params: { cardId: card.id },
      }),
    )
    const events = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorUserId, intruder.user.id))
    expect(events).toEqual([])
  })
})
