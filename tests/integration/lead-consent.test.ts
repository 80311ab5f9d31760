// Consent that follows the lead (issue 31 point 3, ADR 050): an agency's versioned consent text
// on its Branding screen, the card's lead form that asks for it, the lead's stored consent and
// receipt, the receipt link's data page with its deletion, and the CRM that hears of both.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { CRM_CONSENT_FIELD, CRM_CONSENT_TAG } from '#app/crm/forwarding.server'
import { resetEnvForTests } from '#app/env.server'
import { addContact } from '#app/models/contacts.server'
import { action as apiSettingsAction } from '#app/routes/api-settings'
import { action as cardAction, loader as cardLoader } from '#app/routes/card.$ref'
import { loader as contactsLoader } from '#app/routes/contacts._index'
import { loader as csvLoader } from '#app/routes/contacts.export[.]csv'
import * as branding from '#app/routes/dashboard.agency.branding'
import * as leadData from '#app/routes/lead-data'
import { CONSENT_TOASTS } from '#app/validation/consent-text'
import { CONSENT_REQUIRED } from '#app/validation/public-card'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, consentTexts, contacts, emailOutbox, jobs } from '#drizzle/schema'
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
import { type FakeCrm, startFakeCrm } from '#tests/fake-crm'
import { asDelivered } from '#tests/inbox'

const KEY = 'pit-consent-key-0123456789abcdef'
const TEXT_V1 = 'I agree that my details are kept to contact me.'
const TEXT_V2 = 'I agree that my details are kept and used to contact me about this conversation.'

let crm: FakeCrm

beforeAll(async () => {
  crm = await startFakeCrm({ validKeys: [KEY] })
  process.env.GOHIGHLEVEL_API_URL = crm.url
  resetEnvForTests()
})

afterAll(async () => {
  delete process.env.GOHIGHLEVEL_API_URL
  resetEnvForTests()
  await crm.close()
})

beforeEach(() => crm.reset())

async function agency() {
  const organization = await makeOrganization({ name: 'Consent Co' })
  const host = `${organization.slug}.localhost`
  // Nobody signs in with a password here: no argon2 (sessions are made in the database).
  const passwordHash = 'not-a-password'
  const admin = await makeUser(organization.id, { role: 'agency_admin', passwordHash })
  const member = await makeUser(organization.id, { role: 'agency_member', passwordHash })
  const owner = await makeUser(organization.id, {
    firstName: 'Olga',
    lastName: 'Owner',
    passwordHash,
  })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Olga', lastName: 'Owner' })
  return {
    organization,
    host,
    owner,
    card,
    admin: await sessionCookieFor(organization.id, admin.id),
    member: await sessionCookieFor(organization.id, member.id),
    ownerCookie: await sessionCookieFor(organization.id, owner.id),
  }
}
type World = Awaited<ReturnType<typeof agency>>

const saveConsent = (world: World, consentText: string, cookie = world.admin) =>
  settle(() =>
    branding.action({
      request: formRequest(
        world.host,
        '/dashboard/agency/branding',
        { intent: 'save-consent', consentText },
        cookie,
      ),
      context: contextFor(world.host),
      params: {},
    }),
  )

async function shownConsent(world: World) {
  const response = await settle(() =>
    cardLoader({
      request: requestFor(world.host, `/card/${world.card.id}`),
      context: contextFor(world.host),
      params: { ref: world.card.id },
    }),
  )
  return ((await response.json()) as { consent: { id: string; body: string } | null }).consent
}

let visitor = 1
function lead(world: World, fields: Record<string, string>) {
  return settle(() =>
    cardAction({
      request: formRequest(world.host, `/card/${world.card.id}`, {
        intent: 'lead',
        fullName: 'Lena Lead',
        email: 'lena@example.test',
        company: 'Prospects Ltd',
        ...fields,
      }),
      // Each lead from its own address: the lead form's limit per address is not under test.
      context: contextFor(world.host, `198.51.100.${visitor++}`),
      params: { ref: world.card.id },
    }),
  )
}

const contactsOf = (world: World) =>
  getDb().select().from(contacts).where(eq(contacts.organizationId, world.organization.id))

const outboxOf = async (world: World) =>
  getDb().select().from(emailOutbox).where(eq(emailOutbox.organizationId, world.organization.id))

