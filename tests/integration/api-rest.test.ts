// The REST API (issue 43, ADR 092) against /api/v1 of an agency host: keys refused when missing,
// revoked, expired, malformed or another agency's (401); scopes refused where missing (403);
// another agency's rows never seen; idempotency keys return the first answer; the RateLimit
// headers and 429; cursor pages and updated_since; problem details for bad input.
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  createApiKey,
  isWellFormedApiKey,
  newApiKey,
  revokeApiKey,
} from '#app/api/manage-api-keys.server'
import type { Actor } from '#app/auth/guards.server'
import { STAFF_LIMITS, staffLimitMessage } from '#app/billing/plan-limits'
import { addContact } from '#app/models/contacts.server'
import { listScimTokens } from '#app/models/scim.server'
import { createTeamWithAdmin } from '#app/models/teams.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { findWebhookEndpoint } from '#app/models/webhooks.server'
import { addStaffMember } from '#app/people/manage-people.server'
import { LIMITS, limitKey } from '#app/rate-limits/rate-limit.server'
import { action, loader } from '#app/routes/api.v1.$'
import { createScimToken } from '#app/scim/scim-tokens.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { API_SCOPES, type ApiScope } from '#app/validation/api'
import {
  BIO_MAX_LENGTH,
  COMPANY_MAX_LENGTH,
  DEPARTMENT_MAX_LENGTH,
  JOB_TITLE_MAX_LENGTH,
  PHONE_MAX_LENGTH,
} from '#app/validation/card-details'
import { createEndpoint } from '#app/webhooks/webhook-endpoints.server'
import { withDatabase, withTenant } from '#drizzle/db.server'
import {
  apiIdempotencyKeys,
  apiKeys,
  auditEvents,
  contacts,
  rateLimits,
  users,
} from '#drizzle/schema'
import { contextFor, makeCard, makeOrganization, makeUser } from '#tests/factories'

type Org = Awaited<ReturnType<typeof makeOrganization>>
const NO_HASH = { passwordHash: 'not-a-password-hash' }
const ALL = [...API_SCOPES] as ApiScope[]

let agency: Org
let other: Org
let admin: Actor
let otherAdmin: Actor
let key: string
let otherKey: string
let owner: Awaited<ReturnType<typeof makeUser>>
let otherOwner: Awaited<ReturnType<typeof makeUser>>

const actorOf = async (org: Org): Promise<Actor> => {
  const user = await makeUser(org.id, { role: 'agency_admin', ...NO_HASH })
  return {
    tenant: { id: org.id, kind: 'agency', name: org.name, slug: org.slug } as Tenant,
    user,
    session: { sessionId: 'test' },
  }
}

beforeAll(async () => {
  agency = await makeOrganization({ name: 'Api Agency' })
  other = await makeOrganization({ name: 'Other Api Agency' })
  admin = await actorOf(agency)
  otherAdmin = await actorOf(other)
  key = (await createApiKey(admin, { name: 'Everything', scopes: ALL })).key
  otherKey = (await createApiKey(otherAdmin, { name: 'Theirs', scopes: ALL })).key
  owner = await makeUser(agency.id, { ...NO_HASH, firstName: 'Ada', lastName: 'Owner' })
  otherOwner = await makeUser(other.id, { ...NO_HASH, firstName: 'Olga', lastName: 'Other' })
  await makeCard(agency.id, owner.id, { firstName: 'Ada', lastName: 'Owner', title: 'Ada main' })
  await makeCard(other.id, otherOwner.id, { firstName: 'Olga', lastName: 'Other' })
})

type Call = { status: number; body: Record<string, unknown>; headers: Headers }

