// The super admin's Agencies screen (roles-teams-admin.md §2.11, §3-§5, §8; issue 14 point 1)
// through its loader and action: only a super admin on the platform host, real rows (team size
// counted), each change with its audit event, refusals that change nothing, the owner's
// set-password link, and the agency's host answering "site unavailable" right after a change.
import { and, desc, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { resetPassword, signIn } from '#app/auth/accounts.server'
import { action, loader } from '#app/routes/dashboard.super-admin.agencies'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import type { Role } from '#app/validation/roles'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox, organizations, users } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

const PATH = '/dashboard/super-admin/agencies'
const PLATFORM_HOST = 'localhost'
const ROLES: Role[] = [
  'super_admin',
  'super_admin_team',
  'agency_admin',
  'agency_member',
  'team_admin',
  'end_user',
]

let platformId: string
let adminId: string
let adminCookie: string
const platformCookies = new Map<Role, string>()

beforeAll(async () => {
  const platform = await getPlatformOrganization()
  platformId = platform.id
  for (const role of ROLES) {
    const user = await makeUser(platform.id, { role })
    platformCookies.set(role, await sessionCookieFor(platform.id, user.id))
    if (role === 'super_admin') adminId = user.id
  }
  adminCookie = platformCookies.get('super_admin') as string
})

const list = (cookie = adminCookie, host = PLATFORM_HOST, q = '') =>
  settle(() =>
    loader({
      request: requestFor(host, `${PATH}${q ? `?q=${encodeURIComponent(q)}` : ''}`, {
        headers: { Cookie: cookie },
      }),
      context: contextFor(host),
      params: {},
    }),
  )

const post = (fields: Record<string, string>, cookie = adminCookie, host = PLATFORM_HOST) =>
  settle(() =>
    action({
      request: formRequest(host, PATH, fields, cookie),
      context: contextFor(host),
      params: {},
    }),
  )

type Listed = { agencies: Array<{ id: string; name: string; slug: string; teamSize: number }> }
const agenciesOf = async (response: Response) => ((await response.json()) as Listed).agencies

async function lastAudit(agencyId: string) {
  const [row] = await getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, agencyId), eq(auditEvents.organizationId, platformId)))
    .orderBy(desc(auditEvents.createdAt))
    .limit(1)
  return row
}

const orgRow = async (id: string) =>
  (await getDb().select().from(organizations).where(eq(organizations.id, id)))[0]

function agencyFields(overrides: Record<string, string> = {}) {
  const suffix = uniqueSuffix()
  return {
    intent: 'create',
    name: `Acme ${suffix}`,
    ownerName: 'Olive Owner',
    email: `owner-${suffix}@example.test`,
    subscription: 'starter',
    active: 'on',
    ...overrides,
  }
}

async function createAgencyNamed(overrides: Record<string, string> = {}) {
  const fields = agencyFields(overrides)
  const response = await post(fields)
  expect(response.status).toBe(302)
  const [row] = await getDb()
    .select()
    .from(organizations)
    .where(eq(organizations.contactEmail, fields.email))
  if (!row) throw new Error('agency not created')
  return { row, fields, response }
}

