// HubSpot and Salesforce behind GoHighLevel's forwarding (issue 43 point 4, ADR 094): the
// credentials checked at save and refused at their field, sealed at rest; every new contact
// forwarded through the job queue to the chosen CRM, against local fakes speaking each API's
// shapes (tests/fake-hubspot.ts, tests/fake-salesforce.ts); failures shown per contact; a job run
// twice making nothing more; and a lead's deletion reaching the CRM that holds it.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { queueCrmDeletion } from '#app/crm/forwarding.server'
import { forgetSalesforceTokens, isReachableSalesforceUrl } from '#app/crm/salesforce.server'
import { resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { insertConsentText } from '#app/models/consent-texts.server'
import { action as apiSettingsAction, loader as apiSettingsLoader } from '#app/routes/api-settings'
import { action as cardAction } from '#app/routes/card.$ref'
import { CRM_MESSAGES } from '#app/validation/api-settings'
import { getDb, withTenant } from '#drizzle/db.server'
import { apiSettings, contacts, crmSyncs, jobs } from '#drizzle/schema'
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
import { type FakeHubspot, startFakeHubspot } from '#tests/fake-hubspot'
import { type FakeSalesforce, startFakeSalesforce } from '#tests/fake-salesforce'

const TOKEN = 'pat-na1-11111111-2222-3333-4444-5555WXYZ'
const CLIENT = { clientId: '3MVG9fakeConsumerKey', clientSecret: 'FAKESECRET0123456789ABCD' }

let hubspot: FakeHubspot
let salesforce: FakeSalesforce

beforeAll(async () => {
  hubspot = await startFakeHubspot({ validTokens: [TOKEN] })
  salesforce = await startFakeSalesforce({ clients: [CLIENT] })
  process.env.HUBSPOT_API_URL = hubspot.url
  resetEnvForTests()
})

afterAll(async () => {
  delete process.env.HUBSPOT_API_URL
  resetEnvForTests()
  await hubspot.close()
  await salesforce.close()
})

beforeEach(() => {
  hubspot.reset()
  hubspot.state.validTokens = [TOKEN]
  salesforce.reset()
  salesforce.state.clients = [CLIENT]
  forgetSalesforceTokens()
})

async function setup() {
  const { organization } = await makeBrandedOrganization({ name: 'Crm Providers Co' })
  const host = `${organization.slug}.localhost`
  const owner = await makeUser(organization.id, { firstName: 'Olga', lastName: 'Owner' })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Olga', lastName: 'Owner' })
  const consent = await withTenant(organization.id, (tx) =>
    insertConsentText(tx, organization.id, 'I agree that my details are kept to contact me.'),
  )
  if (!consent) throw new Error('no consent text')
  const cookie = await sessionCookieFor(organization.id, owner.id)
  return { organization, host, owner, card, consent, cookie }
}
type World = Awaited<ReturnType<typeof setup>>

function post(world: World, fields: Record<string, string>) {
  return settle(() =>
    apiSettingsAction({
      request: formRequest(world.host, '/api-settings', fields, world.cookie),
      context: contextFor(world.host),
      params: {},
    }),
  )
}

type PageSync = { contactId: string; state: string; provider: string; lastError: string | null }
async function view(world: World, query = '') {
  const response = await settle(() =>
    apiSettingsLoader({
      request: requestFor(world.host, `/api-settings${query}`, {
        headers: { Cookie: world.cookie },
      }),
      context: contextFor(world.host),
      params: {},
    }),
  )
  return (await response.json()) as {
    provider: string
    shown: string
    forwarding: boolean
    hubspot: { hasToken: boolean; tokenLast4: string | null; enabled: boolean }
    salesforce: { instanceUrl: string; clientId: string; secretLast4: string | null }
    syncs: PageSync[]
  }
}

const refusedAt = (field: string, message: string) => ({
  result: { error: { [field]: [message] } },
})

const connectHubspot = (world: World, token = TOKEN) =>
  post(world, { intent: 'save-hubspot', hubspotToken: token, enabled: 'on' })

const connectSalesforce = (world: World, secret = CLIENT.clientSecret) =>
  post(world, {
    intent: 'save-salesforce',
    salesforceUrl: salesforce.url,
    salesforceClientId: CLIENT.clientId,
    salesforceClientSecret: secret,
    enabled: 'on',
  })

let visitor = 1
/** A visitor leaves their details, agreeing to the agency's consent text. */
function lead(world: World, email: string, fullName = 'Lena Lead') {
  return cardAction({
    request: formRequest(world.host, `/card/${world.card.id}`, {
      intent: 'lead',
      fullName,
      email,
      phoneNumber: '+1 555 0100',
      company: 'Prospects Ltd',
      consentTextId: world.consent.id,
      consent: 'on',
    }),
    context: contextFor(world.host, `198.51.100.${visitor++ % 250}`),
    params: { ref: world.card.id },
  }).then(toResponse)
}

const storedRow = async (world: World) =>
  (
    await getDb()
      .select()
      .from(apiSettings)
      .where(eq(apiSettings.organizationId, world.organization.id))
  )[0]

/** The job and the sync row as a worker that died before recording its end would leave them. */
async function runJobsAgain(world: World) {
  await getDb()
    .update(jobs)
    .set({ state: 'queued' })
    .where(and(eq(jobs.organizationId, world.organization.id), eq(jobs.name, 'crm.forward')))
  await getDb()
    .update(crmSyncs)
    .set({ state: 'pending' })
    .where(eq(crmSyncs.organizationId, world.organization.id))
  await runJobsNow()
}

/** What the lead-data page does when a lead deletes their data (ADR 050). */
async function leadDeletesTheirData(world: World, contactId: string) {
  await withTenant(world.organization.id, async (tx) => {
    await queueCrmDeletion(tx, world.organization.id, contactId)
    await tx
      .delete(contacts)
      .where(and(eq(contacts.organizationId, world.organization.id), eq(contacts.id, contactId)))
  })
  await runJobsNow()
}

describe('HubSpot', () => {
  test('a refused token is said next to the field and stores nothing; an unreachable HubSpot is a retryable failure', async () => {
    const world = await setup()
    const before = await databaseChecksum()
    const refused = await connectHubspot(world, 'pat-na1-wrong')
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject(
      refusedAt('hubspotToken', CRM_MESSAGES.hubspotTokenInvalid),
    )
    // One cheap call, with the token as a bearer token.
    expect(hubspot.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/crm/v3/objects/contacts?limit=1',
        authorization: 'Bearer pat-na1-wrong',
      }),
    ])
    hubspot.state.script = [{ status: 503 }]
    const down = await connectHubspot(world)
    expect(down.status).toBe(502)
    expect(await down.json()).toMatchObject({ error: CRM_MESSAGES.hubspotUnavailable })
    expect(await databaseChecksum()).toEqual(before)
  })

  test('a new lead reaches HubSpot upserted by email with its consent and a note naming the card and source; a job run twice makes nothing more', async () => {
    const world = await setup()
    expect((await connectHubspot(world)).status).toBe(302)
    const row = await storedRow(world)
    expect(row).toMatchObject({ crmProvider: 'hubspot', enabled: true, hubspotTokenLast4: 'WXYZ' })
    expect(row?.hubspotTokenEncrypted).toMatch(/^v1\./)
    expect(JSON.stringify(row)).not.toContain(TOKEN)
    const page = await view(world)
    expect(page).toMatchObject({
      provider: 'hubspot',
      shown: 'hubspot',
      forwarding: true,
      hubspot: { hasToken: true, tokenLast4: 'WXYZ', enabled: true },
    })
    expect(JSON.stringify(page)).not.toContain(TOKEN)

    hubspot.reset()
    expect((await lead(world, 'Lena@Example.test')).status).toBe(200)
    await runJobsNow()
    expect(hubspot.upserts()).toHaveLength(1)
    expect(hubspot.upserts()[0]).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      body: {
        inputs: [
          {
            idProperty: 'email',
            id: 'Lena@Example.test',
            properties: {
              email: 'Lena@Example.test',
              firstname: 'Lena',
              lastname: 'Lead',
              phone: '+1 555 0100',
              company: 'Prospects Ltd',
              lead_consent: expect.stringMatching(/^Version 1, \d{4}-\d\d-\d\dT.+, \/card\//),
            },
          },
        ],
      },
    })
    const [contact] = [...hubspot.contacts.values()]
    expect(hubspot.notes).toHaveLength(1)
    const [note] = hubspot.notes
    expect(note?.contactIds).toEqual([contact?.id])
    expect(note?.properties.hs_timestamp).toMatch(/^\d{4}-\d\d-\d\dT/)
    // HubSpot's note body is HTML: the card's title arrives escaped.
    expect(note?.properties.hs_note_body).toContain(
      `<p>Met on the digital business card &quot;${world.card.title}&quot;`,
    )
    expect(note?.properties.hs_note_body).toContain('source: lead')
    expect(note?.properties.hs_note_body).toContain('Consent to be contacted: Version 1')
    const synced = (await view(world)).syncs
    expect(synced).toEqual([
      expect.objectContaining({ state: 'synced', provider: 'hubspot', lastError: null }),
    ])
    const [sync] = await getDb()
      .select()
      .from(crmSyncs)
      .where(eq(crmSyncs.organizationId, world.organization.id))
    expect(sync).toMatchObject({ provider: 'hubspot', crmContactId: contact?.id })

    // Run again as if the worker died before recording its end: the same contact, no second note.
    await runJobsAgain(world)
    expect(hubspot.contacts.size).toBe(1)
    expect(hubspot.notes).toHaveLength(1)
    expect(hubspot.upserts()).toHaveLength(2)
  })

  test('a portal without the consent property fails the contact with HubSpot’s reason at once; Retry once it exists syncs it', async () => {
    const world = await setup()
    expect((await connectHubspot(world)).status).toBe(302)
    hubspot.reset()
    hubspot.state.customProperties = []
    await lead(world, 'noprop@example.test', 'Nora Noprop')
    await runJobsNow()
    expect(hubspot.upserts()).toHaveLength(1)
    const [failed] = (await view(world)).syncs
    expect(failed).toMatchObject({ state: 'failed', provider: 'hubspot' })
    expect(failed?.lastError).toMatch(/^HubSpot refused the contact: .*lead_consent/)
    const [job] = await getDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.organizationId, world.organization.id), eq(jobs.name, 'crm.forward')))
    expect(job?.state).toBe('dead')

    hubspot.state.customProperties = ['lead_consent']
    const retried = await post(world, { intent: 'retry', contactId: failed?.contactId ?? '' })
    expect(retried.status).toBe(302)
    await runJobsNow()
    expect((await view(world)).syncs).toEqual([expect.objectContaining({ state: 'synced' })])
    expect(hubspot.notes).toHaveLength(1)
  })

  test('a token HubSpot refuses at forwarding fails the contact with a message saying so', async () => {
    const world = await setup()
    expect((await connectHubspot(world)).status).toBe(302)
    hubspot.state.validTokens = []
    await lead(world, 'revoked@example.test')
    await runJobsNow()
    expect((await view(world)).syncs).toEqual([
      expect.objectContaining({ state: 'failed', lastError: CRM_MESSAGES.hubspotRefusedAtSync }),
    ])
  })

  test('a lead deleting their data is deleted in HubSpot, even after the owner switched to Salesforce', async () => {
    const world = await setup()
    expect((await connectHubspot(world)).status).toBe(302)
    await lead(world, 'gone@example.test', 'Gina Gone')
    await runJobsNow()
    const [contact] = [...hubspot.contacts.values()]
    expect(contact).toBeTruthy()
    expect((await connectSalesforce(world)).status).toBe(302)
    expect((await storedRow(world))?.crmProvider).toBe('salesforce')
    const [sync] = (await view(world)).syncs
    await leadDeletesTheirData(world, sync?.contactId ?? '')
    expect(hubspot.deletions().map((request) => request.path)).toEqual([
      `/crm/v3/objects/contacts/${contact?.id}`,
    ])
    expect(hubspot.contacts.size).toBe(0)
    expect(salesforce.deletions()).toEqual([])
  })
})

