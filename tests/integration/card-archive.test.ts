// Archiving a card (issue 43, ADR 095): the default moves off an archived card and comes back to
// a restored one when its owner has none; an archived card cannot be made the default; the
// owner's list archives and restores with an audit row each; the REST API archives, restores and
// filters by state; each change tells `card.updated` subscribers once. What an archived card
// shows on every surface (nothing) is tests/integration/card-surfaces.test.ts's.
import { createServer, type Server } from 'node:http'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApiKey } from '#app/api/manage-api-keys.server'
import type { Actor } from '#app/auth/guards.server'
import { setCardArchived } from '#app/cards/card-archive.server'
import { resetEnvForTests } from '#app/env.server'
import { createCard, getDefaultCardForOwner, setDefaultCard } from '#app/models/cards.server'
import { action as apiAction, loader as apiLoader } from '#app/routes/api.v1.$'
import { action as listAction } from '#app/routes/dashboard.end-user.digital-cards._index'
import type { Tenant } from '#app/tenancy/tenant.server'
import { API_SCOPES, type ApiScope } from '#app/validation/api'
import { createEndpoint } from '#app/webhooks/webhook-endpoints.server'
import { withTenant } from '#drizzle/db.server'
import { auditEvents, digitalCards, webhookMessages } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  sessionCookieFor,
  settle,
} from '#tests/factories'

type Org = Awaited<ReturnType<typeof makeOrganization>>
let agency: Org
let key = ''
/** A receiver on 127.0.0.1: the deliveries a request's settling runs reach it at once. */
let receiver: Server
const received: string[] = []

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = '1'
  resetEnvForTests()
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'))
      response.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const address = receiver.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  agency = await makeOrganization({ name: 'Archive Agency' })
  const admin = await makeUser(agency.id, { role: 'agency_admin' })
  const actor: Actor = {
    tenant: { id: agency.id, kind: 'agency', name: agency.name, slug: agency.slug } as Tenant,
    user: admin,
    session: { sessionId: 'test' },
  }
  key = (await createApiKey(actor, { name: 'Cards', scopes: [...API_SCOPES] as ApiScope[] })).key
  await createEndpoint(
    { organizationId: agency.id, userId: admin.id },
    {
      url: `http://127.0.0.1:${address.port}/hooks`,
      description: '',
      eventTypes: ['card.updated'],
    },
  )
})

afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE
  resetEnvForTests()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

const archive = (userId: string, cardId: string, archived = true) =>
  withTenant(agency.id, (tx) => setCardArchived(tx, agency.id, userId, cardId, archived))

const defaultOf = async (userId: string) =>
  (await withTenant(agency.id, (tx) => getDefaultCardForOwner(tx, agency.id, userId)))?.card.id

async function ownerWithCards(count: number) {
  const owner = await makeUser(agency.id)
  const cards = []
  for (let n = 0; n < count; n++) {
    cards.push(await makeCard(agency.id, owner.id, { title: `Card ${n}` }))
  }
  return { owner, cards }
}

const cardUpdates = (cardId: string) =>
  withTenant(agency.id, async (tx) =>
    (
      await tx
        .select({ payload: webhookMessages.payload })
        .from(webhookMessages)
        .where(
          and(
            eq(webhookMessages.organizationId, agency.id),
            eq(webhookMessages.eventType, 'card.updated'),
          ),
        )
    ).filter((row) => (row.payload.data as { id: string }).id === cardId),
  )

describe('the default card', () => {
  test('archiving the default hands it to the oldest live card; restoring gives it back only to an owner without one', async () => {
    const { owner, cards } = await ownerWithCards(3)
    const [first, second, third] = cards.map((card) => card.id) as [string, string, string]
    expect(await defaultOf(owner.id)).toBe(first)
    await archive(owner.id, first)
    expect(await defaultOf(owner.id)).toBe(second)
    // The default stays where it is when the old one comes back.
    await archive(owner.id, first, false)
    expect(await defaultOf(owner.id)).toBe(second)
    // Every card archived: no default; the first one restored becomes it.
    for (const id of [first, second, third]) await archive(owner.id, id)
    expect(await defaultOf(owner.id)).toBeUndefined()
    await archive(owner.id, third, false)
    expect(await defaultOf(owner.id)).toBe(third)
  })

  test('an archived card cannot be made the default; a card made while all are archived is the default', async () => {
    const { owner, cards } = await ownerWithCards(2)
    const [first, second] = cards.map((card) => card.id) as [string, string]
    await archive(owner.id, second)
    expect(
      await withTenant(agency.id, (tx) => setDefaultCard(tx, agency.id, owner.id, second)),
    ).toBe(false)
    await archive(owner.id, first)
    const made = await withTenant(agency.id, (tx) =>
      createCard(tx, agency.id, owner.id, { firstName: 'New', lastName: 'Card', title: 'Fresh' }),
    )
    expect(made.isDefault).toBe(true)
  })

  test("another owner's card is not found, and nothing changes", async () => {
    const { cards } = await ownerWithCards(1)
    const stranger = await makeUser(agency.id)
    const card = cards[0] as { id: string }
    expect(await archive(stranger.id, card.id)).toBeUndefined()
    const [row] = await withTenant(agency.id, (tx) =>
      tx.select().from(digitalCards).where(eq(digitalCards.id, card.id)),
    )
    expect(row?.archivedAt).toBeNull()
  })
})