describe('who may open and use the Agencies screen', () => {
  test('a super admin on the platform host lists agencies with their real team size', async () => {
    const agency = await makeOrganization({
      ownerName: 'Tess Team',
      contactEmail: 't@example.test',
    })
    await makeUser(agency.id, { role: 'agency_admin' })
    await makeUser(agency.id, { role: 'end_user' })
    const response = await list()
    expect(response.status).toBe(200)
    const listed = (await agenciesOf(response)).find((a) => a.id === agency.id)
    expect(listed?.teamSize).toBe(2)
    // The platform itself is not an agency.
    expect((await agenciesOf(await list())).some((a) => a.id === platformId)).toBe(false)
  })

  test('every other role on the platform host gets 403, for the page and every action', async () => {
    for (const role of ROLES.filter((r) => r !== 'super_admin')) {
      const cookie = platformCookies.get(role) as string
      expect((await list(cookie)).status, role).toBe(403)
      const before = await databaseChecksum()
      expect((await post(agencyFields(), cookie)).status, role).toBe(403)
      expect(await databaseChecksum(), role).toEqual(before)
    }
  })

  test("a super admin's session on an agency host gets 403", async () => {
    const agency = await makeOrganization()
    const admin = await makeUser(agency.id, { role: 'super_admin' })
    const cookie = await sessionCookieFor(agency.id, admin.id)
    const host = `${agency.slug}.localhost`
    expect((await list(cookie, host)).status).toBe(403)
    const before = await databaseChecksum()
    expect((await post(agencyFields(), cookie, host)).status).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('signed out is sent to sign in', async () => {
    const response = await list('')
    expect(response).toHaveRedirect(/^\/auth\/login/)
  })
})

describe('adding an agency with its owner', () => {
  test('creates the agency, its agency_admin owner, the set-password email and the audit event', async () => {
    const { row, fields, response } = await createAgencyNamed({ slug: '' })
    await expect(response).toSendToast('Agency added')
    expect(row).toMatchObject({
      kind: 'agency',
      name: fields.name,
      slug: fields.name.toLowerCase().replace(' ', '-'),
      status: 'active',
      approvalStatus: 'approved',
      subscriptionTier: 'starter',
      ownerName: 'Olive Owner',
    })
    const [owner] = await getDb().select().from(users).where(eq(users.organizationId, row.id))
    expect(owner).toMatchObject({
      email: fields.email,
      role: 'agency_admin',
      firstName: 'Olive',
      lastName: 'Owner',
    })
    expect(await lastAudit(row.id)).toMatchObject({
      action: 'agency.create',
      actorUserId: adminId,
      entityType: 'organization',
    })
    // The owner sets their password through the emailed link and signs in on the new host.
    const [email] = asDelivered(
      await getDb().select().from(emailOutbox).where(eq(emailOutbox.organizationId, row.id)),
    )
    expect(email?.toAddress).toBe(fields.email)
    const link = /http:\/\/([^/]+)\/auth\/reset-password\?token=([a-z2-7]+)/.exec(email?.text ?? '')
    expect(link?.[1]).toMatch(new RegExp(`^${row.slug}\\.localhost(:\\d+)?$`))
    const resolution = await resolveTenant(`${row.slug}.localhost`)
    expect(resolution.status).toBe('found')
    const tenant = (resolution as { tenant: Tenant }).tenant
    expect(await resetPassword(tenant, link?.[2] ?? '', 'a-new-password')).toBe(true)
    const signedIn = await signIn(
      tenant,
      { email: fields.email, password: 'a-new-password' },
      '203.0.113.9',
      requestFor(`${row.slug}.localhost`, '/auth/login'),
    )
    expect(signedIn?.user.id).toBe(owner?.id)
  })

  test('an inactive new agency is created inactive; a typed address is used', async () => {
    const slug = `typed-${uniqueSuffix()}`
    const { row } = await createAgencyNamed({ slug, active: '' })
    expect(row.slug).toBe(slug)
    expect(row.status).toBe('inactive')
    expect((await resolveTenant(`${slug}.localhost`)).status).toBe('unavailable')
  })

  test('bad input changes nothing and says why (spec §5)', async () => {
    const taken = await makeOrganization()
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ name: 'A' }, 'name', 'Name must be at least 2 characters'],
      [{ ownerName: 'O' }, 'ownerName', 'Owner name must be at least 2 characters'],
      [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
      [{ subscription: '' }, 'subscription', 'Please select a plan'],
      [{ subscription: 'platinum' }, 'subscription', 'Please select a plan'],
      [{ slug: 'admin' }, 'slug', ''],
      [{ slug: '-bad-' }, 'slug', ''],
      [{ slug: taken.slug }, 'slug', 'This web address is already taken'],
    ]
    for (const [overrides, field, message] of cases) {
      const before = await databaseChecksum()
      const response = await post(agencyFields(overrides))
      expect(response.status, field).toBeGreaterThanOrEqual(400)
      const errors = await replyErrors(response)
      expect(errors[field]?.length, field).toBeGreaterThan(0)
      if (message) expect(errors[field]?.[0]).toBe(message)
      expect(await databaseChecksum(), field).toEqual(before)
    }
  })
})