describe('Salesforce', () => {
  test('the URL must be Salesforce’s own https domain (loopback only in tests); wrong credentials are refused at the secret’s field; nothing stored', async () => {
    const world = await setup()
    const before = await databaseChecksum()
    const save = (salesforceUrl: string, secret = CLIENT.clientSecret) =>
      post(world, {
        intent: 'save-salesforce',
        salesforceUrl,
        salesforceClientId: CLIENT.clientId,
        salesforceClientSecret: secret,
      })
    for (const url of [
      'https://10.0.0.1',
      'https://169.254.169.254',
      'https://evil.example.com',
      'http://acme.my.salesforce.com',
      'https://salesforce.com.evil.test',
    ]) {
      const response = await save(url)
      expect(response.status, url).toBe(400)
      expect(await response.json()).toMatchObject(
        refusedAt('salesforceUrl', CRM_MESSAGES.salesforceUrlInvalid),
      )
    }
    expect(salesforce.requests).toEqual([])
    const refused = await save(salesforce.url, 'not-the-secret')
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject(
      refusedAt('salesforceClientSecret', CRM_MESSAGES.salesforceRefused),
    )
    expect(salesforce.tokenRequests()).toHaveLength(1)
    expect(salesforce.tokenRequests()[0]?.body).toMatchObject({
      grant_type: 'client_credentials',
      client_id: CLIENT.clientId,
    })
    expect(await databaseChecksum()).toEqual(before)

    // In production (no loopback allowed) the fake's own URL is refused too.
    process.env.CRM_ALLOW_HTTP_LOOPBACK = '0'
    resetEnvForTests()
    try {
      expect(isReachableSalesforceUrl(new URL(salesforce.url))).toBe(false)
      expect(isReachableSalesforceUrl(new URL('https://acme.my.salesforce.com'))).toBe(true)
      expect(isReachableSalesforceUrl(new URL('https://acme--uat.sandbox.my.salesforce.com'))).toBe(
        true,
      )
      expect(isReachableSalesforceUrl(new URL('https://user:pw@acme.my.salesforce.com'))).toBe(
        false,
      )
      expect((await save(salesforce.url)).status).toBe(400)
    } finally {
      delete process.env.CRM_ALLOW_HTTP_LOOPBACK
      resetEnvForTests()
    }
  })

  test('connected: a new lead becomes a Lead with its consent after a client-credentials token; the token is reused, and a refused one renewed once', async () => {
    const world = await setup()
    const saved = await connectSalesforce(world)
    expect(saved.status).toBe(302)
    const row = await storedRow(world)
    expect(row).toMatchObject({
      crmProvider: 'salesforce',
      enabled: true,
      salesforceInstanceUrl: salesforce.url,
      salesforceClientId: CLIENT.clientId,
      salesforceClientSecretLast4: 'ABCD',
    })
    expect(JSON.stringify(row)).not.toContain(CLIENT.clientSecret)
    expect(JSON.stringify(await view(world))).not.toContain(CLIENT.clientSecret)
    // The save's check: a token, then one read of the Lead object with it.
    expect(salesforce.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /services/oauth2/token',
      'GET /services/data/v62.0/sobjects/Lead',
    ])

    salesforce.reset()
    await lead(world, 'sam@example.test', 'Sam Sales')
    await runJobsNow()
    // The token the save got is kept; the fake's reset revoked it, so the first REST call is
    // refused (401 INVALID_SESSION_ID) and a new token is asked for once.
    expect(salesforce.tokenRequests()).toHaveLength(1)
    // An open lead with the email is looked for first, so a job run twice makes one lead.
    expect(
      salesforce.requests.map((request) => `${request.method} ${request.path.split('?')[0]}`),
    ).toEqual([
      'GET /services/data/v62.0/query',
      'POST /services/oauth2/token',
      'GET /services/data/v62.0/query',
      'POST /services/data/v62.0/sobjects/Lead',
    ])
    expect(salesforce.leadCreates()).toHaveLength(1)
    const [lead1] = [...salesforce.leads.values()]
    expect(lead1).toMatchObject({
      FirstName: 'Sam',
      LastName: 'Sales',
      Company: 'Prospects Ltd',
      Email: 'sam@example.test',
      Phone: '+1 555 0100',
      LeadSource: 'Digital business card',
      Lead_Consent__c: expect.stringMatching(/^Version 1, /),
    })
    expect(String(lead1?.Description)).toContain(`"${world.card.title}"`)
    expect(String(lead1?.Description)).toContain('source: lead')
    const [createRequest] = salesforce.leadCreates()
    expect(createRequest?.authorization).toMatch(/^Bearer 00DFAKE/)

    // A second lead: the same token, no new token request.
    await lead(world, 'sue@example.test', 'Sue Sales')
    await runJobsNow()
    expect(salesforce.tokenRequests()).toHaveLength(1)
    expect(salesforce.leads.size).toBe(2)
    expect((await view(world)).syncs.map((sync) => [sync.provider, sync.state])).toEqual([
      ['salesforce', 'synced'],
      ['salesforce', 'synced'],
    ])

    // Run again as if the worker died before recording its end: still two leads.
    await runJobsAgain(world)
    expect(salesforce.leads.size).toBe(2)
    expect(salesforce.leadCreates()).toHaveLength(2)
  })

  test('credentials revoked since: the contact fails with a message saying so, the job is dead', async () => {
    const world = await setup()
    expect((await connectSalesforce(world)).status).toBe(302)
    salesforce.expireTokens()
    salesforce.state.clients = []
    await lead(world, 'late@example.test')
    await runJobsNow()
    expect((await view(world)).syncs).toEqual([
      expect.objectContaining({
        state: 'failed',
        provider: 'salesforce',
        lastError: CRM_MESSAGES.salesforceRefusedAtSync,
      }),
    ])
  })

  test('an org without the consent field, and a Salesforce that is down, are shown per contact', async () => {
    const world = await setup()
    expect((await connectSalesforce(world)).status).toBe(302)
    salesforce.state.customFields = []
    await lead(world, 'nofield@example.test')
    await runJobsNow()
    const [sync] = (await view(world)).syncs
    expect(sync?.state).toBe('failed')
    expect(sync?.lastError).toBe(
      "Salesforce refused the lead: INVALID_FIELD: No such column 'Lead_Consent__c' on sobject of type Lead",
    )
  })

  test('a lead deleting their data is deleted in Salesforce', async () => {
    const world = await setup()
    expect((await connectSalesforce(world)).status).toBe(302)
    await lead(world, 'bye@example.test')
    await runJobsNow()
    const [leadId] = [...salesforce.leads.keys()]
    const [sync] = (await view(world)).syncs
    await leadDeletesTheirData(world, sync?.contactId ?? '')
    expect(salesforce.deletions().map((request) => request.path)).toEqual([
      `/services/data/v62.0/sobjects/Lead/${leadId}`,
    ])
    expect(salesforce.leads.size).toBe(0)
  })
})

describe('one CRM at a time', () => {
  test('the page shows the chosen CRM unless ?crm= asks for another; removing the chosen one’s credentials stops forwarding', async () => {
    const world = await setup()
    expect((await connectHubspot(world)).status).toBe(302)
    expect((await view(world, '?crm=salesforce')).shown).toBe('salesforce')
    expect((await view(world, '?crm=nonsense')).shown).toBe('hubspot')
    const removed = await post(world, { intent: 'save-hubspot', keepStoredHubspotToken: '0' })
    expect(removed.status).toBe(302)
    expect(await storedRow(world)).toMatchObject({ hubspotTokenEncrypted: null, enabled: false })
    hubspot.reset()
    await lead(world, 'after@example.test')
    await runJobsNow()
    expect(hubspot.requests).toEqual([])
  })
})