async function api(
  method: string,
  path: string,
  body?: unknown,
  options: {
    bearer?: string | null
    org?: Org
    headers?: Record<string, string>
    ip?: string
  } = {},
): Promise<Call> {
  const host = `${(options.org ?? agency).slug}.localhost`
  const headers = new Headers(options.headers)
  if (body !== undefined && !headers.has('content-type')) {
    headers.set('Content-Type', 'application/json')
  }
  const bearer = options.bearer === undefined ? key : options.bearer
  if (bearer !== null) headers.set('Authorization', `Bearer ${bearer}`)
  const request = new Request(`http://${host}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const handler = method === 'GET' ? loader : action
  const response = (await handler({
    request,
    context: contextFor(host, options.ip),
    params: {},
  })) as Response
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  }
}

const ids = (call: Call) => (call.body.data as { id: string }[]).map((row) => row.id)

describe('keys', () => {
  test('a key is bck_ with a checksum, stored as a hash only; a changed character fails the checksum', async () => {
    expect(key).toMatch(/^bck_[0-9A-Za-z]{36}$/)
    expect(isWellFormedApiKey(key)).toBe(true)
    const flipped = `${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`
    expect(isWellFormedApiKey(flipped)).toBe(false)
    expect(isWellFormedApiKey(newApiKey().key)).toBe(true)
    const rows = await withTenant(agency.id, (tx) =>
      tx.select().from(apiKeys).where(eq(apiKeys.organizationId, agency.id)),
    )
    expect(JSON.stringify(rows)).not.toContain(key)
    expect(rows[0]?.lastFour).toBe(key.slice(-4))
  })

  test("no key, a malformed, unknown, revoked, expired or another agency's key: 401 problem", async () => {
    const none = await api('GET', '/cards', undefined, { bearer: null })
    expect(none.status).toBe(401)
    expect(none.headers.get('content-type')).toBe('application/problem+json')
    expect(none.body).toMatchObject({ status: 401, title: 'Unauthorized' })
    expect(none.headers.get('www-authenticate')).toContain('Bearer')
    expect((await api('GET', '/cards', undefined, { bearer: 'bck_nope' })).status).toBe(401)
    expect((await api('GET', '/cards', undefined, { bearer: newApiKey().key })).status).toBe(401)
    // Another agency's key on this agency's host is not found here.
    expect((await api('GET', '/cards', undefined, { bearer: otherKey })).status).toBe(401)

    const revoked = await createApiKey(admin, { name: 'Soon gone', scopes: ALL })
    expect((await api('GET', '/cards', undefined, { bearer: revoked.key })).status).toBe(200)
    const row = await withTenant(
      agency.id,
      async (tx) => (await tx.select().from(apiKeys).where(eq(apiKeys.name, 'Soon gone')))[0],
    )
    await revokeApiKey(admin, row?.id ?? '')
    expect((await api('GET', '/cards', undefined, { bearer: revoked.key })).status).toBe(401)

    const expiring = await createApiKey(admin, { name: 'Expiring', scopes: ALL })
    await withTenant(agency.id, (tx) =>
      tx
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.name, 'Expiring')),
    )
    expect((await api('GET', '/cards', undefined, { bearer: expiring.key })).status).toBe(401)
  })

  test('the last use is recorded on the key with its address; keys outlive the admin who made them', async () => {
    const made = await createApiKey(admin, { name: 'Survivor', scopes: ['cards:read'] })
    await api('GET', '/cards', undefined, { bearer: made.key, ip: '198.51.100.7' })
    const row = await withTenant(
      agency.id,
      async (tx) => (await tx.select().from(apiKeys).where(eq(apiKeys.name, 'Survivor')))[0],
    )
    expect(row?.lastUsedAt).toBeInstanceOf(Date)
    expect(row?.lastUsedIp).toBe('198.51.100.7')
    // The admin leaves: the key is the agency's and keeps working.
    const leaving = await makeUser(agency.id, { role: 'agency_admin', ...NO_HASH })
    const theirs = await createApiKey({ ...admin, user: leaving }, { name: 'Theirs', scopes: ALL })
    // So do the SCIM token and the webhook endpoint they made (the same nullable reference).
    await createScimToken({ ...admin, user: leaving }, 'Entra Survivor')
    const hook = await createEndpoint(
      { organizationId: agency.id, userId: leaving.id },
      { url: 'https://hooks.example.com/in', description: '', eventTypes: ['lead.created'] },
    )
    await withTenant(agency.id, (tx) => tx.delete(users).where(eq(users.id, leaving.id)))
    expect((await api('GET', '/cards', undefined, { bearer: theirs.key })).status).toBe(200)
    const kept = await withTenant(agency.id, async (tx) => ({
      scim: (await listScimTokens(tx, agency.id)).find((row) => row.name === 'Entra Survivor'),
      hook: await findWebhookEndpoint(tx, agency.id, hook.endpoint.id),
    }))
    expect(kept.scim).toMatchObject({ organizationId: agency.id, createdByUserId: null })
    expect(kept.hook).toMatchObject({ organizationId: agency.id, createdByUserId: null })
  })

  test('an expiry date in the past is refused', async () => {
    await expect(
      createApiKey(admin, { name: 'Past', scopes: ALL, expiresOn: '2001-01-01' }),
    ).rejects.toMatchObject({ code: 'invalid', field: 'expiresOn' })
  })
})

describe('scopes and tenancy', () => {
  test('a key without the scope is refused with 403 before anything is read or written', async () => {
    const readOnly = (await createApiKey(admin, { name: 'Reader', scopes: ['cards:read'] })).key
    expect((await api('GET', '/cards', undefined, { bearer: readOnly })).status).toBe(200)
    const write = await api(
      'POST',
      '/contacts',
      { owner_id: owner.id, full_name: 'Nope' },
      { bearer: readOnly },
    )
    expect(write.status).toBe(403)
    expect(write.body.detail).toContain('contacts:write')
    expect((await api('GET', '/users', undefined, { bearer: readOnly })).status).toBe(403)
    expect((await api('GET', '/teams', undefined, { bearer: readOnly })).status).toBe(403)
  })

  test("each agency's key lists its own cards only; another agency's card is 404", async () => {
    const mine = await api('GET', '/cards')
    expect(mine.status).toBe(200)
    const theirs = await api('GET', '/cards', undefined, { bearer: otherKey, org: other })
    expect(theirs.status).toBe(200)
    const theirIds = ids(theirs)
    expect(theirIds.length).toBeGreaterThan(0)
    expect(ids(mine).some((id) => theirIds.includes(id))).toBe(false)
    expect((await api('GET', `/cards/${theirIds[0]}`)).status).toBe(404)
    expect((await api('DELETE', `/cards/${theirIds[0]}`)).status).toBe(404)
    expect(
      (await api('POST', '/contacts', { owner_id: otherOwner.id, full_name: 'Across' })).status,
    ).toBe(422)
  })

  test('the root host and an unknown path answer problems, never a 500', async () => {
    expect((await api('GET', '/nothing-here')).status).toBe(404)
    const wrongMethod = await api('PUT', '/cards')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toContain('GET')
    expect((await api('GET', '/cards/not-a-uuid')).status).toBe(400)
  })
})

describe('cards', () => {
  test('create, read, update and delete a card; writes are audited with the key', async () => {
    const created = await api('POST', '/cards', {
      owner_id: owner.id,
      first_name: 'Ada',
      last_name: 'Owner',
      job_title: 'Engineer',
    })
    expect(created.status).toBe(201)
    const card = created.body.card as { id: string; title: string; job_title: string }
    expect(card.title).toBe("Ada's Card")
    const read = await api('GET', `/cards/${card.id}`)
    expect(read.body).toMatchObject({ id: card.id, owner_id: owner.id, job_title: 'Engineer' })
    const updated = await api('PATCH', `/cards/${card.id}`, { job_title: 'Lead' })
    expect(updated.status).toBe(200)
    expect((updated.body.card as { job_title: string }).job_title).toBe('Lead')
    const audit = await withTenant(agency.id, (tx) =>
      tx.select().from(auditEvents).where(eq(auditEvents.entityId, card.id)),
    )
    expect(audit.map((row) => row.action).sort()).toEqual(['card.created', 'card.updated'])
    expect(audit[0]?.metadata).toMatchObject({ via: 'api' })
    expect((await api('DELETE', `/cards/${card.id}`)).status).toBe(204)
    expect((await api('GET', `/cards/${card.id}`)).status).toBe(404)
  })

  test('bad input is a 400 problem naming the field', async () => {
    const bad = await api('POST', '/cards', { owner_id: owner.id, first_name: '', last_name: 'x' })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('content-type')).toBe('application/problem+json')
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: '/first_name' })]),
    )
    expect((await api('POST', '/cards', '{not json')).status).toBe(400)
    expect((await api('PATCH', `/cards/${owner.id}`, { unknown: 1 })).status).toBe(400)
    // The API takes what the card editor takes: one character over a home's limit is refused
    // (a card the editor could not save again otherwise).
    for (const [field, max] of [
      ['bio', BIO_MAX_LENGTH],
      ['department', DEPARTMENT_MAX_LENGTH],
      ['company', COMPANY_MAX_LENGTH],
      ['job_title', JOB_TITLE_MAX_LENGTH],
      ['phone_number', PHONE_MAX_LENGTH],
    ] as const) {
      const card = { owner_id: owner.id, first_name: 'Long', last_name: 'Fields' }
      const over = await api('POST', '/cards', { ...card, [field]: 'x'.repeat(max + 1) })
      expect(over.status, field).toBe(400)
      expect(over.body.errors, field).toEqual([expect.objectContaining({ pointer: `/${field}` })])
    }
    expect(
      (await api('POST', '/cards', 'x', { headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415)
  })

  test("a card's analytics come per day and source", async () => {
    const [card] = ids(await api('GET', '/cards'))
    const answer = await api('GET', `/cards/${card}/analytics?from=2026-01-01&to=2026-01-31`)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ card_id: card, from: '2026-01-01', to: '2026-01-31' })
    expect(
      (await api('GET', `/cards/${card}/analytics?from=2026-02-01&to=2026-01-01`)).status,
    ).toBe(400)
  })
})

describe('idempotency', () => {
  test('the same key and body return the first answer; another body with the key is 422', async () => {
    const headers = { 'Idempotency-Key': `create-${Date.now()}` }
    const body = { owner_id: owner.id, full_name: 'Idem Potent', email: 'idem@example.test' }
    const first = await api('POST', '/contacts', body, { headers })
    expect(first.status).toBe(201)
    const again = await api('POST', '/contacts', body, { headers })
    expect(again.status).toBe(201)
    expect(again.body).toEqual(first.body)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    const rows = await withTenant(agency.id, (tx) =>
      tx.select().from(contacts).where(eq(contacts.email, 'idem@example.test')),
    )
    expect(rows).toHaveLength(1)
    const other = await api('POST', '/contacts', { ...body, full_name: 'Changed' }, { headers })
    expect(other.status).toBe(422)
    expect(other.headers.get('content-type')).toBe('application/problem+json')
    // Without the header a second create is a second create (here refused as a duplicate email).
    expect((await api('POST', '/contacts', body)).status).toBe(409)
  })

  test("another agency's same idempotency key is its own", async () => {
    const headers = { 'Idempotency-Key': `shared-${Date.now()}` }
    const mine = await api(
      'POST',
      '/contacts',
      { owner_id: owner.id, full_name: 'Mine' },
      { headers },
    )
    const theirs = await api(
      'POST',
      '/contacts',
      { owner_id: otherOwner.id, full_name: 'Theirs' },
      { headers, bearer: otherKey, org: other },
    )
    expect(mine.status).toBe(201)
    expect(theirs.status).toBe(201)
    expect(theirs.body.id).not.toBe(mine.body.id)
  })
})

describe('rate limits', () => {
  test('every answer carries RateLimit and RateLimit-Policy; past the limit a 429 with Retry-After', async () => {
    const limited = await createApiKey(admin, { name: 'Busy', scopes: ['cards:read'] })
    const first = await api('GET', '/cards', undefined, { bearer: limited.key })
    expect(first.headers.get('ratelimit-policy')).toBe(`"per-key";q=${LIMITS.apiKey.max};w=60`)
    expect(first.headers.get('ratelimit')).toMatch(
      new RegExp(`^"per-key";r=${LIMITS.apiKey.max - 1};t=\\d+$`),
    )
    const row = await withTenant(
      agency.id,
      async (tx) => (await tx.select().from(apiKeys).where(eq(apiKeys.name, 'Busy')))[0],
    )
    await withDatabase((tx) =>
      tx
        .update(rateLimits)
        .set({ count: LIMITS.apiKey.max })
        .where(eq(rateLimits.key, limitKey('apiKey', row?.id ?? ''))),
    )
    const refused = await api('GET', '/cards', undefined, { bearer: limited.key })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toBe('application/problem+json')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/)
    // Another key of the same agency is counted on its own.
    expect((await api('GET', '/cards')).status).toBe(200)
  })
})

describe('contacts: cursor pages and updated_since', () => {
  test('pages follow each other without gaps or repeats; updated_since narrows to later changes', async () => {
    const pager = await makeOrganization({ name: 'Pager Agency' })
    const pagerAdmin = await actorOf(pager)
    const pagerKey = (await createApiKey(pagerAdmin, { name: 'Pager', scopes: ALL })).key
    const person = await makeUser(pager.id, NO_HASH)
    await withTenant(pager.id, async (tx) => {
      for (let i = 0; i < 7; i++) {
        await addContact(tx, pager.id, person.id, { fullName: `Contact ${i}`, source: 'lead' })
      }
      await addContact(tx, pager.id, person.id, { fullName: 'Manual', source: 'manual' })
    })
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = `/contacts?limit=3${cursor ? `&cursor=${cursor}` : ''}`
      const page = await api('GET', query, undefined, { bearer: pagerKey, org: pager })
      expect(page.status).toBe(200)
      seen.push(...ids(page))
      cursor = page.body.next_cursor as string | null
      pages++
    } while (cursor && pages < 10)
    expect(pages).toBe(3)
    expect(new Set(seen).size).toBe(8)
    const leads = await api('GET', '/contacts?source=lead&limit=200', undefined, {
      bearer: pagerKey,
      org: pager,
    })
    expect(ids(leads)).toHaveLength(7)

    // A change moves a contact to the end, and updated_since finds only it.
    const since = new Date()
    await new Promise((resolve) => setTimeout(resolve, 5))
    await withTenant(pager.id, (tx) =>
      tx.update(contacts).set({ personal: true }).where(sql`${contacts.id} = ${seen[0]}`),
    )
    const changed = await api(
      'GET',
      `/contacts?updated_since=${encodeURIComponent(since.toISOString())}`,
      undefined,
      { bearer: pagerKey, org: pager },
    )
    expect(ids(changed)).toEqual([seen[0]])
    expect(
      (await api('GET', '/contacts?cursor=garbage', undefined, { bearer: pagerKey, org: pager }))
        .status,
    ).toBe(400)
    expect(
      (
        await api('GET', '/contacts?updated_since=yesterday', undefined, {
          bearer: pagerKey,
          org: pager,
        })
      ).status,
    ).toBe(400)
  })

  test("deleting a lead through the API removes it and audits without the person's data", async () => {
    const lead = await withTenant(agency.id, (tx) =>
      addContact(tx, agency.id, owner.id, {
        fullName: 'Lea Lead',
        email: 'lea@example.test',
        source: 'lead',
      }),
    )
    if (lead.status !== 'created') throw new Error('lead not made')
    expect((await api('DELETE', `/contacts/${lead.contact.id}`)).status).toBe(204)
    expect((await api('GET', `/contacts/${lead.contact.id}`)).status).toBe(404)
    const [event] = await withTenant(agency.id, (tx) =>
      tx.select().from(auditEvents).where(eq(auditEvents.entityId, lead.contact.id)),
    )
    expect(event?.action).toBe('lead.deleted')
    expect(JSON.stringify(event?.metadata)).not.toContain('lea@example.test')
  })
})

describe('users and teams', () => {
  test('invite an end user, list them, deactivate with a seat hand-over', async () => {
    const invited = await api('POST', '/users', {
      email: `invitee-${Date.now()}@example.test`,
      first_name: 'Ivy',
    })
    expect(invited.status).toBe(201)
    expect(invited.body).toMatchObject({ role: 'end_user', status: 'active' })
    expect(
      (await api('POST', '/users', { email: invited.body.email, first_name: 'Ivy' })).status,
    ).toBe(409)
    const listed = await api('GET', '/users?limit=200')
    expect(ids(listed)).toContain(invited.body.id)
    const gone = await api('POST', `/users/${invited.body.id}/deactivate`, {
      successor_id: owner.id,
    })
    expect(gone.status).toBe(200)
    expect(gone.body.status).toBe('inactive')
    const refused = await api('POST', `/users/${owner.id}/deactivate`, { successor_id: owner.id })
    expect(refused.status).toBe(422)
    expect((await api('POST', `/users/${otherOwner.id}/deactivate`, {})).status).toBe(404)
  })

  test("an invited end user takes no plan seat, as the screen's Add User: a Free agency full of staff still invites", async () => {
    const full = await makeOrganization({ name: 'Full Agency' })
    const fullAdmin = await actorOf(full)
    const fullKey = (await createApiKey(fullAdmin, { name: 'Users', scopes: ['users:write'] })).key
    for (let i = 1; i < (STAFF_LIMITS.free ?? 0); i++) {
      await makeUser(full.id, { ...NO_HASH, role: 'agency_member' })
    }
    // The agency is at its staff limit: one more staff account is refused...
    await expect(
      addStaffMember(
        fullAdmin,
        {
          name: 'Sixth Staff',
          email: `sixth-${Date.now()}@example.test`,
          staffTitle: '',
          access: 'agency_member',
        },
        'agency',
      ),
    ).rejects.toThrow(staffLimitMessage('free'))
    // ...but an end user is not staff, and nobody's assigned end user either.
    const invited = await api(
      'POST',
      '/users',
      { email: `seatless-${Date.now()}@example.test`, first_name: 'Sam' },
      { bearer: fullKey, org: full },
    )
    expect(invited.status).toBe(201)
    expect(invited.body).toMatchObject({ role: 'end_user' })
  })

  test("teams list and read; another agency's team is 404", async () => {
    const teams = await api('GET', '/teams')
    expect(teams.status).toBe(200)
    expect(Array.isArray(teams.body.data)).toBe(true)
    expect(teams.body.next_cursor).toBeNull()
    expect((await api('GET', `/teams/${owner.id}`)).status).toBe(404)
  })

  test('teams come in cursor pages, oldest first, each with its member count, none twice', async () => {
    const pager = await makeOrganization({ name: 'Team Pager Agency' })
    const pagerAdmin = await actorOf(pager)
    const pagerKey = (await createApiKey(pagerAdmin, { name: 'Teams', scopes: ['teams:read'] })).key
    const made: string[] = []
    // One transaction each: a team's created_at is its transaction's time.
    for (let i = 0; i < 5; i++) {
      const team = await withTenant(pager.id, (tx) =>
        createTeamWithAdmin(tx, pager.id, pagerAdmin.user.id, {
          name: `Team ${i}`,
          description: '',
        }),
      )
      made.push(team.id)
    }
    // Another agency's team is never on these pages.
    await withTenant(agency.id, (tx) =>
      createTeamWithAdmin(tx, agency.id, owner.id, { name: 'Not theirs', description: '' }),
    )
    const seen: { id: string; members: number }[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = `/teams?limit=2${cursor ? `&cursor=${cursor}` : ''}`
      const page = await api('GET', query, undefined, { bearer: pagerKey, org: pager })
      expect(page.status).toBe(200)
      expect((page.body.data as unknown[]).length).toBeLessThanOrEqual(2)
      seen.push(...(page.body.data as { id: string; members: number }[]))
      cursor = page.body.next_cursor as string | null
      pages++
    } while (cursor && pages < 10)
    expect(pages).toBe(3)
    expect(seen.map((team) => team.id)).toEqual(made)
    expect(seen.every((team) => team.members === 1)).toBe(true)
    const refused = await api('GET', '/teams?cursor=garbage', undefined, {
      bearer: pagerKey,
      org: pager,
    })
    expect(refused.status).toBe(400)
    expect(
      (await api('GET', '/teams?limit=201', undefined, { bearer: pagerKey, org: pager })).status,
    ).toBe(400)
  })
})

describe('privacy', () => {
  test('a card read through the API carries no email or phone its owner hides from everyone', async () => {
    const shy = await makeUser(agency.id, { ...NO_HASH, firstName: 'Shy', lastName: 'Owner' })
    const card = await makeCard(agency.id, shy.id, {
      firstName: 'Shy',
      lastName: 'Owner',
      email: 'shy.private@example.test',
      phoneNumber: '+1 555 0177',
    })
    expect((await api('GET', `/cards/${card.id}`)).body).toMatchObject({
      email: 'shy.private@example.test',
      phone_number: '+1 555 0177',
    })
    await withTenant(agency.id, (tx) =>
      setUserPreference(tx, agency.id, shy.id, 'privacy', {
        visibility: 'public',
        showEmail: false,
        showPhone: false,
      }),
    )
    const read = await api('GET', `/cards/${card.id}`)
    expect(read.body).toMatchObject({ email: '', phone_number: '', first_name: 'Shy' })
    const listed = await api('GET', '/cards?limit=100')
    expect(JSON.stringify(listed.body)).not.toContain('shy.private@example.test')
  })
})

describe('webhook endpoints', () => {
  test('subscribed, read, changed and deleted by the API; the secret only in the create answer', async () => {
    const body = {
      url: 'https://hooks.example.com/brandcard',
      event_types: ['lead.created', 'card.updated'],
    }
    const made = await api('POST', '/webhooks', body, { headers: { 'Idempotency-Key': 'hook-1' } })
    expect(made.status).toBe(201)
    expect(made.body.secret).toMatch(/^whsec_/)
    expect(made.body).toMatchObject({ url: body.url, enabled: true, description: '' })
    // The same create again: the first answer, no second endpoint.
    const again = await api('POST', '/webhooks', body, { headers: { 'Idempotency-Key': 'hook-1' } })
    expect(again.body.id).toBe(made.body.id)
    // The replay has no secret: it is never kept at rest with the answer.
    expect(again.body.secret).toBeNull()
    const kept = await withTenant(agency.id, (tx) => tx.select().from(apiIdempotencyKeys))
    expect(JSON.stringify(kept)).not.toContain(String(made.body.secret))
    const listed = await api('GET', '/webhooks')
    expect(ids(listed).filter((id) => id === made.body.id)).toHaveLength(1)
    expect(JSON.stringify(listed.body)).not.toContain(String(made.body.secret))
    const changed = await api('PATCH', `/webhooks/${made.body.id}`, {
      url: 'https://hooks.example.com/v2',
      description: 'CRM bridge',
      event_types: ['contact.deleted'],
    })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({
      description: 'CRM bridge',
      event_types: ['contact.deleted'],
    })
    expect((await api('GET', `/webhooks/${made.body.id}`)).body.url).toBe(
      'https://hooks.example.com/v2',
    )
    // Another agency's key finds nothing of it.
    const theirs = { bearer: otherKey, org: other }
    expect((await api('GET', `/webhooks/${made.body.id}`, undefined, theirs)).status).toBe(404)
    expect(ids(await api('GET', '/webhooks', undefined, theirs))).not.toContain(made.body.id)
    expect((await api('DELETE', `/webhooks/${made.body.id}`)).status).toBe(204)
    expect((await api('GET', `/webhooks/${made.body.id}`)).status).toBe(404)
  })

  test('the screen’s rules: a private target or no event is a 422 at its field; scopes hold', async () => {
    const before = ids(await api('GET', '/webhooks')).length
    const privateTarget = await api('POST', '/webhooks', {
      url: 'https://10.0.0.1/hooks',
      event_types: ['lead.created'],
    })
    expect(privateTarget.status).toBe(422)
    expect(privateTarget.body.errors).toEqual([expect.objectContaining({ pointer: '/url' })])
    const noEvent = await api('POST', '/webhooks', {
      url: 'https://hooks.example.com/x',
      event_types: [],
    })
    expect(noEvent.status).toBe(400)
    const reader = (await createApiKey(admin, { name: 'Hook reader', scopes: ['webhooks:read'] }))
      .key
    expect((await api('GET', '/webhooks', undefined, { bearer: reader })).status).toBe(200)
    const refused = await api(
      'POST',
      '/webhooks',
      { url: 'https://hooks.example.com/x', event_types: ['lead.created'] },
      { bearer: reader },
    )
    expect(refused.status).toBe(403)
    expect(ids(await api('GET', '/webhooks'))).toHaveLength(before)
  })
})
