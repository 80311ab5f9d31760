// Issue 41 point 6 (ADR 083): a card's cover image and video. The cover goes through the card
// editor's image field (the upload route, sharp, the organization's own media); the video is one
// of four YouTube or Vimeo forms, kept as provider and id. The recipient's page shows both.
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { action as editAction } from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { action as uploadAction } from '#app/routes/resources.upload'
import { VIDEO_URL_MESSAGE } from '#app/validation/card-video'
import { getDb } from '#drizzle/db.server'
import { digitalCards, media } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
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

async function owner() {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id, { firstName: 'Ada', lastName: 'Lovelace' })
  const card = await makeCard(organization.id, user.id, { title: 'Mine' })
  return {
    organizationId: organization.id,
    host: `${organization.slug}.localhost`,
    cookie: await sessionCookieFor(organization.id, user.id),
    card,
  }
}
type Owner = Awaited<ReturnType<typeof owner>>

function edit(who: Owner, fields: Record<string, string>) {
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

const details = (videoUrl: string) => ({
  intent: 'details',
  title: 'Mine',
  firstName: 'Ada',
  lastName: 'Lovelace',
  videoUrl,
})

async function stored(cardId: string) {
  const [row] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, cardId))
  return row
}

async function publicPage(who: Owner) {
  const page = (await cardLoader({
    request: requestFor(who.host, `/card/${who.card.id}`),
    context: contextFor(who.host),
    params: { ref: who.card.id },
  })) as unknown as {
    data: { card: { coverUrl: string | null }; extras: { videoUrl: string } }
  }
  return page.data
}

async function uploadCover(who: Owner, width = 1600, height = 900) {
  const png = await sharp({
    create: { width, height, channels: 3, background: '#336699' },
  })
    .png()
    .toBuffer()
  const body = new FormData()
  body.set('purpose', 'cover')
  body.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png')
  const request = new Request(`http://${who.host}/resources/upload`, {
    method: 'POST',
    body,
    headers: { Cookie: who.cookie },
  })
  const response = await settle(() =>
    uploadAction({ request, context: contextFor(who.host), params: {} }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as { mediaId: string; url: string }
}

describe('a card video', () => {
  test.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'youtube', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'youtube', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/aBcDeFgHiJk', 'youtube', 'aBcDeFgHiJk'],
    ['vimeo.com/76979871', 'vimeo', '76979871'],
    ['https://vimeo.com/76979871', 'vimeo', '76979871'],
  ])('%s is kept as %s %s and shown as its page', async (url, provider, id) => {
    const who = await owner()
    expect((await edit(who, details(url))).status).toBe(302)
    expect(await stored(who.card.id)).toMatchObject({ videoProvider: provider, videoId: id })
    const page = await publicPage(who)
    expect(page.extras.videoUrl).toBe(
      provider === 'youtube' ? `https://www.youtube.com/watch?v=${id}` : `https://vimeo.com/${id}`,
    )
  })

  test('anything else is refused next to the field, never stored, never a 500', async () => {
    const who = await owner()
    for (const url of [
      'https://example.test/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/playlist?list=PL123',
      'https://www.youtube.com/watch?v=short',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://youtube.com.evil.test/watch?v=dQw4w9WgXcQ',
      'https://vimeo.com/channels/staffpicks',
      'https://vimeo.com/76979871/extra',
      'javascript:alert(1)',
      'ftp://youtu.be/dQw4w9WgXcQ',
      'https://user:pass@youtu.be/dQw4w9WgXcQ',
      `https://youtu.be/${'x'.repeat(400)}`,
    ]) {
      const before = await databaseChecksum()
      const response = await edit(who, details(url))
      expect(response.status, url).toBe(400)
      expect((await replyErrors(response)).videoUrl, url).toEqual([VIDEO_URL_MESSAGE])
      expect(await databaseChecksum()).toEqual(before)
    }
  })

  test('an emptied field removes the video', async () => {
    const who = await owner()
    await edit(who, details('https://youtu.be/dQw4w9WgXcQ'))
    expect((await edit(who, details(''))).status).toBe(302)
    expect(await stored(who.card.id)).toMatchObject({ videoProvider: null, videoId: null })
    expect((await publicPage(who)).extras.videoUrl).toBe('')
  })
})

describe('a card cover image', () => {
  test('uploaded through the image field, saved with the visuals, shown on the card page, removable', async () => {
    const who = await owner()
    const cover = await uploadCover(who)
    // Scaled by sharp to the cover's maxima (validation/images.ts).
    const [row] = await getDb().select().from(media).where(eq(media.id, cover.mediaId))
    expect(row?.width).toBeLessThanOrEqual(1200)
    expect(row?.height).toBeLessThanOrEqual(600)
    expect((await edit(who, { intent: 'visuals', coverMediaId: cover.mediaId })).status).toBe(302)
    expect((await stored(who.card.id))?.coverMediaId).toBe(cover.mediaId)
    expect((await publicPage(who)).card.coverUrl).toBe(cover.url)
    // The upload is no longer pending once the card names it (the media trigger of 0038).
    const [kept] = await getDb().select().from(media).where(eq(media.id, cover.mediaId))
    expect(kept?.pendingSince).toBeNull()
    // Remove.
    expect((await edit(who, { intent: 'visuals', coverMediaId: 'none' })).status).toBe(302)
    expect((await stored(who.card.id))?.coverMediaId).toBeNull()
    expect((await publicPage(who)).card.coverUrl).toBeNull()
  })

  test("another organization's image, or a made-up id, is refused next to the field", async () => {
    const who = await owner()
    const other = await owner()
    const theirs = await uploadCover(other, 300, 100)
    for (const coverMediaId of [theirs.mediaId, '00000000-0000-4000-8000-000000000000', 'x']) {
      const before = await databaseChecksum()
      const response = await edit(who, { intent: 'visuals', coverMediaId })
      expect(response.status, coverMediaId).toBe(400)
      expect(Object.keys(await replyErrors(response))).toContain('cover')
      expect(await databaseChecksum()).toEqual(before)
    }
    expect((await stored(who.card.id))?.coverMediaId).toBeNull()
  })
})
