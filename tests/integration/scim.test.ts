// SCIM 2.0 directory sync (issue 42 point 2, ADR 089): requests shaped like Microsoft Entra's and
// Okta's documented examples, replayed against /scim/v2 of an agency host; tokens of another
// agency, revoked and expired ones refused; rotation's overlap; the provisioning log.
import { and, asc, desc, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Actor } from '#app/auth/guards.server'
import { addContact, listContacts, setContactPersonal } from '#app/models/contacts.server'
import { saveOrganizationPreferences } from '#app/models/organization-settings.server'
import { hitRateLimit, peekRateLimit } from '#app/models/rate-limits.server'
import { LIMITS, limitKey } from '#app/rate-limits/rate-limit.server'
import { action as pageAction, loader as pageLoader } from '#app/routes/dashboard.agency.scim'
import { action, loader } from '#app/routes/scim.v2.$'
import { createScimToken, revokeScimToken, rotateScimToken } from '#app/scim/scim-tokens.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { SCIM_ENTERPRISE_USER, TOKEN_NAME_REQUIRED } from '#app/validation/scim'
import { getDb, withDatabase, withTenant } from '#drizzle/db.server'
import {
  auditEvents,
  scimEvents,
  scimTokens,
  seatSuccessors,
  sessions,
  teamMembers,
  users,
} from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

type Org = Awaited<ReturnType<typeof makeOrganization>>
const NO_HASH = { passwordHash: 'not-a-password-hash' }
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

let agency: Org
let other: Org
let admin: Actor
let otherAdmin: Actor
let token: string
let otherToken: string

const actorOf = async (org: Org): Promise<Actor> => {
  const user = await makeUser(org.id, { role: 'agency_admin', ...NO_HASH })
  return { tenant: { id: org.id, kind: 'agency' } as Tenant, user, session: { sessionId: 'test' } }
}

beforeAll(async () => {
  agency = await makeOrganization({ name: 'Scim Agency' })
  other = await makeOrganization({ name: 'Other Agency' })
  admin = await actorOf(agency)
  otherAdmin = await actorOf(other)
  token = (await createScimToken(admin, 'Microsoft Entra')).token
  otherToken = (await createScimToken(otherAdmin, 'Okta')).token
})

type Call = { status: number; body: Record<string, unknown>; headers: Headers }

