// Images live only while something references them, and uploads have a quota (issue 26 point 5,
// ADR 029): a removed photo or logo is not found at once (with or without a session, whatever
// its cache headers promised), the sweep deletes it after a grace, an image several rows share
// stays while one of them uses it, and an upload past the user's or the tenant's quota is
// refused with a message, never a 500. Runs on PGlite and, with TEST_DATABASE_URL, on Postgres.
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { getTableConfig } from 'drizzle-orm/pg-core'
import sharp from 'sharp'
import { afterEach, describe, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { enqueueDailyJobs } from '#app/jobs/worker.server'
import { setCardBackground, updateCard } from '#app/models/cards.server'
import { MEDIA_REFERENCES } from '#app/models/media.server'
import { setOrganizationBrandingImages } from '#app/models/organizations.server'
import { updateProfile } from '#app/models/users.server'
import { loader as mediaLoader } from '#app/routes/media.$file'
import { action as profileAction } from '#app/routes/profile._index'
import { action as uploadAction } from '#app/routes/resources.upload'
import { getDb, withTenant } from '#drizzle/db.server'
import * as schema from '#drizzle/schema'
import { jobs, media } from '#drizzle/schema'
import {
  contextFor,
  makeCard,
  makeOrganization,
  makeUser,
  replyErrors,
  sessionCookieFor,
  settle,
} from '#tests/factories'

afterEach(() => {
  delete process.env.MEDIA_QUOTA_USER_MB
  delete process.env.MEDIA_QUOTA_TENANT_MB
  resetEnvForTests()
})

async function signedIn(organizationId?: string) {
  const organization = organizationId ? { id: organizationId } : await makeOrganization()
  const [org] = await getDb()
    .select()
    .from(schema.organizations)
    .where(eq(schema.organizations.id, organization.id))
  if (!org) throw new Error('no organization')
  const user = await makeUser(org.id)
  const cookie = await sessionCookieFor(org.id, user.id)
  return { organization: org, user, cookie, host: `${org.slug}.localhost` }
}

/** A photo that stays large once re-encoded: noise does not compress. */
async function noisyPng(size = 220) {
  return sharp(randomBytes(size * size * 3), { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer()
}

type Uploaded = { mediaId: string; url: string }

async function upload(
  who: { host: string; cookie: string },
  bytes: Buffer,
  purpose = 'profilePicture',
) {
  const body = new FormData()
  body.set('purpose', purpose)
  body.set('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png')
  const request = new Request(`http://${who.host}/resources/upload`, {
    method: 'POST',
    body,
    headers: { Cookie: who.cookie, Origin: `http://${who.host}` },
  })
  return settle(() => uploadAction({ request, context: contextFor(who.host), params: {} }))
}

async function uploaded(who: { host: string; cookie: string }, bytes: Buffer, purpose?: string) {
  const response = await upload(who, bytes, purpose)
  expect(response.status).toBe(200)
  return (await response.json()) as Uploaded
}

/** The media route's answer, as a visitor or with a session cookie. */
async function fetchMedia(host: string, url: string, headers?: string | Record<string, string>) {
  const file = url.slice('/media/'.length)
  const sent = typeof headers === 'string' ? { Cookie: headers } : (headers ?? {})
  return settle(() =>
    mediaLoader({
      request: new Request(`http://${host}${url}`, { headers: sent }),
      context: contextFor(host),
      params: { file },
    }),
  )
}

async function statusOf(who: { host: string; cookie: string }, url: string) {
  const [visitor, member] = await Promise.all([
    fetchMedia(who.host, url),
    fetchMedia(who.host, url, who.cookie),
  ])
  expect(member.status).toBe(visitor.status)
  return visitor.status
}

const mediaRow = async (id: string) =>
  (await getDb().select().from(media).where(eq(media.id, id)))[0]

describe('an image nobody references any more', () => {
  test('a removed photo or logo answers 404 at once, with or without a session', async () => {
    const who = await signedIn()
    const { organization, user } = who
    const card = await makeCard(organization.id, user.id)
    const photo = await uploaded(who, await noisyPng(120))
    const logo = await uploaded(who, await noisyPng(100), 'brandLogo')

    // Before its form is saved, the upload is shown to its form, never cached.
    const pending = await fetchMedia(who.host, photo.url)
    expect(pending.status).toBe(200)
    expect(pending.headers.get('Cache-Control')).toBe('private, no-store')

    await withTenant(organization.id, async (tx) => {
      await updateCard(tx, organization.id, user.id, card.id, {
        profilePictureMediaId: photo.mediaId,
      })
      await setOrganizationBrandingImages(tx, organization.id, { logoMediaId: logo.mediaId })
    })
    const served = await fetchMedia(who.host, photo.url)
    expect(served.status).toBe(200)
    // Shared caches keep it for minutes, then ask again (issue 39 point 3): not a year, which
    // kept a removed photo in every cache that had fetched it.
    expect(served.headers.get('Cache-Control')).toBe('public, max-age=300, must-revalidate')
    const etag = served.headers.get('ETag') ?? ''
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    const revalidated = await fetchMedia(who.host, photo.url, { 'If-None-Match': etag })
    expect(revalidated.status).toBe(304)
    expect(await statusOf(who, logo.url)).toBe(200)

    await withTenant(organization.id, async (tx) => {
      await updateCard(tx, organization.id, user.id, card.id, { profilePictureMediaId: null })
      await setOrganizationBrandingImages(tx, organization.id, { logoMediaId: null })
    })
    expect(await statusOf(who, photo.url)).toBe(404)
    expect(await statusOf(who, logo.url)).toBe(404)
    // A cache asking again about the photo it kept hears that it is gone.
    expect((await fetchMedia(who.host, photo.url, { 'If-None-Match': etag })).status).toBe(404)
    // The bytes are still there (the grace): only the route refuses them.
    expect(await mediaRow(photo.mediaId)).toBeDefined()
  })

  test('an image several rows share stays while any of them references it', async () => {
    const who = await signedIn()
    const { organization, user } = who
    const [first, second] = [
      await makeCard(organization.id, user.id),
      await makeCard(organization.id, user.id),
    ]
    const bytes = await noisyPng(90)
    const photo = await uploaded(who, bytes)
    await withTenant(organization.id, async (tx) => {
      await updateCard(tx, organization.id, user.id, first.id, { logoMediaId: photo.mediaId })
      await updateCard(tx, organization.id, user.id, second.id, { logoMediaId: photo.mediaId })
      await updateProfile(tx, organization.id, user.id, { profilePictureMediaId: photo.mediaId })
    })
    await withTenant(organization.id, async (tx) => {
      await updateCard(tx, organization.id, user.id, first.id, { logoMediaId: null })
      await updateProfile(tx, organization.id, user.id, { profilePictureMediaId: null })
    })
    expect(await statusOf(who, photo.url)).toBe(200)
    await withTenant(organization.id, (tx) =>
      updateCard(tx, organization.id, user.id, second.id, { logoMediaId: null }),
    )
    expect(await statusOf(who, photo.url)).toBe(404)
    // Uploading the same bytes again makes it the form's pending image once more.
    expect((await uploaded(who, bytes)).mediaId).toBe(photo.mediaId)
    expect(await statusOf(who, photo.url)).toBe(200)
  })

  test('an upload never saved in a form stops answering after the grace', async () => {
    const who = await signedIn()
    const photo = await uploaded(who, await noisyPng(80))
    expect(await statusOf(who, photo.url)).toBe(200)
    await getDb()
      .update(media)
      .set({ pendingSince: sql`now() - interval '61 minutes'` })
      .where(eq(media.id, photo.mediaId))
    expect(await statusOf(who, photo.url)).toBe(404)
  })

  test('the queued sweep deletes images unreferenced for the grace, and nothing referenced or pending', async () => {
    const who = await signedIn()
    const { organization, user } = who
    const card = await makeCard(organization.id, user.id)
    const [kept, removed, fresh, removedJustNow] = [
      await uploaded(who, await noisyPng(60)),
      await uploaded(who, await noisyPng(61)),
      await uploaded(who, await noisyPng(62)),
      await uploaded(who, await noisyPng(63)),
    ]
    await withTenant(organization.id, async (tx) => {
      await updateCard(tx, organization.id, user.id, card.id, {
        logoMediaId: kept.mediaId,
        profilePictureMediaId: removed.mediaId,
      })
      await setCardBackground(tx, organization.id, user.id, card.id, {
        kind: 'image',
        mediaId: removedJustNow.mediaId,
      })
    })
    await withTenant(organization.id, async (tx) => {
      await updateCard(tx, organization.id, user.id, card.id, { profilePictureMediaId: null })
      await setCardBackground(tx, organization.id, user.id, card.id, {
        kind: 'color',
        value: '#ffffff',
      })
    })
    // The hourly housekeeping queues the sweep; its first pass only marks what is unreferenced.
    await enqueueDailyJobs()
    await runJobsNow()
    const [sweep] = await getDb().select().from(jobs).where(eq(jobs.name, 'media.sweep'))
    expect(sweep?.state).toBe('done')
    expect((await mediaRow(removed.mediaId))?.unreferencedSince).toBeInstanceOf(Date)
    expect(await mediaRow(removedJustNow.mediaId)).toBeDefined()

    // An hour later (as the grace counts it), the next sweep deletes it, and only it.
    await getDb()
      .update(media)
      .set({
        unreferencedSince: sql`now() - interval '61 minutes'`,
        pendingSince: sql`now() - interval '2 hours'`,
      })
      .where(eq(media.id, removed.mediaId))
    await getDb().update(jobs).set({ idempotencyKey: null }).where(eq(jobs.name, 'media.sweep'))
    await enqueueDailyJobs()
    await runJobsNow()
    expect(await mediaRow(removed.mediaId)).toBeUndefined()
    for (const still of [kept, fresh, removedJustNow]) {
      expect(await mediaRow(still.mediaId), still.url).toBeDefined()
    }
    expect(await statusOf(who, kept.url)).toBe(200)
  })

  test('every column that references media (each foreign key to media in drizzle/schema.ts) is one the route and the sweep check', () => {
    const inSchema: string[] = []
    for (const table of Object.values(schema)) {
      if (!table || typeof table !== 'object' || !('getSQL' in table)) continue
      let config: ReturnType<typeof getTableConfig>
      try {
        config = getTableConfig(table as Parameters<typeof getTableConfig>[0])
      } catch {
        continue
      }
      for (const key of config.foreignKeys) {
        const reference = key.reference()
        if (getTableConfig(reference.foreignTable).name !== 'media') continue
        const columns = reference.columns.map((column) => column.name)
        const id = columns.find((name) => name !== 'organization_id' && name !== 'id')
        inSchema.push(`${config.name}.${id}`)
      }
    }
    const checked = MEDIA_REFERENCES.flatMap((reference) =>
      reference.columns.map((column) => `${getTableConfig(reference.table).name}.${column.name}`),
    )
    expect(inSchema.length).toBeGreaterThanOrEqual(7)
    expect(checked.sort()).toEqual(inSchema.sort())
  })
})

describe('upload quotas', () => {
  test('past the user quota and then the tenant quota an upload is refused with a message (413), and identical bytes still pass', async () => {
    process.env.MEDIA_QUOTA_USER_MB = '0.1'
    process.env.MEDIA_QUOTA_TENANT_MB = '0.12'
    resetEnvForTests()
    const first = await signedIn()
    const stored: Buffer[] = []
    let refused: Response | undefined
    for (let i = 0; i < 10 && !refused; i++) {
      const bytes = await noisyPng()
      const response = await upload(first, bytes)
      if (response.status === 200) stored.push(bytes)
      else refused = response
    }
    expect(stored.length).toBeGreaterThan(0)
    expect(refused?.status).toBe(413)
    expect(await refused?.json()).toEqual({
      error: expect.stringMatching(
        /^Upload refused: your images already use \d+ kB of your 102 kB\. Remove images you no longer use/,
      ),
    })
    // Bytes the tenant stores already take no more room.
    expect((await upload(first, stored[0] as Buffer)).status).toBe(200)

    const second = await signedIn(first.organization.id)
    let tenantRefusal: Response | undefined
    for (let i = 0; i < 10 && !tenantRefusal; i++) {
      const response = await upload(second, await noisyPng())
      if (response.status !== 200) tenantRefusal = response
    }
    expect(tenantRefusal?.status).toBe(413)
    expect(await tenantRefusal?.json()).toEqual({
      error: expect.stringMatching(
        /^Upload refused: this agency's images already use \d+ kB of its 123 kB\. Ask your agency administrator/,
      ),
    })
    const [total] = await getDb()
      .select({ bytes: sql<string>`sum(${media.byteSize})::text` })
      .from(media)
      .where(eq(media.organizationId, first.organization.id))
    expect(Number(total?.bytes)).toBeLessThanOrEqual(0.12 * 1024 * 1024)
  })

  test('a form that sends an image past the quota is answered 400 with the message beside the field', async () => {
    process.env.MEDIA_QUOTA_USER_MB = '0.001'
    resetEnvForTests()
    const who = await signedIn()
    const body = new FormData()
    const fields = {
      intent: 'profile',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: who.user.email,
    }
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    const photo = new Blob([new Uint8Array(await noisyPng(60))], { type: 'image/png' })
    body.set('profilePictureFile', photo, 'me.png')
    const before = await getDb().select({ id: media.id }).from(media)
    const response = await settle(() =>
      profileAction({
        request: new Request(`http://${who.host}/profile?index`, {
          method: 'POST',
          headers: { Cookie: who.cookie },
          body,
        }),
        context: contextFor(who.host),
        params: {},
      }),
    )
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).profilePicture).toEqual([
      expect.stringMatching(/^Upload refused: your images already use 0 kB of your 1 kB\./),
    ])
    expect(await getDb().select({ id: media.id }).from(media)).toEqual(before)
  })
})