/** The receipt's link as the lead got it (the outbox keeps no token, ADR 028). */
async function receiptLink(world: World) {
  const rows = (await outboxOf(world)).filter((row) => row.toAddress === 'lena@example.test')
  expect(rows).toHaveLength(1)
  const [delivered] = asDelivered(rows)
  const url = /https?:\/\/[^\s"<]+\/lead-data\?token=[a-z2-7]{52}/.exec(delivered?.text ?? '')?.[0]
  if (!url) throw new Error('no data link in the receipt')
  return new URL(url)
}

const openData = (world: World, path: string, host = world.host) =>
  settle(() =>
    leadData.loader({
      request: requestFor(host, path),
      context: contextFor(host),
      params: {},
    }),
  )

const deleteData = (world: World, path: string, host = world.host) =>
  settle(() =>
    leadData.action({
      request: formRequest(host, path, { intent: 'delete' }),
      context: contextFor(host),
      params: {},
    }),
  )

describe('the consent text on the Branding screen', () => {
  test('each save is a new version, old ones kept; the card page shows the newest', async () => {
    const world = await agency()
    expect(await shownConsent(world)).toBeNull()
    const first = await saveConsent(world, TEXT_V1)
    expect(first.status).toBe(302)
    expect(first).toSendToast({ type: 'success', title: CONSENT_TOASTS.saved })
    await saveConsent(world, TEXT_V2)
    const versions = await getDb()
      .select({ version: consentTexts.version, body: consentTexts.body })
      .from(consentTexts)
      .where(eq(consentTexts.organizationId, world.organization.id))
      .orderBy(consentTexts.version)
    expect(versions).toEqual([
      { version: 1, body: TEXT_V1 },
      { version: 2, body: TEXT_V2 },
    ])
    expect((await shownConsent(world))?.body).toBe(TEXT_V2)
    // The screen lists them, newest first.
    const page = await settle(() =>
      branding.loader({
        request: requestFor(world.host, '/dashboard/agency/branding', {
          headers: { Cookie: world.admin },
        }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    const body = (await page.json()) as { consentTexts: { version: number }[] }
    expect(body.consentTexts.map((text) => text.version)).toEqual([2, 1])
    const audited = await getDb()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, world.organization.id),
          eq(auditEvents.action, 'consent.updated'),
        ),
      )
    expect(audited).toHaveLength(2)
    // An empty save turns the box off (a version too, so the history says when).
    const removed = await saveConsent(world, '')
    expect(removed).toSendToast({ type: 'success', title: CONSENT_TOASTS.removed })
    expect(await shownConsent(world)).toBeNull()
  })

  test('an agency member may not change it, and a text too long is refused next to it', async () => {
    const world = await agency()
    const before = await databaseChecksum()
    expect((await saveConsent(world, TEXT_V1, world.member)).status).toBe(403)
    const long = await saveConsent(world, 'x'.repeat(2001))
    expect(long.status).toBe(400)
    expect((await replyErrors(long)).consentText).toEqual([
      'The consent text must be at most 2000 characters',
    ])
    expect(await databaseChecksum()).toEqual(before)
  })
})

describe('a lead on a card of an agency that asks for consent', () => {
  test('without the box ticked (or without the version) it is refused next to the box, nothing kept', async () => {
    const world = await agency()
    await saveConsent(world, TEXT_V1)
    const consent = await shownConsent(world)
    if (!consent) throw new Error('no consent shown')
    const before = await databaseChecksum()
    const attempts: Record<string, string>[] = [
      { consentTextId: consent.id },
      {},
      { consent: 'on' },
      // Another agency's version is not this agency's consent.
      { consentTextId: '00000000-0000-4000-8000-000000000000', consent: 'on' },
    ]
    for (const fields of attempts) {
      const refused = await lead(world, fields)
      expect(refused.status).toBe(400)
      expect((await replyErrors(refused)).consent).toEqual([CONSENT_REQUIRED])
    }
    expect(await databaseChecksum()).toEqual(before)
  })

  test('with consent: the version, time and page are kept, the receipt goes out, the CRM gets the consent; the link shows and deletes the data', async () => {
    const world = await agency()
    // The owner forwards contacts to GoHighLevel.
    const saved = await settle(() =>
      apiSettingsAction({
        request: formRequest(
          world.host,
          '/api-settings',
          { intent: 'save', apiKey: KEY, enabled: 'on' },
          world.ownerCookie,
        ),
        context: contextFor(world.host),
        params: {},
      }),
    )
    expect(saved.status).toBe(302)
    await saveConsent(world, TEXT_V1)
    const consent = await shownConsent(world)
    if (!consent) throw new Error('no consent shown')
    const started = Date.now()
    const taken = await lead(world, { consentTextId: consent.id, consent: 'on' })
    expect(taken.status).toBe(200)

    const [stored] = await contactsOf(world)
    expect(stored).toMatchObject({
      consentTextId: consent.id,
      consentPage: `/card/${world.card.id}`,
    })
    expect(stored?.consentGivenAt?.getTime()).toBeGreaterThanOrEqual(started - 1000)
    expect(stored?.dataTokenHash).toMatch(/^[0-9a-f]{64}$/)

    // The receipt, on the agency's host, with the text it agreed to.
    const link = await receiptLink(world)
    expect(link.host).toContain(world.organization.slug)
    const [raw] = (await outboxOf(world)).filter((row) => row.toAddress === 'lena@example.test')
    expect(raw?.text).toContain(TEXT_V1)
    // Its token rests nowhere: the stored email holds a marker in its place.
    const token = link.searchParams.get('token') ?? ''
    expect(JSON.stringify(raw)).not.toContain(token)

    // The CRM got the contact with the consent's tag and field.
    const [upsert] = crm.upserts()
    expect(upsert?.body?.tags).toContain(CRM_CONSENT_TAG)
    expect(upsert?.body?.customFields).toEqual([
      {
        key: CRM_CONSENT_FIELD,
        field_value: expect.stringMatching(/^Version 1, \d{4}-\d\d-\d\dT.*, \/card\//),
      },
    ])

    // The link shows what is kept, on this host only.
    const path = `${link.pathname}${link.search}`
    const shown = await openData(world, path)
    expect(shown.status).toBe(200)
    expect(shown.headers.get('Referrer-Policy')).toBe('no-referrer')
    const data = (await shown.json()) as { lead: Record<string, unknown> }
    expect(data.lead).toMatchObject({
      fullName: 'Lena Lead',
      email: 'lena@example.test',
      company: 'Prospects Ltd',
      ownerName: 'Olga Owner',
      consentVersion: 1,
      consentText: TEXT_V1,
    })
    const other = await agency()
    expect((await openData(world, path, other.host)).status).toBe(404)
    expect((await deleteData(world, path, other.host)).status).toBe(404)
    expect((await openData(world, '/lead-data?token=nope')).status).toBe(404)

    // Deleting: the contact goes, the CRM deletes it through the queue, the audit says so.
    const crmId = [...crm.contacts.values()][0]?.id
    expect(crmId).toBeTruthy()
    const deleted = await deleteData(world, path)
    expect(deleted.status).toBe(200)
    expect(((await deleted.json()) as { deleted: boolean }).deleted).toBe(true)
    expect(await contactsOf(world)).toEqual([])
    expect(crm.deletions().map((request) => request.path)).toEqual([`/contacts/${crmId}`])
    expect(crm.contacts.size).toBe(0)
    const crmJobs = await getDb()
      .select({ state: jobs.state })
      .from(jobs)
      .where(and(eq(jobs.organizationId, world.organization.id), eq(jobs.name, 'crm.delete')))
    expect(crmJobs).toEqual([{ state: 'done' }])
    const audit = await getDb()
      .select({ entityId: auditEvents.entityId, actor: auditEvents.actorUserId })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, world.organization.id),
          eq(auditEvents.action, 'lead.deleted'),
        ),
      )
    expect(audit).toEqual([{ entityId: stored?.id, actor: null }])
    // The link now opens nothing.
    expect((await openData(world, path)).status).toBe(404)
    // Their receipt left the outbox with the contact: nothing there is addressed to them.
    expect((await outboxOf(world)).filter((row) => row.toAddress === 'lena@example.test')).toEqual(
      [],
    )
  })

  test("a deletion takes only that lead's receipt: the same person's receipt for another owner stays and still works", async () => {
    const world = await agency()
    await saveConsent(world, TEXT_V1)
    const consent = await shownConsent(world)
    if (!consent) throw new Error('no consent shown')
    const otto = await makeUser(world.organization.id, { firstName: 'Otto', lastName: 'Other' })
    const ottoCard = await makeCard(world.organization.id, otto.id, { firstName: 'Otto' })
    expect((await lead(world, { consentTextId: consent.id, consent: 'on' })).status).toBe(200)
    const toOtto = { ...world, card: ottoCard }
    // Same person, another owner's card, the address in other capitals.
    expect(
      (
        await lead(toOtto, {
          consentTextId: consent.id,
          consent: 'on',
          email: 'Lena@Example.test',
        })
      ).status,
    ).toBe(200)
    const receipts = async () =>
      (await outboxOf(world)).filter((row) => row.toAddress.toLowerCase() === 'lena@example.test')
    const both = asDelivered(await receipts())
    expect(both).toHaveLength(2)
    const links = both.map((row) => {
      const url = /https?:\/\/[^\s"<]+\/lead-data\?token=[a-z2-7]{52}/.exec(row.text)?.[0]
      if (!url) throw new Error('no data link in a receipt')
      const link = new URL(url)
      return { to: row.toAddress, path: `${link.pathname}${link.search}` }
    })
    const first = links.find((link) => link.to === 'lena@example.test')
    const second = links.find((link) => link.to === 'Lena@Example.test')
    if (!first || !second) throw new Error('a receipt is missing')

    expect((await deleteData(world, first.path)).status).toBe(200)
    expect((await receipts()).map((row) => row.toAddress)).toEqual(['Lena@Example.test'])
    const audit = await getDb()
      .select({ metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, world.organization.id),
          eq(auditEvents.action, 'lead.deleted'),
        ),
      )
    expect(audit).toEqual([{ metadata: expect.objectContaining({ receipts: 1 }) }])
    // The other receipt's link still opens and deletes Otto's contact.
    expect((await openData(world, second.path)).status).toBe(200)
    expect((await deleteData(world, second.path)).status).toBe(200)
    expect(await receipts()).toEqual([])
  })
})

