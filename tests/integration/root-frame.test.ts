// What every signed-in page's frame shows of the person (the root loader: avatar, appearance, a
// scheduled account deletion) now comes with the session, in its one statement (issue 44 point
// 3): the figures are the person's own, in their organization only, and the defaults without.
import { beforeAll, expect, test } from 'vitest'
import { scheduleAccountDeletion } from '#app/models/account-deletions.server'
import { storeMedia } from '#app/models/media.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { updateProfile } from '#app/models/users.server'
import { loader as rootLoader } from '#app/root'
import { APPEARANCE_DEFAULTS } from '#app/validation/appearance'
import { withTenant } from '#drizzle/db.server'
import {
  contextFor,
  makeOrganization,
  makePng,
  makeUser,
  requestFor,
  sessionCookieFor,
} from '#tests/factories'

let host = ''
let framed = { cookie: '', avatar: '', scheduledFor: new Date(0) }
let plain = { cookie: '' }

async function rootFor(cookie: string) {
  return rootLoader({
    request: requestFor(host, '/', { headers: { Cookie: cookie } }),
    context: contextFor(host),
    params: {},
  })
}

beforeAll(async () => {
  const agency = await makeOrganization({ name: 'Framed Agency' })
  host = `${agency.slug}.localhost`
  const person = await makeUser(agency.id, { firstName: 'Fay', lastName: 'Framed' })
  const other = await makeUser(agency.id, { firstName: 'Pia', lastName: 'Plain' })
  const scheduledFor = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000)
  const avatar = await withTenant(agency.id, async (tx) => {
    const picture = await storeMedia(tx, agency.id, {
      bytes: await makePng('#0e7490'),
      contentType: 'image/png',
      width: 40,
      height: 20,
      purpose: 'profile-picture',
    })
    await updateProfile(tx, agency.id, person.id, { profilePictureMediaId: picture.id })
    await setUserPreference(tx, agency.id, person.id, 'appearance', {
      theme: 'dark',
      fontSize: 'large',
      animations: false,
    })
    await scheduleAccountDeletion(tx, agency.id, person.id, scheduledFor)
    return `/media/${picture.hash}.${picture.ext}`
  })
  framed = { cookie: await sessionCookieFor(agency.id, person.id), avatar, scheduledFor }
  plain = { cookie: await sessionCookieFor(agency.id, other.id) }
})

test("the person's avatar, appearance and scheduled deletion reach the frame", async () => {
  const root = await rootFor(framed.cookie)
  expect(root.user).toMatchObject({ firstName: 'Fay', avatarUrl: framed.avatar })
  expect(root.appearance).toEqual({ theme: 'dark', fontSize: 'large', animations: false })
  expect(root.deletionBanner?.scheduledFor).toBe(framed.scheduledFor.toISOString())
})

test('a colleague in the same organization sees none of it: the defaults', async () => {
  const root = await rootFor(plain.cookie)
  expect(root.user).toMatchObject({ firstName: 'Pia', avatarUrl: null })
  expect(root.appearance).toEqual(APPEARANCE_DEFAULTS)
  expect(root.deletionBanner).toBeNull()
})

test("the offline worker's owner key: opaque, one per account (ADR 104)", async () => {
  const [fay, pia] = [await rootFor(framed.cookie), await rootFor(plain.cookie)]
  expect(fay.user?.offlineKey).toMatch(/^[\w-]{22}$/)
  expect(fay.user?.offlineKey).not.toBe(pia.user?.offlineKey)
  // The same account gets the same key on its next page: queued leads stay its own.
  expect((await rootFor(framed.cookie)).user?.offlineKey).toBe(fay.user?.offlineKey)
  expect(fay.user?.offlineKey).not.toContain(fay.user?.email ?? '@')
})

test('signed out: no person, the default appearance', async () => {
  const root = await rootFor('')
  expect(root.user).toBeNull()
  expect(root.appearance).toEqual(APPEARANCE_DEFAULTS)
  expect(root.deletionBanner).toBeNull()
})