async function scim(
  method: string,
  path: string,
  body?: unknown,
  options: { bearer?: string | null; host?: string; ip?: string } = {},
): Promise<Call> {
  const host = options.host ?? `${agency.slug}.localhost`
  const headers = new Headers({ 'Content-Type': 'application/scim+json' })
  const bearer = options.bearer === undefined ? token : options.bearer
  if (bearer !== null) headers.set('Authorization', `Bearer ${bearer}`)
  const request = new Request(`http://${host}/scim/v2${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
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

// Microsoft Entra's documented create (learn.microsoft.com, "Develop a SCIM endpoint", request 1):
// userName is not an email there; the work email is.
const entraUser = (suffix: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', SCIM_ENTERPRISE_USER],
  externalId: `0a21f0f2-8d2a-4f8e-bf98-${suffix}`,
  userName: `Test_User_${suffix}`,
  active: true,
  emails: [{ primary: true, type: 'work', value: `test_user_${suffix}@testuser.com` }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
})

// Okta's documented create (developer.okta.com, "SCIM 2.0 protocol reference"): with a password.
const oktaUser = (suffix: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: `test.user.${suffix}@okta.local`,
  name: { givenName: 'Test', familyName: 'User' },
  emails: [{ primary: true, value: `test.user.${suffix}@okta.local`, type: 'work' }],
  displayName: 'Test User',
  locale: 'en-US',
  externalId: `00ujl29u0le5T6Aj10h7${suffix}`,
  groups: [],
  password: '1mz050nq',
  active: true,
})

const idOf = (call: Call) => call.body.id as string

async function accountOf(id: string) {
  const [row] = await getDb().select().from(users).where(eq(users.id, id))
  if (!row) throw new Error('no account')
  return row
}

describe('discovery', () => {
  test('ServiceProviderConfig, ResourceTypes and Schemas answer as application/scim+json', async () => {
    const config = await scim('GET', '/ServiceProviderConfig')
    expect(config.status).toBe(200)
    expect(config.headers.get('Content-Type')).toBe('application/scim+json')
    expect(config.body.patch).toEqual({ supported: true })
    const types = await scim('GET', '/ResourceTypes')
    expect((types.body.Resources as { id: string }[]).map((t) => t.id)).toEqual(['User', 'Group'])
    const schemas = await scim('GET', '/Schemas')
    expect((schemas.body.Resources as { id: string }[]).map((s) => s.id)).toContain(
      SCIM_ENTERPRISE_USER,
    )
    const user = await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:User')
    expect(user.status).toBe(200)
    expect((await scim('GET', '/Schemas/nope')).status).toBe(404)
  })
})

describe('tokens', () => {
  test('no token, a wrong one and another agency’s are refused with 401 in SCIM’s words', async () => {
    for (const bearer of [null, 'bcscim_wrong', otherToken]) {
      const refused = await scim('GET', '/Users', undefined, { bearer, ip: '198.51.100.7' })
      expect(refused.status).toBe(401)
      expect(refused.body).toMatchObject({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '401',
      })
      expect(refused.headers.get('WWW-Authenticate')).toContain('Bearer')
    }
    // The other agency's token works on its own host.
    const own = await scim('GET', '/Users', undefined, {
      bearer: otherToken,
      host: `${other.slug}.localhost`,
    })
    expect(own.status).toBe(200)
  })

  test('a revoked token is refused; a rotated one works until its overlap ends', async () => {
    const extra = await createScimToken(admin, 'Rotating')
    const [row] = await getDb()
      .select()
      .from(scimTokens)
      .where(and(eq(scimTokens.organizationId, agency.id), eq(scimTokens.name, 'Rotating')))
    if (!row) throw new Error('no token row')
    expect(row.tokenHash).not.toContain(extra.token)
    expect(row.lastFour).toBe(extra.token.slice(-4))
    const rotated = await rotateScimToken(admin, row.id, 24)
    // Both work during the overlap.
    expect((await scim('GET', '/Users', undefined, { bearer: extra.token })).status).toBe(200)
    expect((await scim('GET', '/Users', undefined, { bearer: rotated.token })).status).toBe(200)
    // Past the overlap the old one is refused.
    await getDb()
      .update(scimTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(scimTokens.id, row.id))
    expect((await scim('GET', '/Users', undefined, { bearer: extra.token })).status).toBe(401)
    // Revoked: refused at once.
    const [newRow] = await getDb()
      .select()
      .from(scimTokens)
      .where(
        and(
          eq(scimTokens.organizationId, agency.id),
          eq(scimTokens.lastFour, rotated.token.slice(-4)),
        ),
      )
    if (!newRow) throw new Error('no rotated row')
    await revokeScimToken(admin, newRow.id)
    expect((await scim('GET', '/Users', undefined, { bearer: rotated.token })).status).toBe(401)
    // Another agency's admin cannot revoke this agency's token (not found).
    await expect(revokeScimToken(otherAdmin, newRow.id)).rejects.toMatchObject({ status: 404 })
  })
})

describe('Users, as Microsoft Entra sends them', () => {
  test('create, filter by userName and externalId, then each PATCH shape', async () => {
    const body = entraUser('7363c4aed4ef')
    const created = await scim('POST', '/Users', body)
    expect(created.status).toBe(201)
    expect(created.headers.get('Location')).toContain(`/scim/v2/Users/${idOf(created)}`)
    expect(created.body).toMatchObject({
      userName: body.userName,
      externalId: body.externalId,
      active: true,
    })
    const account = await accountOf(idOf(created))
    expect(account).toMatchObject({
      email: 'test_user_7363c4aed4ef@testuser.com',
      firstName: 'givenName',
      lastName: 'familyName',
      role: 'end_user',
    })
    // Entra's "Test connection" and its matching: userName eq, externalId eq, case-insensitive.
    const none = await scim('GET', '/Users?filter=userName+eq+%22non-existent+user%22')
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] })
    const byName = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${body.userName.toUpperCase()}"`)}`,
    )
    expect(byName.body.totalResults).toBe(1)
    const byExternal = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`externalId eq "${body.externalId}"`)}&aadOptscim062020`,
    )
    expect((byExternal.body.Resources as { id: string }[])[0]?.id).toBe(idOf(created))
    // A second create of the same person is a conflict.
    const again = await scim('POST', '/Users', body)
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ scimType: 'uniqueness', status: '409' })

    const id = idOf(created)
    // Replace with a filtered path and a dotted path (Entra's documented update).
    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updated@testuser.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    })
    expect(patched.status).toBe(200)
    expect(await accountOf(id)).toMatchObject({
      email: 'updated@testuser.com',
      lastName: 'updatedFamilyName',
    })
    // No path, dotted and URN-prefixed keys (Entra without aadOptscim062020).
    await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        {
          op: 'replace',
          value: {
            'name.givenName': 'Grace',
            title: 'Head of Sales',
            [`${SCIM_ENTERPRISE_USER}:department`]: 'Sales',
            [`${SCIM_ENTERPRISE_USER}:employeeNumber`]: '701984',
          },
        },
      ],
    })
    // Add with a filtered path that is not there yet, and the enterprise object itself.
    await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+44 7700 900123' },
        {
          op: 'Add',
          path: 'addresses[type eq "work"].streetAddress',
          value: '1 Main Street',
        },
      ],
    })
    const shown = await scim('GET', `/Users/${id}`)
    expect(shown.body).toMatchObject({
      name: { givenName: 'Grace', familyName: 'updatedFamilyName' },
      title: 'Head of Sales',
      phoneNumbers: [{ type: 'mobile', value: '+44 7700 900123' }],
      addresses: [{ type: 'work', streetAddress: '1 Main Street' }],
      [SCIM_ENTERPRISE_USER]: { department: 'Sales', employeeNumber: '701984' },
    })
    // Remove with a path.
    await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'title' }],
    })
    expect((await scim('GET', `/Users/${id}`)).body.title).toBeUndefined()
    // An unsupported path and a remove without one are SCIM errors, and change nothing.
    const bad = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove' }],
    })
    expect(bad.body).toMatchObject({ status: '400', scimType: 'noTarget' })
    const badFilter = await scim('GET', `/Users?filter=${encodeURIComponent('userName sw "a"')}`)
    expect(badFilter.body).toMatchObject({ status: '400', scimType: 'invalidFilter' })
  })

  test('the manager as a bare id, then "active": "False" hands the seat over to the manager', async () => {
    const manager = await makeUser(agency.id, {
      firstName: 'Mona',
      lastName: 'Manager',
      ...NO_HASH,
    })
    const created = await scim('POST', '/Users', entraUser('aaaabbbbcccc'))
    const id = idOf(created)
    await withTenant(agency.id, async (tx) => {
      await addContact(tx, agency.id, id, { fullName: 'Client One', email: 'client@c.test' })
      const mum = await addContact(tx, agency.id, id, { fullName: 'Mum', email: 'mum@home.test' })
      if (mum.status !== 'created') throw new Error('contact not added')
      await setContactPersonal(tx, agency.id, id, mum.contact.id, true)
    })
    const cookie = await sessionCookieFor(agency.id, id)
    expect(cookie).toBeTruthy()
    await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: `${SCIM_ENTERPRISE_USER}:manager`, value: manager.id }],
    })
    expect(
      ((await scim('GET', `/Users/${id}`)).body[SCIM_ENTERPRISE_USER] as { manager: unknown })
        .manager,
    ).toEqual({
      value: manager.id,
    })
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    })
    expect(off.status).toBe(200)
    expect(off.body.active).toBe(false)
    expect((await accountOf(id)).status).toBe('inactive')
    // Sessions end; the seat goes to the manager; company contacts move, personal ones stay.
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, id))).toEqual([])
    const [successor] = await getDb()
      .select()
      .from(seatSuccessors)
      .where(eq(seatSuccessors.userId, id))
    expect(successor?.successorId).toBe(manager.id)
    const moved = await withTenant(agency.id, (tx) => listContacts(tx, agency.id, manager.id))
    expect(moved.map((contact) => contact.fullName)).toEqual(['Client One'])
    const kept = await withTenant(agency.id, (tx) => listContacts(tx, agency.id, id))
    expect(kept.map((contact) => contact.fullName)).toEqual(['Mum'])
    const [handed] = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, 'user.seat_handed_over')))
    expect(handed?.actorUserId).toBeNull()
    // And back: "True" reactivates.
    await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    })
    expect((await accountOf(id)).status).toBe('active')
  })

  test('DELETE deactivates and hands over, keeps the data, and answers 404 after', async () => {
    const manager = await makeUser(agency.id, { ...NO_HASH })
    const body = entraUser('ddddeeeeffff')
    const created = await scim('POST', '/Users', {
      ...body,
      [SCIM_ENTERPRISE_USER]: { manager: { value: manager.id } },
    })
    const id = idOf(created)
    const deleted = await scim('DELETE', `/Users/${id}`)
    expect(deleted.status).toBe(204)
    const account = await accountOf(id)
    expect(account.status).toBe('inactive')
    const [successor] = await getDb()
      .select()
      .from(seatSuccessors)
      .where(eq(seatSuccessors.userId, id))
    expect(successor?.successorId).toBe(manager.id)
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404)
    const filtered = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${body.userName}"`)}`,
    )
    expect(filtered.body.totalResults).toBe(0)
    // Provisioned again: the same account comes back, active.
    const again = await scim('POST', '/Users', body)
    expect(again.status).toBe(201)
    expect(idOf(again)).toBe(id)
    expect((await accountOf(id)).status).toBe('active')
  })

  test('the last active agency admin is not deactivated by the directory', async () => {
    const lone = await makeOrganization()
    const loneAdmin = await actorOf(lone)
    const loneToken = (await createScimToken(loneAdmin, 'Entra')).token
    const refused = await scim(
      'PATCH',
      `/Users/${loneAdmin.user.id}`,
      { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] },
      { bearer: loneToken, host: `${lone.slug}.localhost` },
    )
    expect(refused.status).toBe(400)
    expect((await accountOf(loneAdmin.user.id)).status).toBe('active')
  })
})

