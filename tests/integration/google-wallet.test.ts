// Google Wallet (issue 29 point 2, ADR 043): `/card/{ref}/google-wallet` redirects to Google's
// save link, whose JWT verifies with the service account's (throwaway) public key and carries the
// card as a generic object; any change of what it shows, from whichever path, then reaches the
// Wallet REST API (a local fake) as an update of that object, with an access token from the
// JWT-bearer grant: the database decides (migration 0020's trigger, ADR 042 and 043). Without
// configuration the route is a 404; the object is what a signed-out visitor sees, so only a
// public card has a save link, and a card hidden since becomes an inactive object.
import { and, eq } from 'drizzle-orm'
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { GOOGLE_SAVE_URL } from '#app/cards/google-wallet.server'
import {
  googleWalletConfigured,
  googleWalletObjectId,
} from '#app/cards/google-wallet-config.server'
import { resetEnvForTests } from '#app/env.server'
import { changeCardSlug } from '#app/models/card-slugs.server'
import { updateAccount } from '#app/models/people.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { loader as walletLoader } from '#app/routes/card_.$ref.google-wallet'
import { action as editAction } from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardSlugs, googleWalletObjects, jobs, organizations, walletPasses } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
  uniqueSuffix,
} from '#tests/factories'
import {
  type FakeGoogleWallet,
  startFakeGoogleWallet,
  TEST_CLIENT_EMAIL,
  TEST_ISSUER_ID,
} from '#tests/fake-google-wallet'

let fake: FakeGoogleWallet

function configure() {
  process.env.GOOGLE_WALLET_ISSUER_ID = TEST_ISSUER_ID
  process.env.GOOGLE_WALLET_KEY = fake.keyPath
  process.env.GOOGLE_WALLET_API_URL = fake.url
  resetEnvForTests()
}

function unconfigure() {
  delete process.env.GOOGLE_WALLET_ISSUER_ID
  delete process.env.GOOGLE_WALLET_KEY
  delete process.env.GOOGLE_WALLET_API_URL
  resetEnvForTests()
}

beforeAll(async () => {
  fake = await startFakeGoogleWallet()
})

afterAll(async () => {
  unconfigure()
  await fake.close()
})

beforeEach(() => {
  fake.reset()
  configure()
})

async function world() {
  const { organization } = await makeBrandedOrganization({
    primaryColor: '#7c3aed',
    secondaryColor: '#16a34a',
  })
  const host = `${organization.slug}.localhost`
  const lastName = `Lovelace${uniqueSuffix()}`
  const owner = await makeUser(organization.id, { firstName: 'Ada', lastName })
  const card = await makeCard(organization.id, owner.id, {
    firstName: 'Ada',
    lastName,
    jobTitle: 'Analyst',
    company: 'Engines Ltd',
    email: 'ada@example.test',
  })
  const [slug] = await getDb()
    .select({ slug: cardSlugs.slug })
    .from(cardSlugs)
    .where(and(eq(cardSlugs.organizationId, organization.id), eq(cardSlugs.cardId, card.id)))
  const cookie = await sessionCookieFor(organization.id, owner.id)
  return { organization, host, owner, card, cookie, slug: slug?.slug ?? '' }
}
type World = Awaited<ReturnType<typeof world>>

function open(host: string, ref: string, cookie?: string) {
  return settle(() =>
    walletLoader({
      request: requestFor(host, `/card/${ref}/google-wallet`, {
        headers: cookie ? { Cookie: cookie } : {},
      }),
      context: contextFor(host),
      params: { ref },
    }),
  )
}

async function jwtOf(response: Response) {
  const location = response.headers.get('Location') ?? ''
  expect(location.startsWith(GOOGLE_SAVE_URL)).toBe(true)
  return location.slice(GOOGLE_SAVE_URL.length)
}

type GenericObject = {
  id: string
  classId: string
  state: string
  cardTitle: { defaultValue: { value: string } }
  header: { defaultValue: { value: string } }
  subheader?: { defaultValue: { value: string } }
  hexBackgroundColor: string
  logo?: { sourceUri: { uri: string } }
  barcode: { type: string; value: string }
}

