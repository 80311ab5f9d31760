// Leads captured offline (issue 45 point 4, ADR 104): the queue's endpoint adds a lead once per
// key however often it is sent, keeps one tenant's keys apart from another's, answers a mistake
// with its message (400, JSON the queue shows), and the page lists only its owner's cards.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { listContacts } from '#app/models/contacts.server'
import { loader as offlineLoader } from '#app/routes/offline'
import { action } from '#app/routes/offline_.leads'
import { LEAD_ALREADY_IN_CONTACTS, LEAD_KEY_REUSED, LEAD_SENT } from '#app/validation/offline-lead'
import { withTenant } from '#drizzle/db.server'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  sessionCookieFor,
  settle,
} from '#tests/factories'

type Owner = { organizationId: string; userId: string; host: string; cookie: string }

async function makeOwner(name: string): Promise<Owner> {
  const agency = await makeOrganization({ name: `${name} Agency` })
  const userId = (await makeUser(agency.id, { firstName: name, lastName: 'Owner' })).id
  return {
    organizationId: agency.id,
    userId,
    host: `${agency.slug}.localhost`,
    cookie: await sessionCookieFor(agency.id, userId),
  }
}

const send = (
  owner: Owner,
  fields: Record<string, string>,
  cookie: string | undefined = owner.cookie,
) =>
  settle(
    () =>
      action({
        request: formRequest(owner.host, '/offline/leads', fields, cookie),
        context: contextFor(owner.host),
        params: {},
      }) as Promise<unknown>,
  )

const contactsOf = (owner: Owner) =>
  withTenant(owner.organizationId, (tx) => listContacts(tx, owner.organizationId, owner.userId, {}))

let ann: Owner
let bob: Owner

beforeAll(async () => {
  ann = await makeOwner('Ann')
  bob = await makeOwner('Bob')
})

describe('sending a lead captured offline', () => {
  test('the same key sent twice adds one contact, and the second answer says the same', async () => {
    const lead = { idempotencyKey: randomUUID(), fullName: 'Eve Event', company: 'Expo Ltd' }
    const first = await send(ann, lead)
    expect(first.status).toBe(200)
    expect(first.headers.get('Content-Type')).toMatch(/application\/json/)
    const firstBody = await first.json()
    expect(firstBody.lead).toEqual({ status: 'created', message: LEAD_SENT, replayed: false })
    const again = await send(ann, lead)
    expect(again.status).toBe(200)
    expect((await again.json()).lead).toEqual({
      status: 'created',
      message: LEAD_SENT,
      replayed: true,
    })
    const named = (await contactsOf(ann)).filter((contact) => contact.fullName === 'Eve Event')
    expect(named).toHaveLength(1)
    expect(named[0]?.company).toBe('Expo Ltd')
  })

  test('another key with the same details is another lead', async () => {
    const fields = { fullName: 'Twin Lead' }
    await send(ann, { ...fields, idempotencyKey: randomUUID() })
    await send(ann, { ...fields, idempotencyKey: randomUUID() })
    const named = (await contactsOf(ann)).filter((contact) => contact.fullName === 'Twin Lead')
    expect(named).toHaveLength(2)
  })

  test('a key reused with other details is refused, and nothing is added', async () => {
    const idempotencyKey = randomUUID()
    await send(ann, { idempotencyKey, fullName: 'First Use' })
    const reused = await send(ann, { idempotencyKey, fullName: 'Second Use' })
    expect(reused.status).toBe(422)
    expect((await reused.json()).error).toBe(LEAD_KEY_REUSED)
    expect((await contactsOf(ann)).some((contact) => contact.fullName === 'Second Use')).toBe(false)
  })

  test("one tenant's key is not another's: the same key adds a lead in each", async () => {
    const idempotencyKey = randomUUID()
    const lead = { idempotencyKey, fullName: 'Shared Key' }
    expect((await (await send(ann, lead)).json()).lead.replayed).toBe(false)
    expect((await (await send(bob, lead)).json()).lead.replayed).toBe(false)
    expect((await contactsOf(ann)).filter((c) => c.fullName === 'Shared Key')).toHaveLength(1)
    expect((await contactsOf(bob)).filter((c) => c.fullName === 'Shared Key')).toHaveLength(1)
  })

  test('a lead whose email is already a contact arrives as already there', async () => {
    const email = 'known@example.com'
    await send(ann, { idempotencyKey: randomUUID(), fullName: 'Known Person', email })
    const second = await send(ann, { idempotencyKey: randomUUID(), fullName: 'Known Again', email })
    expect(second.status).toBe(200)
    expect((await second.json()).lead.message).toBe(LEAD_ALREADY_IN_CONTACTS)
  })

  test('a mistake is answered with its message next to its field, as JSON', async () => {
    const bad = await send(ann, {
      idempotencyKey: randomUUID(),
      fullName: 'Ivy',
      email: 'not-an-email',
    })
    expect(bad.status).toBe(400)
    const body = await bad.json()
    expect(body.error).toBe('Please enter a valid email address')
    expect(body.result.error.email).toEqual(['Please enter a valid email address'])
    const noKey = await send(ann, { idempotencyKey: 'not-a-uuid', fullName: 'Ivy Keyless' })
    expect(noKey.status).toBe(400)
    expect((await noKey.json()).error).toMatch(/no valid key/)
    expect((await contactsOf(ann)).some((contact) => contact.fullName.startsWith('Ivy'))).toBe(
      false,
    )
  })

  test('signed out, the lead is not taken: a redirect to sign in, which the queue does not follow', async () => {
    const answer = await send(ann, { idempotencyKey: randomUUID(), fullName: 'No Session' }, '')
    expect(answer.status).toBe(302)
    expect(answer.headers.get('Location')).toMatch(/^\/auth\/login/)
  })
})

describe('the offline page', () => {
  test("lists its owner's cards with their QR code and vCard, archived ones left out", async () => {
    const card = await makeCard(ann.organizationId, ann.userId, { title: 'Expo card' })
    await makeCard(ann.organizationId, ann.userId, { title: 'Old card', archivedAt: new Date() })
    await makeCard(bob.organizationId, bob.userId, { title: 'Bob card' })
    const page = (await offlineLoader({
      request: new Request(`http://${ann.host}/offline`, { headers: { Cookie: ann.cookie } }),
      context: contextFor(ann.host),
      params: {},
    })) as Awaited<ReturnType<typeof offlineLoader>>
    expect(page.cards.map((c) => c.title)).toEqual(['Expo card'])
    expect(page.cards[0]).toMatchObject({
      qrUrl: `/card/${card.id}/qr.svg`,
      vcardUrl: `/card/${card.id}/vcard`,
    })
  })
})