describe('Users, as Okta sends them', () => {
  test('create with a password (never logged), paging, PUT and no-path deactivation', async () => {
    await withTenant(agency.id, (tx) =>
      saveOrganizationPreferences(tx, agency.id, { scimDefaultRole: 'team_admin' }),
    )
    const created = await scim('POST', '/Users', oktaUser('one'))
    expect(created.status).toBe(201)
    expect((await accountOf(idOf(created))).role).toBe('team_admin')
    await withTenant(agency.id, (tx) =>
      saveOrganizationPreferences(tx, agency.id, { scimDefaultRole: 'end_user' }),
    )
    const [logged] = await getDb()
      .select()
      .from(scimEvents)
      .where(
        and(eq(scimEvents.organizationId, agency.id), eq(scimEvents.resourceId, idOf(created))),
      )
    expect(JSON.stringify(logged?.request)).not.toContain('1mz050nq')
    expect((logged?.request as { password?: string } | undefined)?.password).toBe('[redacted]')

    const page = await scim('GET', '/Users?startIndex=2&count=1')
    expect(page.body).toMatchObject({ startIndex: 2, itemsPerPage: 1 })
    expect(page.body.totalResults as number).toBeGreaterThan(2)
    const zero = await scim('GET', '/Users?count=0')
    expect(zero.body).toMatchObject({ itemsPerPage: 0, Resources: [] })

    const id = idOf(created)
    const put = await scim('PUT', `/Users/${id}`, {
      ...oktaUser('one'),
      id,
      name: { givenName: 'Tess', familyName: 'User' },
    })
    expect(put.status).toBe(200)
    expect((await accountOf(id)).firstName).toBe('Tess')
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    })
    expect(off.body.active).toBe(false)
    // Without a manager the agency's default forwarding answers: no successor is named.
    expect(
      await getDb().select().from(seatSuccessors).where(eq(seatSuccessors.userId, id)),
    ).toEqual([])
  })

  test("another agency's user is not found through this agency's token", async () => {
    const stranger = await makeUser(other.id, { ...NO_HASH })
    expect((await scim('GET', `/Users/${stranger.id}`)).status).toBe(404)
    const patched = await scim('PATCH', `/Users/${stranger.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    })
    expect(patched.status).toBe(404)
    expect((await accountOf(stranger.id)).status).toBe('active')
  })
})

describe('Groups become teams', () => {
  test('Entra: create, filter with excludedAttributes, add and remove members, delete', async () => {
    const alice = idOf(await scim('POST', '/Users', oktaUser('alice')))
    const bob = idOf(await scim('POST', '/Users', oktaUser('bob')))
    const created = await scim('POST', '/Groups', {
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'Sales EMEA',
      meta: { resourceType: 'Group' },
      members: [],
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    })
    expect(created.status).toBe(201)
    const id = idOf(created)
    const found = await scim(
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "Sales EMEA"')}`,
    )
    expect(found.body.totalResults).toBe(1)
    expect((found.body.Resources as Record<string, unknown>[])[0]?.members).toBeUndefined()
    await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        {
          op: 'Add',
          path: 'members',
          value: [
            { $ref: null, value: alice },
            { $ref: null, value: bob },
          ],
        },
      ],
    })
    const members = async () =>
      (await getDb().select().from(teamMembers).where(eq(teamMembers.teamId, id)))
        .map((row) => row.userId)
        .sort()
    expect(await members()).toEqual([alice, bob].sort())
    await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: alice }] }],
    })
    expect(await members()).toEqual([bob])
    const renamed = await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'displayName', value: 'Sales Europe' }],
    })
    expect(renamed.body.displayName).toBe('Sales Europe')
    expect((await scim('DELETE', `/Groups/${id}`)).status).toBe(204)
    expect((await scim('GET', `/Groups/${id}`)).status).toBe(404)
    // The people stay.
    expect((await accountOf(bob)).status).toBe('active')
  })

  test('Okta: create, no-path rename, remove by filtered path, PUT members', async () => {
    const carol = idOf(await scim('POST', '/Users', oktaUser('carol')))
    const dan = idOf(await scim('POST', '/Users', oktaUser('dan')))
    const created = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Test SCIMv2',
      members: [{ value: carol, display: 'carol' }],
    })
    const id = idOf(created)
    expect((created.body.members as { value: string }[]).map((m) => m.value)).toEqual([carol])
    await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { id, displayName: 'Test SCIMv2 renamed' } }],
    })
    await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'add', path: 'members', value: [{ value: dan, display: 'dan' }] },
        { op: 'remove', path: `members[value eq "${carol}"]` },
      ],
    })
    const shown = await scim('GET', `/Groups/${id}`)
    expect(shown.body.displayName).toBe('Test SCIMv2 renamed')
    expect((shown.body.members as { value: string }[]).map((m) => m.value)).toEqual([dan])
    const put = await scim('PUT', `/Groups/${id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Test SCIMv2 renamed',
      members: [{ value: carol }, { value: 'not-a-user' }],
    })
    expect((put.body.members as { value: string }[]).map((m) => m.value)).toEqual([carol])
    // Another agency's token sees none of it.
    const foreign = await scim('GET', `/Groups/${id}`, undefined, {
      bearer: otherToken,
      host: `${other.slug}.localhost`,
    })
    expect(foreign.status).toBe(404)
  })
})

describe('the provisioning log', () => {
  test('records each call with what came, what changed and the error', async () => {
    const created = await scim('POST', '/Users', oktaUser('logged'))
    await scim('POST', '/Users', oktaUser('logged'))
    await scim('GET', '/Users', undefined, { bearer: 'bcscim_nope', ip: '198.51.100.99' })
    const rows = (
      await getDb()
        .select()
        .from(scimEvents)
        .where(eq(scimEvents.organizationId, agency.id))
        .orderBy(asc(scimEvents.createdAt))
    ).slice(-3)
    expect(rows.map((row) => [row.method, row.status])).toEqual([
      ['POST', 201],
      ['POST', 409],
      ['GET', 401],
    ])
    expect(rows[0]?.resourceId).toBe(idOf(created))
    expect(rows[0]?.changes).toHaveProperty('created')
    expect(rows[1]?.error).toContain('already a user')
    expect(rows[2]?.tokenId).toBeNull()
  })
})

describe('the Directory Sync screen', () => {
  const PAGE = '/dashboard/agency/scim'
  const host = () => `${agency.slug}.localhost`
  const open = (cookie: string, query = '') =>
    settle(() =>
      pageLoader({
        request: requestFor(host(), `${PAGE}${query}`, { headers: { Cookie: cookie } }),
        context: contextFor(host()),
        params: {},
      }),
    )
  const post = (cookie: string, fields: Record<string, string>) =>
    settle(() =>
      pageAction({
        request: formRequest(host(), PAGE, fields, cookie),
        context: contextFor(host()),
        params: {},
      }),
    )

  test('the agency admin only; a member and an end user are refused', async () => {
    const member = await makeUser(agency.id, { role: 'agency_member', ...NO_HASH })
    const endUser = await makeUser(agency.id, { ...NO_HASH })
    for (const user of [member, endUser]) {
      const cookie = await sessionCookieFor(agency.id, user.id)
      expect((await open(cookie)).status).toBe(403)
      expect((await post(cookie, { intent: 'create-token', name: 'X' })).status).toBe(403)
    }
  })

  test('shows the base URL; a new token once; rotation and revocation, audited', async () => {
    const cookie = await sessionCookieFor(agency.id, admin.user.id)
    const page = (await (await open(cookie)).json()) as {
      baseUrl: string
      tokens: { id: string; name: string; state: string; lastFour: string }[]
    }
    expect(page.baseUrl).toBe(`http://${agency.slug}.localhost:3000/scim/v2`)
    const missing = await post(cookie, { intent: 'create-token', name: '  ' })
    expect(missing.status).toBe(400)
    expect((await replyErrors(missing)).name).toEqual([TOKEN_NAME_REQUIRED])
    const made = await post(cookie, { intent: 'create-token', name: 'Okta' })
    expect(made.status).toBe(200)
    const { newToken } = (await made.json()) as { newToken: { token: string; name: string } }
    expect(newToken.token).toMatch(/^bcscim_/)
    expect((await scim('GET', '/Users', undefined, { bearer: newToken.token })).status).toBe(200)
    // The list shows its last four characters, never the token.
    const listed = await open(cookie)
    const text = await listed.text()
    expect(text).not.toContain(newToken.token)
    const row = (JSON.parse(text) as typeof page).tokens.find((t) => t.name === 'Okta')
    expect(row).toMatchObject({ state: 'active', lastFour: newToken.token.slice(-4) })
    if (!row) throw new Error('no row')
    const badGrace = await post(cookie, {
      intent: 'rotate-token',
      tokenId: row.id,
      graceHours: '5',
    })
    expect(badGrace.status).toBe(400)
    expect(Object.keys(await replyErrors(badGrace))).toContain('graceHours')
    const rotated = await post(cookie, { intent: 'rotate-token', tokenId: row.id, graceHours: '1' })
    const { newToken: next } = (await rotated.json()) as { newToken: { token: string } }
    expect((await scim('GET', '/Users', undefined, { bearer: newToken.token })).status).toBe(200)
    expect((await scim('GET', '/Users', undefined, { bearer: next.token })).status).toBe(200)
    const revoked = await post(cookie, { intent: 'revoke-token', tokenId: row.id })
    expect(revoked.status).toBe(302)
    expect((await scim('GET', '/Users', undefined, { bearer: newToken.token })).status).toBe(401)
    // Another agency's token id: not found.
    const [foreign] = await getDb()
      .select()
      .from(scimTokens)
      .where(eq(scimTokens.organizationId, other.id))
    const refused = await post(cookie, { intent: 'revoke-token', tokenId: foreign?.id ?? '' })
    expect(refused.status).toBe(404)
    const actions = (
      await getDb()
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.organizationId, agency.id),
            eq(auditEvents.actorUserId, admin.user.id),
          ),
        )
    ).map((event) => event.action)
    expect(actions).toEqual(
      expect.arrayContaining(['scim.token_created', 'scim.token_rotated', 'scim.token_revoked']),
    )
  })

  test('the role new people get, and the log filtered by status and paged', async () => {
    const cookie = await sessionCookieFor(agency.id, admin.user.id)
    const bad = await post(cookie, { intent: 'set-role', role: 'super_admin' })
    expect(bad.status).toBe(400)
    expect(Object.keys(await replyErrors(bad))).toEqual(['role'])
    expect((await post(cookie, { intent: 'set-role', role: 'agency_member' })).status).toBe(302)
    const created = await scim('POST', '/Users', oktaUser('member-role'))
    expect((await accountOf(idOf(created))).role).toBe('agency_member')
    expect((await post(cookie, { intent: 'set-role', role: 'end_user' })).status).toBe(302)

    type Log = {
      log: {
        total: number
        pages: number
        events: {
          status: number
          request: string | null
          changes: string | null
          error: string | null
        }[]
      }
    }
    const failed = (await (await open(cookie, '?status=error')).json()) as Log
    expect(failed.log.events.length).toBeGreaterThan(0)
    expect(failed.log.events.every((event) => event.status >= 400 && event.error)).toBe(true)
    const ok = (await (await open(cookie, '?status=ok')).json()) as Log
    expect(ok.log.events.every((event) => event.status < 400)).toBe(true)
    const created201 = ok.log.events.find((event) => event.status === 201)
    expect(created201?.request).toContain('userName')
    expect(created201?.changes).toContain('created')
    const all = (await (await open(cookie)).json()) as Log
    expect(all.log.total).toBe(failed.log.total + ok.log.total)
    // A page past the end is empty, not an error; a nonsense page is the first.
    expect((await open(cookie, '?page=999')).status).toBe(200)
    expect((await open(cookie, '?page=abc&status=nonsense')).status).toBe(200)
  })

  test('the card fields that follow the directory: chosen from the list, audited', async () => {
    const cookie = await sessionCookieFor(agency.id, admin.user.id)
    const bad = await post(cookie, { intent: 'set-card-fields', fields: 'password' })
    expect(bad.status).toBe(400)
    expect(Object.keys(await replyErrors(bad))[0]).toMatch(/^fields/)
    const form = new URLSearchParams([
      ['intent', 'set-card-fields'],
      ['fields', 'jobTitle'],
      ['fields', 'address'],
    ])
    const saved = await settle(() =>
      pageAction({
        request: new Request(`http://${host()}${PAGE}`, {
          method: 'POST',
          headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        }),
        context: contextFor(host()),
        params: {},
      }),
    )
    expect(saved.status).toBe(302)
    const page = (await (await open(cookie)).json()) as { cardFields: string[] }
    expect(page.cardFields).toEqual(['jobTitle', 'address'])
    // None again: nothing follows.
    expect((await post(cookie, { intent: 'set-card-fields' })).status).toBe(302)
    expect(((await (await open(cookie)).json()) as { cardFields: string[] }).cardFields).toEqual([])
  })

  test('unsupported methods and paths answer SCIM errors', async () => {
    const post405 = await scim('POST', '/ServiceProviderConfig', {})
    expect(post405.body).toMatchObject({ status: '405' })
    expect((await scim('GET', '/Nope')).body).toMatchObject({ status: '404' })
    expect((await scim('PATCH', '/Users', {})).status).toBe(405)
  })
})