function editDetails(w: World, fields: Record<string, string>) {
  return settle(() =>
    editAction({
      request: formRequest(
        w.host,
        `/dashboard/end-user/digital-cards/edit/${w.card.id}`,
        {
          intent: 'details',
          title: 'Work',
          firstName: 'Ada',
          lastName: w.card.lastName,
          email: 'ada@example.test',
          company: 'Engines Ltd',
          jobTitle: 'Analyst',
          ...fields,
        },
        w.cookie,
      ),
      context: contextFor(w.host),
      params: { cardId: w.card.id },
    }),
  )
}

const walletJobs = () => getDb().select().from(jobs).where(eq(jobs.name, 'google-wallet.patch'))

describe('the save link', () => {
  test('redirects to Google with a JWT that verifies with the public key and carries the card', async () => {
    const w = await world()
    const response = await open(w.host, w.card.id)
    expect(response.status).toBe(302)
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    const jwt = await jwtOf(response)
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    const { payload } = await jwtVerify(jwt, await importSPKI(fake.publicKeyPem, 'RS256'), {
      audience: 'google',
      issuer: TEST_CLIENT_EMAIL,
      algorithms: ['RS256'],
    })
    expect(payload.typ).toBe('savetowallet')
    const origin = `http://${w.host}:3000`
    expect(payload.origins).toEqual([origin])
    const body = payload.payload as {
      genericObjects: GenericObject[]
      genericClasses: { id: string }[]
    }
    const [object] = body.genericObjects
    expect(object).toMatchObject({
      id: googleWalletObjectId(TEST_ISSUER_ID, w.card.id),
      classId: `${TEST_ISSUER_ID}.brandcard_card`,
      state: 'ACTIVE',
      header: { defaultValue: { value: `Ada ${w.card.lastName}` } },
      subheader: { defaultValue: { value: 'Analyst' } },
      cardTitle: { defaultValue: { value: 'Engines Ltd' } },
      hexBackgroundColor: '#7c3aed',
      barcode: { type: 'QR_CODE', value: `${origin}/c/${w.slug}?s=w` },
    })
    expect(body.genericClasses).toEqual([{ id: object?.classId }])
    // The agency's logo, by an absolute URL on the tenant's host.
    expect(object?.logo?.sourceUri.uri).toMatch(new RegExp(`^${origin}/media/[0-9a-f]{64}\\.png$`))
    // Nothing the privacy settings could hide is on the object.
    expect(JSON.stringify(object)).not.toContain('ada@example.test')
    // The card is recorded as one whose object someone may hold.
    const rows = await withTenant(w.organization.id, (tx) =>
      tx.select().from(googleWalletObjects).where(eq(googleWalletObjects.cardId, w.card.id)),
    )
    expect(rows).toMatchObject([{ objectId: `${TEST_ISSUER_ID}.card-${w.card.id}` }])
  })

  test('asked for again, by a visitor or the owner, is recorded once', async () => {
    const w = await world()
    expect((await open(w.host, w.card.id)).status).toBe(302)
    expect((await open(w.host, w.card.id, w.cookie)).status).toBe(302)
    const rows = await withTenant(w.organization.id, (tx) =>
      tx.select().from(googleWalletObjects).where(eq(googleWalletObjects.cardId, w.card.id)),
    )
    expect(rows).toHaveLength(1)
  })

  test('is a 404, and hidden, without configuration', async () => {
    const w = await world()
    unconfigure()
    expect(googleWalletConfigured()).toBe(false)
    expect((await open(w.host, w.card.id)).status).toBe(404)
    process.env.GOOGLE_WALLET_ISSUER_ID = TEST_ISSUER_ID
    resetEnvForTests()
    // One of the two settings is not a configuration either.
    expect(googleWalletConfigured()).toBe(false)
    expect((await open(w.host, w.card.id)).status).toBe(404)
    configure()
    expect(googleWalletConfigured()).toBe(true)
  })

  test('a key file that is not a service account key leaves it off', async () => {
    const w = await world()
    process.env.GOOGLE_WALLET_KEY = '/nonexistent/brandcard-key.json'
    resetEnvForTests()
    const warn = console.warn
    const warnings: string[] = []
    console.warn = (message: string) => warnings.push(message)
    try {
      expect(googleWalletConfigured()).toBe(false)
      expect((await open(w.host, w.card.id)).status).toBe(404)
    } finally {
      console.warn = warn
    }
    expect(warnings.join('\n')).toContain('Google Wallet is off')
  })

  test('a card that is not public has no save link, not even for its owner: the object is shared', async () => {
    const w = await world()
    await withTenant(w.organization.id, (tx) =>
      setUserPreference(tx, w.organization.id, w.owner.id, 'privacy', {
        visibility: 'private',
        showEmail: true,
        showPhone: true,
      }),
    )
    const stranger = await makeUser(w.organization.id)
    const strangerCookie = await sessionCookieFor(w.organization.id, stranger.id)
    expect((await open(w.host, w.card.id)).status).toBe(404)
    expect((await open(w.host, w.card.id, strangerCookie)).status).toBe(404)
    expect((await open(w.host, w.card.id, w.cookie)).status).toBe(404)
    const rows = await withTenant(w.organization.id, (tx) =>
      tx.select().from(googleWalletObjects).where(eq(googleWalletObjects.cardId, w.card.id)),
    )
    expect(rows).toEqual([])
  })

  test("another tenant's card is not found on this tenant's host", async () => {
    const a = await world()
    const b = await world()
    expect((await open(a.host, b.card.id)).status).toBe(404)
    expect((await open(a.host, b.card.id, a.cookie)).status).toBe(404)
    const rows = await getDb()
      .select()
      .from(googleWalletObjects)
      .where(eq(googleWalletObjects.cardId, b.card.id))
    expect(rows).toEqual([])
  })
})

