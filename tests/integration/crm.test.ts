// The CRM integration (issue 15): /api-settings validates and saves a GoHighLevel key (sealed at
// rest, never sent back), and every new contact of a user whose integration is on is forwarded
// through the job queue, once, with retries and backoff, against a local fake of the API.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { crmSwitchDescription } from '#app/components/crm/crm-form-parts'
import { getEnv, resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { action as apiSettingsAction, loader as apiSettingsLoader } from '#app/routes/api-settings'
import { action as cardAction } from '#app/routes/card.$ref'
import { needsReseal } from '#app/utils/secret-box.server'
import { API_SETTINGS_MESSAGES as MESSAGES } from '#app/validation/api-settings'
import { getDb } from '#drizzle/db.server'
import { apiSettings, crmSyncs, jobs } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  toResponse,
} from '#tests/factories'
import { type FakeCrm, startFakeCrm } from '#tests/fake-crm'

const GOOD_KEY = 'pit-good-key-0123456789abcdef-WXYZ'
const BAD_KEY = 'pit-not-a-key-4242'

let crm: FakeCrm

beforeAll(async () => {
  crm = await startFakeCrm({ validKeys: [GOOD_KEY] })
  process.env.GOHIGHLEVEL_API_URL = crm.url
  resetEnvForTests()
})

afterAll(async () => {
  delete process.env.GOHIGHLEVEL_API_URL
  resetEnvForTests()
  await crm.close()
})

beforeEach(() => {
  crm.reset()
  crm.state.validKeys = [GOOD_KEY]
})

async function setup() {
  const { organization } = await makeBrandedOrganization({ name: 'Crm Co' })
  const host = `${organization.slug}.localhost`
  const owner = await makeUser(organization.id, {
    firstName: 'Olga',
    lastName: 'Owner',
    email: `olga-${organization.slug}@example.test`,
  })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Olga', lastName: 'Owner' })
  const cookie = await sessionCookieFor(organization.id, owner.id)
  return { organization, host, owner, card, cookie }
}
type World = Awaited<ReturnType<typeof setup>>

function post(world: World, fields: Record<string, string>, cookie = world.cookie) {
  return settle(() =>
    apiSettingsAction({
      request: formRequest(world.host, '/api-settings', fields, cookie),
      context: contextFor(world.host),
      params: {},
    }),
  )
}

async function view(world: World) {
  const response = await settle(() =>
    apiSettingsLoader({
      request: requestFor(world.host, '/api-settings', { headers: { Cookie: world.cookie } }),
      context: contextFor(world.host),
      params: {},
    }),
  )
  return {
    status: response.status,
    body: (await response.json()) as {
      hasKey: boolean
      keyLast4: string | null
      locationId: string
      enabled: boolean
      syncs: { contactId: string; fullName: string; state: string; lastError: string | null }[]
    },
  }
}

/** The one action reply (ADR 035) with `message` next to the key field. */
function keyRefused(message: string) {
  return { result: { error: { apiKey: [message] } } }
}

async function saveKey(world: World, key = GOOD_KEY) {
  const response = await post(world, { intent: 'save', apiKey: key, enabled: 'on' })
  expect(response.status).toBe(302)
}

/** A visitor leaves their details on the owner's card: a new contact of the owner. */
function lead(world: World, email: string, fullName = 'Lena Lead') {
  return cardAction({
    request: formRequest(world.host, `/card/${world.card.id}`, {
      intent: 'lead',
      fullName,
      email,
      phoneNumber: '+1 555 0100',
      company: 'Prospects Ltd',
    }),
    context: contextFor(world.host, `198.51.100.${Math.floor(Math.random() * 200) + 1}`),
    params: { ref: world.card.id },
  }).then(toResponse)
}

const syncsOf = (world: World) =>
  getDb().select().from(crmSyncs).where(eq(crmSyncs.organizationId, world.organization.id))

const crmJobsOf = (world: World) =>
  getDb()
    .select()
    .from(jobs)
    .where(and(eq(jobs.organizationId, world.organization.id), eq(jobs.name, 'crm.forward')))

const storedRow = async (world: World) =>
  (
    await getDb()
      .select()
      .from(apiSettings)
      .where(eq(apiSettings.organizationId, world.organization.id))
  )[0]