describe("the owner's card list", () => {
  test('Archive and Restore change the card, toast, audit and tell card.updated subscribers once each', async () => {
    const { owner, cards } = await ownerWithCards(2)
    const card = cards[1] as { id: string }
    const cookie = await sessionCookieFor(agency.id, owner.id)
    const host = `${agency.slug}.localhost`
    const post = (intent: string) =>
      settle(() =>
        listAction({
          request: formRequest(
            host,
            '/dashboard/end-user/digital-cards',
            { intent, cardId: card.id },
            cookie,
          ),
          context: contextFor(host),
          params: {},
        }),
      )
    expect((await post('archive')).status).toBe(302)
    // A second archive changes nothing and sends nothing.
    expect((await post('archive')).status).toBe(302)
    const [archived] = await withTenant(agency.id, (tx) =>
      tx.select().from(digitalCards).where(eq(digitalCards.id, card.id)),
    )
    expect(archived?.archivedAt).toBeInstanceOf(Date)
    expect(await cardUpdates(card.id)).toHaveLength(1)
    expect(received.some((body) => body.includes(card.id))).toBe(true)
    expect((await post('restore')).status).toBe(302)
    const [restored] = await withTenant(agency.id, (tx) =>
      tx.select().from(digitalCards).where(eq(digitalCards.id, card.id)),
    )
    expect(restored?.archivedAt).toBeNull()
    expect(await cardUpdates(card.id)).toHaveLength(2)
    const audit = await withTenant(agency.id, (tx) =>
      tx
        .select({ action: auditEvents.action })
        .from(auditEvents)
        .where(eq(auditEvents.entityId, card.id)),
    )
    expect(audit.map((row) => row.action).sort()).toEqual([
      'card.archived',
      'card.archived',
      'card.restored',
    ])
  })

  test("another person's card is a 404 and stays live", async () => {
    const { cards } = await ownerWithCards(1)
    const stranger = await makeUser(agency.id)
    const card = cards[0] as { id: string }
    const host = `${agency.slug}.localhost`
    const strangerCookie = await sessionCookieFor(agency.id, stranger.id)
    const refused = await settle(() =>
      listAction({
        request: formRequest(
          host,
          '/dashboard/end-user/digital-cards',
          { intent: 'archive', cardId: card.id },
          strangerCookie,
        ),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(refused.status).toBe(404)
    const [row] = await withTenant(agency.id, (tx) =>
      tx.select().from(digitalCards).where(eq(digitalCards.id, card.id)),
    )
    expect(row?.archivedAt).toBeNull()
  })
})

async function api(method: string, path: string) {
  const host = `${agency.slug}.localhost`
  const request = new Request(`http://${host}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}` },
  })
  const handler = method === 'GET' ? apiLoader : apiAction
  const response = (await handler({ request, context: contextFor(host), params: {} })) as Response
  const text = await response.text()
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  }
}

describe('the REST API', () => {
  test('archive and restore a card; the list filters by state; the answer carries archived_at', async () => {
    const { owner, cards } = await ownerWithCards(2)
    const [first, second] = cards.map((card) => card.id) as [string, string]
    const archived = await api('POST', `/cards/${first}/archive`)
    expect(archived.status).toBe(200)
    expect(archived.body).toMatchObject({ id: first, is_default: false })
    expect(typeof archived.body.archived_at).toBe('string')
    expect(await defaultOf(owner.id)).toBe(second)
    const listed = async (query: string) =>
      ((await api('GET', `/cards?limit=200${query}`)).body.data as { id: string }[]).map(
        (card) => card.id,
      )
    expect(await listed('&archived=true')).toContain(first)
    expect(await listed('&archived=true')).not.toContain(second)
    expect(await listed('&archived=false')).not.toContain(first)
    expect(await listed('')).toEqual(expect.arrayContaining([first, second]))
    const restored = await api('POST', `/cards/${first}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.body.archived_at).toBeNull()
    const audit = await withTenant(agency.id, (tx) =>
      tx
        .select({ action: auditEvents.action, metadata: auditEvents.metadata })
        .from(auditEvents)
        .where(eq(auditEvents.entityId, first)),
    )
    expect(audit.map((row) => row.action).sort()).toEqual(['card.archived', 'card.restored'])
    expect(audit[0]?.metadata).toMatchObject({ via: 'api' })
  })

  test('an unknown card is a 404 problem; a bad state filter a 400', async () => {
    expect((await api('POST', `/cards/${crypto.randomUUID()}/archive`)).status).toBe(404)
    expect((await api('GET', '/cards?archived=maybe')).status).toBe(400)
  })
})