describe('changing an agency', () => {
  test('edit saves the fields and audits what changed', async () => {
    const { row } = await createAgencyNamed()
    const response = await post({
      ...agencyFields({ intent: 'update', name: 'Renamed Agency', subscription: 'enterprise' }),
      agencyId: row.id,
      slug: row.slug,
    })
    expect(response.status).toBe(302)
    await expect(response).toSendToast('Agency updated')
    const after = await orgRow(row.id)
    expect(after).toMatchObject({
      name: 'Renamed Agency',
      subscriptionTier: 'enterprise',
      slug: row.slug,
      status: 'active',
    })
    const event = await lastAudit(row.id)
    expect(event?.action).toBe('agency.update')
    expect(event?.metadata).toMatchObject({
      changed: { name: { to: 'Renamed Agency' }, subscriptionTier: { to: 'enterprise' } },
    })
  })

  test('deactivating makes the host "site unavailable" at once; activating brings it back', async () => {
    const { row } = await createAgencyNamed()
    const host = `${row.slug}.localhost`
    expect((await resolveTenant(host)).status).toBe('found')
    const off = await post({ intent: 'deactivate', agencyId: row.id })
    await expect(off).toSendToast('Agency deactivated')
    expect((await orgRow(row.id))?.status).toBe('inactive')
    expect((await lastAudit(row.id))?.action).toBe('agency.deactivate')
    expect((await resolveTenant(host)).status).toBe('unavailable')
    const on = await post({ intent: 'activate', agencyId: row.id })
    await expect(on).toSendToast('Agency activated')
    expect((await lastAudit(row.id))?.action).toBe('agency.activate')
    expect((await resolveTenant(host)).status).toBe('found')
  })

  test('rejecting makes the host unavailable; approving restores it', async () => {
    const { row } = await createAgencyNamed()
    const host = `${row.slug}.localhost`
    expect((await resolveTenant(host)).status).toBe('found')
    const rejected = await post({ intent: 'reject', agencyId: row.id })
    await expect(rejected).toSendToast('Agency rejected')
    expect((await orgRow(row.id))?.approvalStatus).toBe('rejected')
    expect((await lastAudit(row.id))?.action).toBe('agency.reject')
    expect((await resolveTenant(host)).status).toBe('unavailable')
    const approved = await post({ intent: 'approve', agencyId: row.id })
    await expect(approved).toSendToast('Agency approved')
    expect((await lastAudit(row.id))?.action).toBe('agency.approve')
    expect((await resolveTenant(host)).status).toBe('found')
  })

  // Spec §4: "New agencies are created as approved", and the §5 form has no status but Active,
  // so a submitted approval or status field is ignored; pending comes from elsewhere (the seed).
  test('the add form cannot create a pending agency: it starts approved', async () => {
    const { row } = await createAgencyNamed({ approvalStatus: 'pending', status: 'pending' })
    expect(row.approvalStatus).toBe('approved')
    expect(row.status).toBe('active')
    expect((await resolveTenant(`${row.slug}.localhost`)).status).toBe('found')
  })

  test('a pending agency shows "site unavailable" until approved, then its host serves', async () => {
    const agency = await makeOrganization({ status: 'pending', approvalStatus: 'pending' })
    const host = `${agency.slug}.localhost`
    expect((await resolveTenant(host)).status).toBe('unavailable')
    const approved = await post({ intent: 'approve', agencyId: agency.id })
    await expect(approved).toSendToast('Agency approved')
    expect((await orgRow(agency.id))?.approvalStatus).toBe('approved')
    expect((await lastAudit(agency.id))?.action).toBe('agency.approve')
    // Approved but still pending (not active): §4's Activate is what opens it.
    expect((await resolveTenant(host)).status).toBe('unavailable')
    const activated = await post({ intent: 'activate', agencyId: agency.id })
    await expect(activated).toSendToast('Agency activated')
    expect((await orgRow(agency.id))?.status).toBe('active')
    const resolution = await resolveTenant(host)
    expect(resolution.status).toBe('found')
    expect((resolution as { tenant: Tenant }).tenant.id).toBe(agency.id)
  })

  test('an active agency awaiting approval serves once approved', async () => {
    const agency = await makeOrganization({ status: 'active', approvalStatus: 'pending' })
    const host = `${agency.slug}.localhost`
    expect((await resolveTenant(host)).status).toBe('unavailable')
    await post({ intent: 'approve', agencyId: agency.id })
    expect((await resolveTenant(host)).status).toBe('found')
  })

  test('delete removes the agency and its people, audited in the platform log', async () => {
    const { row } = await createAgencyNamed()
    const host = `${row.slug}.localhost`
    expect((await resolveTenant(host)).status).toBe('found')
    const response = await post({ intent: 'delete', agencyId: row.id })
    await expect(response).toSendToast('Agency removed')
    expect(await orgRow(row.id)).toBeUndefined()
    expect(await getDb().select().from(users).where(eq(users.organizationId, row.id))).toEqual([])
    expect((await lastAudit(row.id))?.action).toBe('agency.delete')
    expect((await resolveTenant(host)).status).toBe('not-found')
  })

  test('an unknown agency or the platform itself is 404 and changes nothing', async () => {
    for (const agencyId of ['00000000-0000-4000-8000-000000000000', platformId]) {
      for (const intent of ['deactivate', 'activate', 'approve', 'reject', 'delete']) {
        const before = await databaseChecksum()
        const response = await post({ intent, agencyId })
        expect(response.status, intent).toBe(404)
        expect(await databaseChecksum(), intent).toEqual(before)
      }
    }
    const before = await databaseChecksum()
    const bad = await post({ intent: 'deactivate', agencyId: 'not-a-uuid' })
    expect(bad.status).toBe(400)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('search filters by name, address and owner', async () => {
    const suffix = uniqueSuffix()
    const { row } = await createAgencyNamed({
      name: `Zebra ${suffix}`,
      ownerName: `Quinn ${suffix}`,
    })
    await createAgencyNamed()
    for (const q of [`zebra ${suffix}`, row.slug, `quinn ${suffix}`]) {
      const found = await agenciesOf(await list(adminCookie, PLATFORM_HOST, q))
      expect(
        found.map((a) => a.id),
        q,
      ).toEqual([row.id])
    }
    expect(await agenciesOf(await list(adminCookie, PLATFORM_HOST, `nothing-${suffix}`))).toEqual(
      [],
    )
  })
})
