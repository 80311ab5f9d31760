// Webhooks per the Standard Webhooks specification (issue 43 point 3, ADR 093): a local receiver
// gets the events, signed so the `standardwebhooks` library verifies them; retries are logged
// attempt by attempt; a rotation's overlap sends both signatures; private targets are refused
// in production mode before any connection; an endpoint failing for days is disabled and its
// admins emailed; each event type is written once by its fact.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { and, eq, sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { addContactAndForward } from '#app/crm/forwarding.server'
import { hashToken, newLinkToken } from '#app/email/link-token.server'
import { resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { scheduleAccountDeletion } from '#app/models/account-deletions.server'
import { addContact } from '#app/models/contacts.server'
import type { Job } from '#app/models/jobs.server'
import { deliveryJobKey } from '#app/models/webhooks.server'
import { deleteAccountWhenDue } from '#app/people/account-deletion.server'
import { action as cardAction } from '#app/routes/card.$ref'
import { action as usersAction } from '#app/routes/dashboard.agency.users._index'
import * as leadData from '#app/routes/lead-data'
import { writeCardUnderTemplate } from '#app/templates/template-locks.server'
import { isRefusal } from '#app/utils/action-error'
import {
  WEBHOOK_URL_INVALID,
  WEBHOOK_URL_PRIVATE,
  webhookRetryDelayMs,
} from '#app/validation/webhooks'
import {
  CARD_VIEWS_CATCH_UP_HOURS,
  cardViewsDigestJob,
  emitCardViewsDigests,
} from '#app/webhooks/webhook-card-views.server'
import {
  createEndpoint,
  readDeliveryLog,
  resendDelivery,
  rotateEndpointSecret,
  type WebhookActor,
} from '#app/webhooks/webhook-endpoints.server'
import {
  emitContactsDeletedWithAccount,
  emitWebhookEvent,
} from '#app/webhooks/webhook-events.server'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  cardViewHours,
  contacts,
  emailOutbox,
  jobs,
  organizations,
  webhookDeliveries,
  webhookDigestCursors,
  webhookEndpoints,
  webhookMessages,
} from '#drizzle/schema'
import { startConnectionCounter } from '#tests/connection-counter'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  sessionCookieFor,
  settle,
} from '#tests/factories'

type Received = { headers: IncomingHttpHeaders; body: string }

/** A receiver on 127.0.0.1 that answers with the next scripted status (200 when none is left). */
let receiver: Server
let receiverUrl: string
let received: Received[] = []
let script: number[] = []

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = '1'
  resetEnvForTests()
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      response.statusCode = script.shift() ?? 200
      response.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const address = receiver.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  receiverUrl = `http://127.0.0.1:${address.port}/hooks`
})

afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE
  resetEnvForTests()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

beforeEach(() => {
  received = []
  script = []
})

async function agency() {
  const organization = await makeOrganization({ name: 'Hooks Co' })
  const host = `${organization.slug}.localhost`
  const passwordHash = 'not-a-password'
  const admin = await makeUser(organization.id, { role: 'agency_admin', passwordHash })
  const owner = await makeUser(organization.id, {
    firstName: 'Olga',
    lastName: 'Owner',
    passwordHash,
  })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Olga', lastName: 'Owner' })
  const actor: WebhookActor = { organizationId: organization.id, userId: admin.id }
  return { organization, host, admin, owner, card, actor }
}
type World = Awaited<ReturnType<typeof agency>>

let visitor = 1
const lead = (world: World, fullName = 'Lena Lead') =>
  settle(() =>
    cardAction({
      request: formRequest(world.host, `/card/${world.card.id}`, {
        intent: 'lead',
        fullName,
        email: `lena${visitor}@example.test`,
        company: 'Prospects Ltd',
      }),
      context: contextFor(world.host, `198.51.100.${visitor++}`),
      params: { ref: world.card.id },
    }),
  )

const verify = (secret: string, delivery: Received) =>
  new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
    type: string
    data: Record<string, unknown>
  }

async function emitTest(world: World) {
  await withTenant(world.organization.id, (tx) =>
    emitWebhookEvent(tx, world.organization.id, 'contact.created', { id: 'test' }),
  )
}