describe('the consent shown to the card owner', () => {
  test('the contacts list and the CSV export carry the version, time and page; a contact without consent has none', async () => {
    const world = await agency()
    await saveConsent(world, TEXT_V1)
    await saveConsent(world, TEXT_V2)
    const consent = await shownConsent(world)
    if (!consent) throw new Error('no consent shown')
    expect((await lead(world, { consentTextId: consent.id, consent: 'on' })).status).toBe(200)
    await withTenant(world.organization.id, (tx) =>
      addContact(tx, world.organization.id, world.owner.id, { fullName: 'Manny Manual' }),
    )
    const [stored] = (await contactsOf(world)).filter((c) => c.fullName === 'Lena Lead')
    const givenAt = stored?.consentGivenAt?.toISOString()
    expect(givenAt).toBeTruthy()

    const list = await settle(() =>
      contactsLoader({
        request: requestFor(world.host, '/contacts', { headers: { Cookie: world.ownerCookie } }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    const { contacts: listed } = (await list.json()) as {
      contacts: Record<string, unknown>[]
    }
    const byName = new Map(listed.map((c) => [c.fullName, c]))
    expect(byName.get('Lena Lead')).toMatchObject({
      consentVersion: 2,
      consentGivenAt: givenAt,
      consentPage: `/card/${world.card.id}`,
    })
    // The lead's link-token hash is not the owner's to see.
    expect(byName.get('Lena Lead')).not.toHaveProperty('dataTokenHash')
    expect(byName.get('Manny Manual')).toMatchObject({ consentVersion: null, consentGivenAt: null })

    const csv = await settle(() =>
      csvLoader({
        request: requestFor(world.host, '/contacts/export.csv', {
          headers: { Cookie: world.ownerCookie },
        }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    expect(csv.status).toBe(200)
    const rows = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1] ?? ''))
    const header = rows[0] ?? []
    expect(header.slice(-3)).toEqual(['Consent version', 'Consent given at', 'Consent page'])
    const consentOf = (name: string) => rows.find((r) => r[0] === name)?.slice(-3)
    expect(consentOf('Lena Lead')).toEqual(['2', givenAt, `/card/${world.card.id}`])
    expect(consentOf('Manny Manual')).toEqual(['', '', ''])
  })
})