describe('validating and saving the key', () => {
  test('an empty key is refused next to the field and changes nothing', async () => {
    const world = await setup()
    const before = await databaseChecksum()
    const response = await post(world, { intent: 'validate', apiKey: '' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject(keyRefused(MESSAGES.keyRequired))
    expect(await databaseChecksum()).toEqual(before)
    expect(crm.requests).toHaveLength(0)
  })

  test('a valid key validates with one authenticated request carrying the API version', async () => {
    const world = await setup()
    const response = await post(world, { intent: 'validate', apiKey: GOOD_KEY })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ keyStatus: 'valid', error: null })
    expect(crm.requests).toHaveLength(1)
    expect(crm.requests[0]).toMatchObject({
      method: 'GET',
      authorization: `Bearer ${GOOD_KEY}`,
      version: '2021-07-28',
    })
  })

  test("an invalid key gets the spec's message; saving it clears the key and turns the integration off", async () => {
    const world = await setup()
    await saveKey(world)
    const validated = await post(world, { intent: 'validate', apiKey: BAD_KEY })
    expect(validated.status).toBe(400)
    expect(await validated.json()).toMatchObject({
      keyStatus: 'invalid',
      ...keyRefused(MESSAGES.keyInvalid),
    })
    const saved = await post(world, { intent: 'save', apiKey: BAD_KEY, enabled: 'on' })
    expect(saved.status).toBe(200)
    expect(await saved.json()).toMatchObject({
      ...keyRefused(MESSAGES.keyInvalid),
      error: MESSAGES.disabled,
    })
    const row = await storedRow(world)
    expect(row).toMatchObject({ gohighlevelApiKeyEncrypted: null, enabled: false })
    expect((await view(world)).body).toMatchObject({ hasKey: false, enabled: false })
  })

  test('a CRM that cannot be reached is a retryable failure, not an invalid key: nothing changes', async () => {
    const world = await setup()
    await saveKey(world)
    const before = await databaseChecksum()
    crm.state.script = [{ status: 500 }]
    const response = await post(world, { intent: 'validate', apiKey: GOOD_KEY })
    expect(response.status).toBe(502)
    expect(await response.json()).toMatchObject({ error: MESSAGES.validationFailed })
    crm.state.script = [{ status: 503 }]
    const saved = await post(world, { intent: 'save', apiKey: `${GOOD_KEY}-new`, enabled: 'on' })
    expect(saved.status).toBe(502)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('a valid key is saved sealed: the column never holds the key, the page shows its last four characters', async () => {
    const world = await setup()
    await saveKey(world)
    const row = await storedRow(world)
    expect(row?.enabled).toBe(true)
    expect(row?.gohighlevelApiKeyEncrypted).toMatch(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+$/)
    expect(row?.gohighlevelApiKeyEncrypted).not.toContain(GOOD_KEY)
    expect(row?.gohighlevelApiKeyEncrypted).not.toContain(GOOD_KEY.slice(0, 12))
    expect(JSON.stringify(row)).not.toContain(GOOD_KEY)
    const page = await view(world)
    expect(page.body).toMatchObject({ hasKey: true, keyLast4: 'WXYZ', enabled: true })
    expect(JSON.stringify(page.body)).not.toContain(GOOD_KEY)
  })

  test('saving with the field left alone keeps the stored key and sets only the switch; an empty field clears it', async () => {
    const world = await setup()
    await saveKey(world)
    const sealed = (await storedRow(world))?.gohighlevelApiKeyEncrypted
    crm.reset()
    expect((await post(world, { intent: 'save', keepStoredKey: '1' })).status).toBe(302)
    expect(await storedRow(world)).toMatchObject({
      gohighlevelApiKeyEncrypted: sealed,
      enabled: false,
    })
    // The switch, off with a key kept, says so: it does not promise contacts are being added.
    const off = (await view(world)).body
    expect(off).toMatchObject({ hasKey: true, enabled: false })
    const says = (on: boolean) => crmSwitchDescription({ keyMissing: !off.hasKey, on })
    expect(says(off.enabled)).not.toContain('are added')
    expect(says(off.enabled)).toMatch(/^Off: /)
    expect(says(true)).toBe('New contacts are added to your CRM automatically.')
    expect((await post(world, { intent: 'save', keepStoredKey: '1', enabled: 'on' })).status).toBe(
      302,
    )
    expect((await storedRow(world))?.enabled).toBe(true)
    // Validating the kept key asks the CRM with the stored key.
    expect((await post(world, { intent: 'validate', keepStoredKey: '1' })).status).toBe(200)
    expect(crm.requests.at(-1)?.authorization).toBe(`Bearer ${GOOD_KEY}`)
    const cleared = await post(world, { intent: 'save', keepStoredKey: '0', apiKey: '' })
    expect(cleared.status).toBe(302)
    expect(await storedRow(world)).toMatchObject({
      gohighlevelApiKeyEncrypted: null,
      enabled: false,
    })
  })

  test('a location ID goes with every request; the stored key for another location is validated again', async () => {
    const world = await setup()
    crm.state.locationIds = ['loc-123']
    const refused = await post(world, { intent: 'save', apiKey: GOOD_KEY, locationId: 'loc-999' })
    expect(refused.status).toBe(200)
    expect(await refused.json()).toMatchObject(keyRefused(MESSAGES.keyInvalid))
    expect(
      (await post(world, { intent: 'save', apiKey: GOOD_KEY, locationId: 'loc-123' })).status,
    ).toBe(302)
    expect(crm.requests.at(-1)).toMatchObject({ method: 'GET', locationId: 'loc-123' })
    expect((await view(world)).body).toMatchObject({ hasKey: true, locationId: 'loc-123' })
    await lead(world, 'located@example.test', 'Lou Located')
    await runJobsNow()
    expect(crm.upserts().at(-1)).toMatchObject({
      locationId: 'loc-123',
      body: { locationId: 'loc-123', email: 'located@example.test' },
    })
    // Kept key, new location: asked again before it is stored.
    crm.reset()
    const moved = await post(world, {
      intent: 'save',
      keepStoredKey: '1',
      locationId: 'loc-456',
      enabled: 'on',
    })
    expect(moved.status).toBe(302)
    expect(crm.requests).toEqual([
      expect.objectContaining({ locationId: 'loc-456', authorization: `Bearer ${GOOD_KEY}` }),
    ])
    expect((await view(world)).body).toMatchObject({
      hasKey: true,
      locationId: 'loc-456',
      enabled: true,
    })
  })

  test('bad input is refused with a message and changes nothing', async () => {
    const world = await setup()
    await saveKey(world)
    const before = await databaseChecksum()
    const refused: Record<string, string>[] = [
      { intent: 'save', apiKey: 'has spaces in it' },
      { intent: 'save', apiKey: GOOD_KEY, enabled: 'maybe' },
      { intent: 'retry', contactId: 'not-a-uuid' },
      { intent: 'save', apiKey: GOOD_KEY, locationId: 'loc/../x' },
      { intent: 'delete-everything' },
    ]
    for (const fields of refused) {
      const response = await post(world, fields)
      expect(response.status, JSON.stringify(fields)).toBe(400)
    }
    expect(await databaseChecksum()).toEqual(before)
  })

  test('signed out, the page and the action send the visitor to sign in', async () => {
    const world = await setup()
    const response = await post(world, { intent: 'save', apiKey: GOOD_KEY }, '')
    expect(response).toHaveRedirect('/auth/login?redirectTo=%2Fapi-settings')
    expect(response.headers.get('Set-Cookie')).toBeTruthy()
    const page = await settle(() =>
      apiSettingsLoader({
        request: requestFor(world.host, '/api-settings'),
        context: contextFor(world.host),
        params: {},
      }),
    )
    expect(page).toHaveRedirect(/^\/auth\/login/)
  })
})

describe('forwarding new contacts', () => {
  test('with the integration on, a new contact reaches the CRM once, with the right fields', async () => {
    const world = await setup()
    await saveKey(world)
    crm.reset()
    expect((await lead(world, 'lena@example.test')).status).toBe(200)
    await runJobsNow()
    expect(crm.upserts()).toHaveLength(1)
    expect(crm.upserts()[0]).toMatchObject({
      authorization: `Bearer ${GOOD_KEY}`,
      version: '2021-07-28',
      body: {
        firstName: 'Lena',
        lastName: 'Lead',
        email: 'lena@example.test',
        phone: '+1 555 0100',
        companyName: 'Prospects Ltd',
        source: 'Digital business card',
        tags: ['digital-card', expect.stringMatching(/^digital-card-/)],
      },
    })
    const page = await view(world)
    expect(page.body.syncs).toEqual([
      expect.objectContaining({ fullName: 'Lena Lead', state: 'synced', lastError: null }),
    ])
    // The job, run again (a worker that died before recording the end), creates nothing more.
    await getDb()
      .update(jobs)
      .set({ state: 'queued' })
      .where(eq(jobs.organizationId, world.organization.id))
    await getDb()
      .update(crmSyncs)
      .set({ state: 'pending' })
      .where(eq(crmSyncs.organizationId, world.organization.id))
    await runJobsNow()
    expect(crm.contacts.size).toBe(1)
  })

  test('a key sealed under the previous APP_SECRET still forwards, and is sealed again under the new one', async () => {
    const world = await setup()
    await saveKey(world)
    const oldSealed = (await storedRow(world))?.gohighlevelApiKeyEncrypted ?? ''
    const original = process.env.APP_SECRET
    process.env.APP_SECRET_PREVIOUS = getEnv().APP_SECRET
    process.env.APP_SECRET = 'a-brand-new-app-secret-of-forty-characters'
    resetEnvForTests()
    try {
      expect(needsReseal(oldSealed)).toBe(true)
      crm.reset()
      await lead(world, 'rotated@example.test', 'Rhea Rotated')
      await runJobsNow()
      expect(crm.upserts().map((request) => request.authorization)).toEqual([`Bearer ${GOOD_KEY}`])
      const resealed = (await storedRow(world))?.gohighlevelApiKeyEncrypted ?? ''
      expect(resealed).not.toBe(oldSealed)
      expect(needsReseal(resealed)).toBe(false)
    } finally {
      delete process.env.APP_SECRET_PREVIOUS
      if (original === undefined) delete process.env.APP_SECRET
      else process.env.APP_SECRET = original
      resetEnvForTests()
    }
  })

  test('with the integration off, or without a key, nothing is queued or sent', async () => {
    const world = await setup()
    await saveKey(world)
    expect((await post(world, { intent: 'save', keepStoredKey: '1' })).status).toBe(302)
    crm.reset()
    await lead(world, 'off@example.test')
    await runJobsNow()
    expect(crm.requests).toHaveLength(0)
    expect((await view(world)).body.syncs).toEqual([])
  })

  test('the CRM failing twice with 500, then answering, ends in one CRM contact after retries', async () => {
    const world = await setup()
    await saveKey(world)
    crm.reset()
    crm.state.script = [{ status: 500 }, { status: 500 }]
    await lead(world, 'retry@example.test', 'Rita Retry')
    await runJobsNow()
    expect(crm.upserts()).toHaveLength(3)
    expect(crm.contacts.size).toBe(1)
    const [sync] = await syncsOf(world)
    expect(sync).toMatchObject({ state: 'synced', attempts: 3, lastError: null })
    const [job] = await crmJobsOf(world)
    expect(job).toMatchObject({ state: 'done', attempts: 3 })
  })

  test('a CRM that never answers does not hold up the save; the job times out and is retried', async () => {
    const world = await setup()
    await saveKey(world)
    crm.reset()
    crm.state.script = [{ hang: true }]
    const started = Date.now()
    const answered = await Promise.race([
      lead(world, 'slow@example.test', 'Sam Slow'),
      new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 1500)),
    ])
    expect(answered === 'waited' ? answered : answered.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(1500)
    // The worker's call gives up after CRM_TIMEOUT_MS (2 s here) and the retry succeeds.
    await runJobsNow()
    expect(crm.contacts.size).toBe(1)
    const [sync] = await syncsOf(world)
    expect(sync).toMatchObject({ state: 'synced', attempts: 2 })
  })

  test('a refused key fails the sync at once with the spec message; Retry sends it again', async () => {
    const world = await setup()
    await saveKey(world)
    crm.reset()
    crm.state.validKeys = []
    await lead(world, 'refused@example.test', 'Rob Refused')
    await runJobsNow()
    expect(crm.upserts()).toHaveLength(1)
    const failed = (await view(world)).body.syncs
    expect(failed).toEqual([
      expect.objectContaining({ state: 'failed', lastError: MESSAGES.keyInvalid }),
    ])
    const [job] = await crmJobsOf(world)
    expect(job?.state).toBe('dead')

    crm.state.validKeys = [GOOD_KEY]
    const retried = await post(world, { intent: 'retry', contactId: failed[0]?.contactId ?? '' })
    expect(retried.status).toBe(302)
    await runJobsNow()
    expect((await view(world)).body.syncs).toEqual([expect.objectContaining({ state: 'synced' })])
    expect(crm.contacts.size).toBe(1)
  })

  test('after the last attempt the sync is failed and the job dead, with the last error', async () => {
    const world = await setup()
    await saveKey(world)
    crm.reset()
    crm.state.script = Array.from({ length: 6 }, () => ({ status: 502 }))
    await lead(world, 'dead@example.test', 'Dee Dead')
    await runJobsNow()
    expect(crm.upserts()).toHaveLength(6)
    const [sync] = await syncsOf(world)
    expect(sync).toMatchObject({ state: 'failed', lastError: 'the CRM answered 502' })
    const [job] = await crmJobsOf(world)
    expect(job).toMatchObject({ state: 'dead', attempts: 6 })
  })

  test("another user's or another organization's contact cannot be retried: 404, nothing changes", async () => {
    const world = await setup()
    await saveKey(world)
    crm.state.validKeys = []
    await lead(world, 'theirs@example.test')
    await runJobsNow()
    const [sync] = await syncsOf(world)
    const other = await setup()
    const before = await databaseChecksum()
    const response = await post(other, { intent: 'retry', contactId: sync?.contactId ?? '' })
    expect(response.status).toBe(404)
    expect(await databaseChecksum()).toEqual(before)
  })
})