describe('delivery', () => {
  test('a lead left on a card reaches the receiver once, signed, naming the lead', async () => {
    const world = await agency()
    const { secret } = await createEndpoint(world.actor, {
      url: receiverUrl,
      description: 'CRM',
      eventTypes: ['lead.created'],
    })
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect((await lead(world)).status).toBe(200)
    await runJobsNow()
    expect(received).toHaveLength(1)
    const [delivery] = received
    if (!delivery) throw new Error('no delivery')
    expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    // Says what sent it and where the endpoint is managed: the agency's own screen, its name only.
    expect(delivery.headers['user-agent']).toMatch(
      new RegExp(
        `^Webhooks/1\\.0 \\(\\+http://${world.organization.slug}\\.localhost(:\\d+)?/dashboard/agency/webhooks\\)$`,
      ),
    )
    const payload = verify(secret, delivery)
    expect(payload.type).toBe('lead.created')
    expect(payload.data).toMatchObject({
      fullName: 'Lena Lead',
      source: 'lead',
      company: 'Prospects Ltd',
    })
    // Another secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      ),
    ).toThrow()
    // The secret is stored sealed, never in clear.
    const [row] = await getDb()
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, world.organization.id))
    expect(row?.secretSealed).toMatch(/^v1\./)
    expect(JSON.stringify(row)).not.toContain(secret.slice(6))
  })

  test("the User-Agent names the agency's verified domain, once it has one", async () => {
    const world = await agency()
    const domain = `hooks-${world.organization.slug}.example.test`
    await getDb()
      .update(organizations)
      .set({ customDomain: domain, customDomainVerifiedAt: new Date() })
      .where(eq(organizations.id, world.organization.id))
    await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['contact.created'],
    })
    await emitTest(world)
    await runJobsNow()
    expect(received.map((r) => r.headers['user-agent'])).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Webhooks/1\\.0 \\(\\+https?://${domain}(:\\d+)?/dashboard/agency/webhooks\\)$`,
        ),
      ),
    ])
  })

  test('500 twice then 200: three attempts in the log, the last a success; Resend adds one', async () => {
    const world = await agency()
    await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['contact.created'],
    })
    script = [500, 500, 200]
    await emitTest(world)
    await runJobsNow()
    expect(received).toHaveLength(3)
    // The same message each time: one webhook-id for the receiver to dedupe on.
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    const log = await readDeliveryLog(world.actor, { limit: 10, offset: 0 })
    expect(log.deliveries).toHaveLength(1)
    const [delivery] = log.deliveries
    expect(delivery?.status).toBe('succeeded')
    expect(delivery?.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [500, 'Answered 500'],
      [500, 'Answered 500'],
      [200, null],
    ])
    expect(delivery?.attempts.every((a) => a.responseBytes === 2)).toBe(true)
    await resendDelivery(world.actor, delivery?.id ?? '')
    await runJobsNow()
    const again = await readDeliveryLog(world.actor, { limit: 10, offset: 0 })
    expect(again.deliveries[0]?.attempts.map((a) => a.manual)).toEqual([false, false, false, true])
    expect(received).toHaveLength(4)
  })

  test('the backoff grows by four with ±25% jitter, capped at 12 hours', () => {
    expect(webhookRetryDelayMs(1, 30_000, () => 0.5)).toBe(30_000)
    expect(webhookRetryDelayMs(2, 30_000, () => 0.5)).toBe(120_000)
    expect(webhookRetryDelayMs(3, 30_000, () => 0)).toBe(360_000)
    expect(webhookRetryDelayMs(3, 30_000, () => 1)).toBe(600_000)
    expect(webhookRetryDelayMs(20, 30_000, () => 0.5)).toBe(12 * 60 * 60_000)
  })

  test('during a rotation both secrets sign, each verifies; after it only the new one', async () => {
    const world = await agency()
    const { endpoint, secret: old } = await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['contact.created'],
    })
    const { secret: fresh } = await rotateEndpointSecret(world.actor, endpoint.id, 24)
    await emitTest(world)
    await runJobsNow()
    const [overlap] = received
    if (!overlap) throw new Error('no delivery')
    const signatures = String(overlap.headers['webhook-signature']).split(' ')
    expect(signatures).toHaveLength(2)
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true)
    expect(verify(old, overlap).type).toBe('contact.created')
    expect(verify(fresh, overlap).type).toBe('contact.created')
    const { secret: third } = await rotateEndpointSecret(world.actor, endpoint.id, 0)
    received = []
    await emitTest(world)
    await runJobsNow()
    const [after] = received
    if (!after) throw new Error('no delivery')
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verify(third, after).type).toBe('contact.created')
    expect(() => verify(fresh, after)).toThrow()
  })
})