// Last in the file: its thirty refusals fill the provisioning log the tests above read.
describe('rate limits', () => {
  test('wrong tokens from one address are limited: after 30 in a window, a 429 in SCIM’s words', async () => {
    const ip = '198.51.100.142'
    for (let attempt = 0; attempt < 30; attempt++) {
      const wrong = await scim('GET', '/Users', undefined, { bearer: `bcscim_guess${attempt}`, ip })
      expect(wrong.status).toBe(401)
    }
    const limited = await scim('GET', '/Users', undefined, { bearer: 'bcscim_guess30', ip })
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '429',
    })
    expect(limited.headers.get('Retry-After')).toMatch(/^\d+$/)
    // The agency's own token from that address still works: the limit counts refusals only.
    expect((await scim('GET', '/Users', undefined, { ip })).status).toBe(200)
  })

  test('a token that made its 1200 calls in the minute gets a 429 in SCIM’s words; other tokens do not', async () => {
    expect(LIMITS.scimToken).toEqual({ max: 1200, windowMs: 60_000 })
    const busy = await createScimToken(admin, 'Busy sync')
    const calm = await createScimToken(admin, 'Calm sync')
    const [row] = await getDb()
      .select({ id: scimTokens.id })
      .from(scimTokens)
      .where(and(eq(scimTokens.organizationId, agency.id), eq(scimTokens.name, 'Busy sync')))
    if (!row) throw new Error('no token row')
    const key = limitKey('scimToken', row.id)
    // 1199 earlier calls, counted through the limiter's own upsert. Their window is opened an hour
    // long (later hits keep an open window's end), so it cannot end while this test runs, however
    // slow the machine: the route counts into the same row and applies the limit's own maximum.
    await withDatabase(async (db) => {
      for (let call = 0; call < 1199; call++) await hitRateLimit(db, key, 60 * 60_000)
    })
    // The 1200th call is still answered; the 1201st is refused.
    expect((await scim('GET', '/Users', undefined, { bearer: busy.token })).status).toBe(200)
    const limited = await scim('GET', '/Users', undefined, { bearer: busy.token })
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '429',
      scimType: 'tooMany',
      detail: 'Too many requests for this token',
    })
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    // What was refused is not counted, and the refusal is in the provisioning log under the token.
    expect((await withDatabase((db) => peekRateLimit(db, key)))?.count).toBe(1200)
    const [logged] = await getDb()
      .select()
      .from(scimEvents)
      .where(and(eq(scimEvents.organizationId, agency.id), eq(scimEvents.tokenId, row.id)))
      .orderBy(desc(scimEvents.createdAt))
      .limit(1)
    expect(logged).toMatchObject({ status: 429, error: 'Too many requests for this token' })
    // The limit is the token's: the agency's other token and another agency's still work.
    expect((await scim('GET', '/Users', undefined, { bearer: calm.token })).status).toBe(200)
    const elsewhere = await scim('GET', '/Users', undefined, {
      bearer: otherToken,
      host: `${other.slug}.localhost`,
    })
    expect(elsewhere.status).toBe(200)
  })
})