describe('a card edit', () => {
  test('reaches the REST API as an update of the whole object, with a token from the JWT-bearer grant', async () => {
    const w = await world()
    expect((await open(w.host, w.card.id)).status).toBe(302)
    const objectId = googleWalletObjectId(TEST_ISSUER_ID, w.card.id)
    // The user saved it: Google now holds the object.
    fake.objects.set(objectId, { id: objectId, state: 'ACTIVE' })
    const response = await editDetails(w, { jobTitle: 'Chief Analyst' })
    expect(response.status).toBe(302)
    expect(fake.grants).toEqual({ accepted: 1, refused: [] })
    const [patch] = fake.patches()
    expect(patch?.objectId).toBe(objectId)
    expect(patch?.method).toBe('PUT')
    expect(patch?.authorization).toMatch(/^Bearer ya29\.fake-/)
    expect(fake.objects.get(objectId)).toMatchObject({
      subheader: { defaultValue: { value: 'Chief Analyst' } },
      barcode: { value: `http://${w.host}:3000/c/${w.slug}?s=w` },
    })
    const [row] = await withTenant(w.organization.id, (tx) =>
      tx.select().from(googleWalletObjects).where(eq(googleWalletObjects.cardId, w.card.id)),
    )
    expect(row?.patchedAt).toBeInstanceOf(Date)
    // A second edit reuses the token.
    await editDetails(w, { jobTitle: 'Head Analyst' })
    expect(fake.grants.accepted).toBe(1)
    expect(fake.patches()).toHaveLength(2)
    expect(fake.objects.get(objectId)).toMatchObject({
      subheader: { defaultValue: { value: 'Head Analyst' } },
    })
  })

  test('of an object nobody saved yet (404) ends the job without a retry', async () => {
    const w = await world()
    expect((await open(w.host, w.card.id)).status).toBe(302)
    await editDetails(w, { jobTitle: 'Chief Analyst' })
    expect(fake.patches()).toHaveLength(1)
    const states = (await walletJobs())
      .filter((job) => job.organizationId === w.organization.id)
      .map((job) => job.state)
    expect(states).toEqual(['done'])
    const [row] = await withTenant(w.organization.id, (tx) =>
      tx.select().from(googleWalletObjects).where(eq(googleWalletObjects.cardId, w.card.id)),
    )
    expect(row?.patchedAt).toBeNull()
  })

  test('of a card whose save link was never issued queues nothing', async () => {
    const w = await world()
    await editDetails(w, { jobTitle: 'Chief Analyst' })
    const mine = (await walletJobs()).filter((job) => job.organizationId === w.organization.id)
    expect(mine).toEqual([])
    expect(fake.requests).toEqual([])
  })

  test('sends nothing without configuration', async () => {
    const w = await world()
    expect((await open(w.host, w.card.id)).status).toBe(302)
    unconfigure()
    await editDetails(w, { jobTitle: 'Chief Analyst' })
    // The database queued the job (it knows nothing of configuration); it ends doing nothing.
    const mine = (await walletJobs()).filter((job) => job.organizationId === w.organization.id)
    expect(mine.map((job) => job.state)).toEqual(['done'])
    expect(fake.requests).toEqual([])
  })

  test("the agency's new colour reaches every object of its cards", async () => {
    const w = await world()
    expect((await open(w.host, w.card.id)).status).toBe(302)
    const objectId = googleWalletObjectId(TEST_ISSUER_ID, w.card.id)
    fake.objects.set(objectId, { id: objectId })
    await getDb()
      .update(organizations)
      .set({ primaryColor: '#0ea5e9' })
      .where(eq(organizations.id, w.organization.id))
    const { invalidateTenant } = await import('#app/tenancy/tenant.server')
    invalidateTenant(w.organization.id)
    await settleBackgroundWork()
    expect(fake.objects.get(objectId)).toMatchObject({ hexBackgroundColor: '#0ea5e9' })
  })

  test("a job cannot patch another tenant's card by naming it", async () => {
    const a = await world()
    const b = await world()
    expect((await open(b.host, b.card.id)).status).toBe(302)
    const objectId = googleWalletObjectId(TEST_ISSUER_ID, b.card.id)
    fake.objects.set(objectId, { id: objectId })
    // A's tenant queues a patch naming B's card (and another tenant's, its whole scope): their
    // scopes find no object of it.
    const other = await makeOrganization()
    await settle(async () => {
      await withTenant(a.organization.id, (tx) =>
        tx.insert(jobs).values({
          name: 'google-wallet.patch',
          organizationId: a.organization.id,
          payload: { organizationId: a.organization.id, cardId: b.card.id },
        }),
      )
      await withTenant(other.id, (tx) =>
        tx.insert(jobs).values({
          name: 'google-wallet.patch',
          organizationId: other.id,
          payload: { organizationId: other.id, cardId: b.card.id },
        }),
      )
      return new Response(null)
    })
    expect(fake.patches()).toEqual([])
  })
})