describe('targets in production mode (WEBHOOK_ALLOW_PRIVATE off)', () => {
  async function production<T>(work: () => Promise<T>) {
    process.env.WEBHOOK_ALLOW_PRIVATE = '0'
    resetEnvForTests()
    try {
      return await work()
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = '1'
      resetEnvForTests()
    }
  }

  test('loopback, private and link-local literals and plain http are refused at creation', async () => {
    const world = await agency()
    const refusalOf = (url: string) =>
      production(() =>
        createEndpoint(world.actor, { url, description: '', eventTypes: ['lead.created'] }).then(
          () => null,
          (error: unknown) => (isRefusal(error) ? error.message : String(error)),
        ),
      )
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://10.0.0.1/hooks',
      'https://169.254.169.254/latest',
      'https://[::1]/',
      'https://[::ffff:192.168.1.1]/',
    ]) {
      expect(await refusalOf(url), url).toBe(WEBHOOK_URL_PRIVATE)
    }
    expect(await refusalOf('http://hooks.example.com/')).toBe(WEBHOOK_URL_INVALID)
  })

  test('on every attempt: a name resolving to loopback and a private literal reach nothing', async () => {
    const world = await agency()
    const counter = await startConnectionCounter()
    try {
      // Made while allowed (development), then delivered under production's rule.
      await createEndpoint(world.actor, {
        url: `https://localhost:${counter.port}/hooks`,
        description: '',
        eventTypes: ['contact.created'],
      })
      await getDb()
        .insert(webhookEndpoints)
        .values({
          organizationId: world.organization.id,
          url: 'https://10.0.0.1/hooks',
          eventTypes: ['contact.created'],
          secretSealed:
            (
              await getDb()
                .select({ s: webhookEndpoints.secretSealed })
                .from(webhookEndpoints)
                .where(eq(webhookEndpoints.organizationId, world.organization.id))
            )[0]?.s ?? '',
        })
      // Each failed attempt's retry is due at once here (WEBHOOK_RETRY_BASE_MS=0), so the
      // queue never empties: three attempts of each delivery are enough to see every one refused.
      await production(async () => {
        await emitTest(world)
        await runJobsNow(undefined, 6)
      })
      expect(counter.connections()).toBe(0)
      const log = await readDeliveryLog(world.actor, { limit: 10, offset: 0 })
      expect(log.deliveries.map((d) => d.attempts.length)).toEqual([3, 3])
      const errors = log.deliveries.map((d) => [...new Set(d.attempts.map((a) => a.error))]).sort()
      expect(errors).toEqual(
        [
          [expect.stringMatching(/^Refused: (127\.0\.0\.1|::1) is not a public address$/)],
          [WEBHOOK_URL_PRIVATE],
        ].sort(),
      )
      expect(log.deliveries.every((d) => d.status === 'pending')).toBe(true)
    } finally {
      await counter.close()
      // Their retries would stay due for the next test's queue run: gone with their endpoints.
      await getDb()
        .delete(webhookEndpoints)
        .where(eq(webhookEndpoints.organizationId, world.organization.id))
      await runJobsNow()
    }
  })
})

describe('an endpoint failing for days', () => {
  test('is disabled after its last retry and its admins are emailed; later deliveries fail unsent', async () => {
    const world = await agency()
    const { endpoint } = await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['contact.created'],
    })
    script = [503]
    await emitTest(world)
    // The message is three days old: this attempt is its last (no clock is waited on).
    await getDb()
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '3 days 1 minute'` })
      .where(eq(webhookDeliveries.organizationId, world.organization.id))
    await runJobsNow()
    const [row] = await getDb()
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id))
    expect(row?.disabledAt).not.toBeNull()
    expect(row?.disabledReason).toContain('Answered 503')
    const log = await readDeliveryLog(world.actor, { limit: 10, offset: 0 })
    expect(log.deliveries[0]?.status).toBe('failed')
    const emails = await getDb()
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.organizationId, world.organization.id),
          eq(emailOutbox.toAddress, world.admin.email),
        ),
      )
    expect(emails.map((email) => email.subject)).toEqual([
      'A Hooks Co webhook endpoint was disabled',
    ])
    // The email names the host, never the URL's path (it may hold a token).
    expect(emails[0]?.text).toContain('127.0.0.1')
    expect(emails[0]?.text).not.toContain('/hooks')
    // Disabled: nothing more is subscribed, nothing is sent; Resend is refused.
    received = []
    await emitTest(world)
    await runJobsNow()
    expect(received).toHaveLength(0)
    await expect(resendDelivery(world.actor, log.deliveries[0]?.id ?? '')).rejects.toThrow(
      'Turn the endpoint on again',
    )
  })

  test('is disabled once it has failed for three days, whatever message fails', async () => {
    const world = await agency()
    const { endpoint } = await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['contact.created'],
    })
    await getDb()
      .update(webhookEndpoints)
      .set({ failingSince: sql`now() - interval '3 days 1 minute'` })
      .where(eq(webhookEndpoints.id, endpoint.id))
    script = [500]
    await emitTest(world)
    await runJobsNow()
    const [row] = await getDb()
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id))
    expect(row?.disabledAt).not.toBeNull()
  })
})

describe('each event is written once by its fact', () => {
  test('lead, contact, deletion, card edit, deactivation and the hourly views digest', async () => {
    const world = await agency()
    const orgId = world.organization.id
    await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: [
        'lead.created',
        'contact.created',
        'contact.deleted',
        'card.updated',
        'card.viewed',
        'user.deactivated',
      ],
    })
    const types = async () =>
      (
        await getDb()
          .select({ type: webhookMessages.eventType })
          .from(webhookMessages)
          .where(eq(webhookMessages.organizationId, orgId))
      )
        .map((row) => row.type)
        .sort()

    // A lead: contact.created and lead.created; the same address again is no new contact.
    await lead(world)
    expect(await types()).toEqual(['contact.created', 'lead.created'])

    // The lead deletes their data through the receipt link.
    const token = newLinkToken()
    await withTenant(orgId, (tx) =>
      addContact(tx, orgId, world.owner.id, {
        fullName: 'Dora Deleted',
        email: 'dora@example.test',
        source: 'lead',
        dataTokenHash: hashToken(token),
      }),
    )
    const deleted = await settle(() =>
      leadData.action({
        request: formRequest(world.host, `/lead-data?token=${token}`, { intent: 'delete' }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    expect(deleted.status).toBeLessThan(400)
    expect((await types()).filter((t) => t === 'contact.deleted')).toHaveLength(1)

    // The card edited through the rule module every card write passes.
    await withTenant(orgId, (tx) =>
      writeCardUnderTemplate(tx, orgId, world.owner.id, world.card.id, {
        fields: { jobTitle: 'Head of Hooks' },
      }),
    )
    expect((await types()).filter((t) => t === 'card.updated')).toHaveLength(1)

    // Deactivated by the admin; deactivating again is no new fact.
    const cookie = await sessionCookieFor(orgId, world.admin.id)
    for (let i = 0; i < 2; i++) {
      await settle(() =>
        usersAction({
          request: formRequest(
            world.host,
            '/dashboard/agency/users',
            { intent: 'set-status', userId: world.owner.id, status: 'inactive' },
            cookie,
          ),
          context: contextFor(world.host),
          params: {},
        }),
      )
    }
    expect((await types()).filter((t) => t === 'user.deactivated')).toHaveLength(1)

    // The hourly digest: one message for the hour, whatever runs it twice.
    const hour = new Date('2026-11-30T10:00:00.000Z')
    await getDb()
      .insert(cardViewHours)
      .values([
        { organizationId: orgId, cardId: world.card.id, hour, source: 'qr', views: 3 },
        { organizationId: orgId, cardId: world.card.id, hour, source: 'direct', views: 2 },
      ])
    expect(await emitCardViewsDigests(orgId, hour)).toBe(1)
    expect(await emitCardViewsDigests(orgId, hour)).toBe(0)
    const [digest] = await getDb()
      .select()
      .from(webhookMessages)
      .where(
        and(
          eq(webhookMessages.organizationId, orgId),
          eq(webhookMessages.eventType, 'card.viewed'),
        ),
      )
    expect(digest?.payload).toMatchObject({
      type: 'card.viewed',
      data: {
        hourStart: '2026-11-30T10:00:00.000Z',
        cards: [
          { id: world.card.id, ownerId: world.owner.id, views: 5, sources: { qr: 3, direct: 2 } },
        ],
      },
    })
    expect(await types()).toEqual([
      'card.updated',
      'card.viewed',
      'contact.created',
      'contact.deleted',
      'lead.created',
      'user.deactivated',
    ])
    // Each reaches the receiver, signed.
    await runJobsNow()
    expect(received).toHaveLength(6)
  })

  test('a lead who deletes their data leaves nothing of theirs in messages still to deliver', async () => {
    const world = await agency()
    const orgId = world.organization.id
    await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['lead.created', 'contact.created', 'contact.deleted'],
    })
    const token = newLinkToken()
    const added = await withTenant(orgId, (tx) =>
      addContactAndForward(tx, orgId, world.owner.id, {
        fullName: 'Rita Redacted',
        email: 'rita.redacted@example.test',
        source: 'lead',
        dataTokenHash: hashToken(token),
      }),
    )
    const payloads = async () =>
      JSON.stringify(
        await getDb()
          .select({ payload: webhookMessages.payload })
          .from(webhookMessages)
          .where(eq(webhookMessages.organizationId, orgId)),
      )
    expect(await payloads()).toContain('rita.redacted@example.test')
    const deleted = await settle(() =>
      leadData.action({
        request: formRequest(world.host, `/lead-data?token=${token}`, { intent: 'delete' }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    expect(deleted.status).toBeLessThan(400)
    const after = await payloads()
    expect(after).not.toContain('rita.redacted@example.test')
    expect(after).not.toContain('Rita')
    // Which contact it was stays, so a receiver can drop its own copy.
    if (added.status !== 'created') throw new Error('lead not created')
    expect(after).toContain(added.contact.id)
  })

  test('contacts deleted with their account each send contact.deleted, and what named them is redacted', async () => {
    const world = await agency()
    const orgId = world.organization.id
    const { secret } = await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['contact.created', 'contact.deleted'],
    })
    const leaver = await makeUser(orgId, { firstName: 'Lee', lastName: 'Leaver' })
    const gone: string[] = []
    for (const name of ['Gina Gone', 'Gus Gone', 'Gail Gone']) {
      const added = await withTenant(orgId, (tx) =>
        addContactAndForward(tx, orgId, leaver.id, {
          fullName: name,
          email: `${name.split(' ')[0]?.toLowerCase()}.gone@example.test`,
          source: 'saved',
        }),
      )
      if (added.status !== 'created') throw new Error('contact not created')
      gone.push(added.contact.id)
    }
    // Another person's contact stays, and so does what its message says.
    await withTenant(orgId, (tx) =>
      addContactAndForward(tx, orgId, world.owner.id, {
        fullName: 'Kim Kept',
        email: 'kim.kept@example.test',
        source: 'saved',
      }),
    )
    // The account deletion job's work (ADR 053), due now: the account and its contacts go.
    const now = new Date()
    await withTenant(orgId, (tx) =>
      scheduleAccountDeletion(tx, orgId, leaver.id, new Date(now.getTime() - 60_000)),
    )
    expect(await deleteAccountWhenDue(orgId, leaver.id, { now })).toBe(true)

    const messages = await getDb()
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.organizationId, orgId))
    const deleted = messages.filter((m) => m.eventType === 'contact.deleted')
    expect(deleted.map((m) => (m.payload.data as { id: string }).id).sort()).toEqual(
      [...gone].sort(),
    )
    for (const message of deleted) {
      expect(message.payload).toEqual({
        type: 'contact.deleted',
        timestamp: expect.any(String),
        data: {
          id: expect.any(String),
          ownerId: leaver.id,
          reason: 'account_deleted',
          deletedAt: (message.payload as { timestamp: string }).timestamp,
        },
      })
    }
    const stored = JSON.stringify(messages)
    expect(stored).not.toContain('.gone@example.test')
    expect(stored).not.toContain('Gone')
    expect(stored).toContain('kim.kept@example.test')

    // Each reaches the receiver, signed: three created (redacted), one kept, three deleted.
    await runJobsNow()
    const types = received.map((delivery) => verify(secret, delivery).type).sort()
    expect(types).toEqual([
      'contact.created',
      'contact.created',
      'contact.created',
      'contact.created',
      'contact.deleted',
      'contact.deleted',
      'contact.deleted',
    ])
  })

  test("an account's many contacts: one message each, a delivery and a job per subscribed endpoint", async () => {
    const world = await agency()
    const orgId = world.organization.id
    for (const url of [receiverUrl, `${receiverUrl}/second`]) {
      await createEndpoint(world.actor, { url, description: '', eventTypes: ['contact.deleted'] })
    }
    // Disabled, or not subscribed: nothing for these.
    const { endpoint: off } = await createEndpoint(world.actor, {
      url: `${receiverUrl}/off`,
      description: '',
      eventTypes: ['contact.deleted'],
    })
    await getDb()
      .update(webhookEndpoints)
      .set({ disabledAt: new Date() })
      .where(eq(webhookEndpoints.id, off.id))
    await createEndpoint(world.actor, {
      url: `${receiverUrl}/other`,
      description: '',
      eventTypes: ['contact.created'],
    })
    const leaver = await makeUser(orgId, { firstName: 'Max', lastName: 'Many' })
    const many = 600
    await getDb()
      .insert(contacts)
      .values(
        Array.from({ length: many }, (_, i) => ({
          organizationId: orgId,
          userId: leaver.id,
          fullName: `Contact ${i}`,
        })),
      )
    const at = new Date('2026-12-01T09:00:00.000Z')
    const written = await withTenant(orgId, (tx) =>
      emitContactsDeletedWithAccount(tx, orgId, leaver.id, at),
    )
    expect(written).toEqual({ messages: many, deliveries: 2 * many })
    const deliveries = await getDb()
      .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.organizationId, orgId))
    expect(deliveries).toHaveLength(2 * many)
    expect(deliveries.some((d) => d.endpointId === off.id)).toBe(false)
    // Each delivery's first attempt is queued under the key a single event's would have.
    const queued = await getDb()
      .select({ key: jobs.idempotencyKey, payload: jobs.payload, runAt: jobs.runAt })
      .from(jobs)
      .where(and(eq(jobs.organizationId, orgId), eq(jobs.name, 'webhook.deliver')))
    expect(queued.map((job) => job.key).sort()).toEqual(
      deliveries.map((d) => deliveryJobKey(d.id, 1)).sort(),
    )
    expect(queued[0]?.payload).toEqual({ deliveryId: expect.any(String), attempt: '1' })
    expect(queued[0]?.runAt.toISOString()).toBe(at.toISOString())
    // Not sent: the test's other receivers would hear of these twelve hundred.
    await getDb().delete(jobs).where(eq(jobs.organizationId, orgId))
    // Without a subscriber nothing is written.
    const quiet = await agency()
    const none = await withTenant(quiet.organization.id, (tx) =>
      emitContactsDeletedWithAccount(tx, quiet.organization.id, quiet.owner.id, at),
    )
    expect(none).toEqual({ messages: 0, deliveries: 0 })
  })

  test('an agency without a subscribed endpoint stores nothing', async () => {
    const world = await agency()
    await lead(world)
    const rows = await getDb()
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.organizationId, world.organization.id))
    expect(rows).toEqual([])
  })
})

describe('the hourly card.viewed digest', () => {
  const HOUR = 3_600_000
  /** Hour `n` after a day of the test's own: no test reads the clock, none shares its hours. */
  const hourOf = (day: string) => (n: number) =>
    new Date(Date.parse(`${day}T00:00:00.000Z`) + n * HOUR)

  async function viewed(world: World, hours: Date[]) {
    await getDb()
      .insert(cardViewHours)
      .values(
        hours.map((hour) => ({
          organizationId: world.organization.id,
          cardId: world.card.id,
          hour,
          source: 'qr' as const,
          views: 2,
        })),
      )
  }

  const digestHours = async (world: World) =>
    (
      await getDb()
        .select({ payload: webhookMessages.payload })
        .from(webhookMessages)
        .where(
          and(
            eq(webhookMessages.organizationId, world.organization.id),
            eq(webhookMessages.eventType, 'card.viewed'),
          ),
        )
    )
      .map((row) => (row.payload.data as { hourStart: string }).hourStart)
      .sort()

  /** The hourly job as the worker's housekeeping queues it, for every agency. */
  const runJob = (hour: Date) =>
    cardViewsDigestJob.run({ payload: { hour: hour.toISOString() } } as unknown as Job)

  test('a run after hours nobody sent sends each missed hour once; a late run of an older hour adds nothing', async () => {
    const h = hourOf('2026-10-01')
    const world = await agency()
    const orgId = world.organization.id
    const { secret } = await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['card.viewed'],
    })
    await viewed(world, [h(0), h(1), h(3), h(5)])
    // The first run: its own hour.
    expect(await emitCardViewsDigests(orgId, h(0))).toBe(1)
    // No process ran during hours 2 to 5: the run after hour 4 sends 1 and 3 (2 and 4 had no
    // views), not only 4.
    expect(await emitCardViewsDigests(orgId, h(4))).toBe(2)
    expect(await digestHours(world)).toEqual([h(0), h(1), h(3)].map((d) => d.toISOString()))
    expect(await emitCardViewsDigests(orgId, h(4))).toBe(0)
    // The job queued for hour 2 running late changes nothing; the next hour's job sends 5.
    await runJob(h(2))
    expect(await digestHours(world)).toHaveLength(3)
    await runJob(h(5))
    expect(await digestHours(world)).toEqual([h(0), h(1), h(3), h(5)].map((d) => d.toISOString()))
    const [cursor] = await getDb()
      .select()
      .from(webhookDigestCursors)
      .where(eq(webhookDigestCursors.organizationId, orgId))
    expect(cursor).toMatchObject({ eventType: 'card.viewed', lastHour: h(5) })
    // Each reaches the receiver, a caught-up hour with its own hour's numbers.
    await runJobsNow()
    const bodies = received.map((delivery) => verify(secret, delivery))
    expect(bodies.map((body) => body.data.hourStart).sort()).toEqual(
      [h(0), h(1), h(3), h(5)].map((d) => d.toISOString()),
    )
    expect(bodies.find((body) => body.data.hourStart === h(3).toISOString())?.data).toEqual({
      hourStart: h(3).toISOString(),
      hourEnd: h(4).toISOString(),
      cards: [{ id: world.card.id, ownerId: world.owner.id, views: 2, sources: { qr: 2 } }],
    })
  })

  test('goes back three days at most; a cursor set back (a restored backup) repeats no hour', async () => {
    const h = hourOf('2026-09-01')
    const world = await agency()
    const orgId = world.organization.id
    await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['card.viewed'],
    })
    expect(CARD_VIEWS_CATCH_UP_HOURS).toBe(72)
    const last = 100
    const oldest = last - CARD_VIEWS_CATCH_UP_HOURS + 1
    await viewed(world, [h(0), h(oldest - 1), h(oldest), h(last)])
    expect(await emitCardViewsDigests(orgId, h(0))).toBe(1)
    // Down for four days: the hours older than the retry window stay unsent.
    expect(await emitCardViewsDigests(orgId, h(last))).toBe(2)
    expect(await digestHours(world)).toEqual([h(0), h(oldest), h(last)].map((d) => d.toISOString()))
    await getDb()
      .update(webhookDigestCursors)
      .set({ lastHour: h(0) })
      .where(eq(webhookDigestCursors.organizationId, orgId))
    expect(await emitCardViewsDigests(orgId, h(last))).toBe(0)
    expect(await digestHours(world)).toHaveLength(3)
  })

  test('an agency with no subscriber moves its cursor too: an endpoint made later gets no backlog', async () => {
    const h = hourOf('2026-08-01')
    const world = await agency()
    const orgId = world.organization.id
    await viewed(world, [h(0), h(1), h(2)])
    expect(await emitCardViewsDigests(orgId, h(0))).toBe(0)
    expect(await emitCardViewsDigests(orgId, h(1))).toBe(0)
    await createEndpoint(world.actor, {
      url: receiverUrl,
      description: '',
      eventTypes: ['card.viewed'],
    })
    expect(await emitCardViewsDigests(orgId, h(2))).toBe(1)
    expect(await digestHours(world)).toEqual([h(2).toISOString()])
  })
})