/** The card's save link issued and the object saved by a user: Google now holds it. */
async function saved(w: World) {
  expect((await open(w.host, w.card.id)).status).toBe(302)
  const objectId = googleWalletObjectId(TEST_ISSUER_ID, w.card.id)
  fake.objects.set(objectId, { id: objectId, state: 'ACTIVE' })
  return objectId
}

const privacy = (w: World, visibility: 'public' | 'private' | 'team') =>
  settle(async () => {
    await withTenant(w.organization.id, (tx) =>
      setUserPreference(tx, w.organization.id, w.owner.id, 'privacy', {
        visibility,
        showEmail: true,
        showPhone: true,
      }),
    )
    return new Response(null)
  })

/** Nothing of the card: no name, title, company, pictures or QR code. */
function expectVoided(object: Record<string, unknown> | undefined, w: World) {
  expect(object).toMatchObject({ state: 'INACTIVE', hexBackgroundColor: '#7c3aed' })
  const text = JSON.stringify(object)
  for (const shown of [w.card.lastName, 'Analyst', 'Engines Ltd', w.slug, '/media/']) {
    expect(text).not.toContain(shown)
  }
  expect(object).not.toHaveProperty('barcode')
  expect(object).not.toHaveProperty('heroImage')
}

describe('one place decides: the database queues the update, whichever path wrote', () => {
  test('a card made private becomes an inactive object with nothing of it; public again, it is back', async () => {
    const w = await world()
    const objectId = await saved(w)
    await privacy(w, 'private')
    expect(fake.patches()).toHaveLength(1)
    expectVoided(fake.objects.get(objectId), w)
    // Seen only by teammates is not seen by a visitor either: still voided, nothing sent again.
    await privacy(w, 'team')
    expect(fake.patches()).toHaveLength(1)
    await privacy(w, 'public')
    expect(fake.patches()).toHaveLength(2)
    expect(fake.objects.get(objectId)).toMatchObject({
      state: 'ACTIVE',
      header: { defaultValue: { value: `Ada ${w.card.lastName}` } },
      barcode: { value: `http://${w.host}:3000/c/${w.slug}?s=w` },
    })
  })

  test('an owner deactivated: the object is voided; activated again, the card is back', async () => {
    const w = await world()
    const objectId = await saved(w)
    const status = (value: 'active' | 'inactive') =>
      settle(async () => {
        await withTenant(w.organization.id, (tx) =>
          updateAccount(tx, w.organization.id, w.owner.id, { status: value }),
        )
        return new Response(null)
      })
    await status('inactive')
    expectVoided(fake.objects.get(objectId), w)
    await status('active')
    expect(fake.objects.get(objectId)).toMatchObject({ state: 'ACTIVE' })
    expect(fake.patches()).toHaveLength(2)
  })

  test('a short link changed outside the editor (a script) reaches the object', async () => {
    const w = await world()
    const objectId = await saved(w)
    const slug = `ada-${uniqueSuffix()}`
    await settle(async () => {
      await withTenant(w.organization.id, (tx) =>
        changeCardSlug(tx, w.organization.id, w.card.id, slug),
      )
      return new Response(null)
    })
    expect(fake.objects.get(objectId)).toMatchObject({
      barcode: { value: `http://${w.host}:3000/c/${slug}?s=w` },
    })
  })

  // Once the profile's card details form (issue 41 point 11 moved them to the editor alone).
  test("the card's details reach the job, which sends nothing the object does not show", async () => {
    const w = await world()
    const objectId = await saved(w)
    // A first change the object shows: sent, and its content recorded.
    await editDetails(w, { jobTitle: 'Chief Analyst' })
    expect(fake.patches()).toHaveLength(1)
    const before = (await walletJobs()).filter((job) => job.organizationId === w.organization.id)
    const response = await editDetails(w, {
      jobTitle: 'Chief Analyst',
      bio: 'Poetical science.',
      pronouns: 'she/her',
      'links[0].kind': 'github',
      'links[0].url': 'github.com/ada',
    })
    expect(response.status).toBe(302)
    // The database's trigger queued the update…
    const after = (await walletJobs()).filter((job) => job.organizationId === w.organization.id)
    expect(after).toHaveLength(before.length + 1)
    expect(after.map((job) => job.state)).toEqual(after.map(() => 'done'))
    // …and the job found the object as Google holds it: nothing sent.
    expect(fake.patches()).toHaveLength(1)
    expect(fake.objects.get(objectId)).toMatchObject({
      subheader: { defaultValue: { value: 'Chief Analyst' } },
    })
  })

  test('a field the card no longer has does not stay on the object', async () => {
    const w = await world()
    const objectId = await saved(w)
    await editDetails(w, { jobTitle: '' })
    expect(fake.patches()).toHaveLength(1)
    expect(fake.objects.get(objectId)).toMatchObject({
      state: 'ACTIVE',
      classId: expect.any(String),
    })
    expect(fake.objects.get(objectId)).not.toHaveProperty('subheader')
  })

  test('Apple and Google each get a job of their own, so each retries on its own', async () => {
    const w = await world()
    await saved(w)
    // An Apple pass of the same card (as its download would record it).
    await withTenant(w.organization.id, (tx) =>
      tx.insert(walletPasses).values({
        organizationId: w.organization.id,
        cardId: w.card.id,
        contentHash: 'x',
      }),
    )
    await editDetails(w, { jobTitle: 'Chief Analyst' })
    const names = (
      await getDb().select().from(jobs).where(eq(jobs.organizationId, w.organization.id))
    )
      .map((job) => job.name)
      .filter((name) => name === 'wallet.refresh' || name === 'google-wallet.patch')
      .sort()
    expect(names).toEqual(['google-wallet.patch', 'wallet.refresh'])
  })
})
