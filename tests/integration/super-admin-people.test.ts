// The super admin's End Users and Admin Team screens (roles doc §2.11, §5, §8; accounts doc §7):
// only a super admin on the platform host lists or acts; each change is audited in the
// account's organization; deactivation ends sessions and blocks sign-in; bad input changes
// nothing; the CSV export follows the filter and is formula-safe.
import { and, eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, test } from 'vitest'
import { signIn } from '#app/auth/accounts.server'
import { StaffRole } from '#app/components/people/admin-team-page'
import { action as teamAction, loader as teamLoader } from '#app/routes/dashboard.super-admin.team'
import {
  action as usersAction,
  loader as usersLoader,
} from '#app/routes/dashboard.super-admin.users._index'
import { loader as exportLoader } from '#app/routes/dashboard.super-admin.users.export[.]csv'
import { resolveTenant } from '#app/tenancy/tenant.server'
import type { Role } from '#app/validation/roles'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox, sessions, users } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
  uniqueSuffix,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

type Org = Awaited<ReturnType<typeof makeOrganization>>
let platform: Org
let agency: Org
let adminCookie: string
let adminId: string
const PLATFORM = 'localhost'
const agencyHost = () => `${agency.slug}.localhost`

const USERS = '/dashboard/super-admin/users'
const TEAM = '/dashboard/super-admin/team'

beforeAll(async () => {
  platform = await getPlatformOrganization()
  agency = await makeOrganization({ name: 'Acme Agency', subscriptionTier: 'enterprise' })
  const admin = await makeUser(platform.id, { role: 'super_admin', firstName: 'Root' })
  adminId = admin.id
  adminCookie = await sessionCookieFor(platform.id, admin.id)
})

type Handler = (args: {
  request: Request
  context: ReturnType<typeof contextFor>
  params: Record<string, string>
}) => Promise<unknown>

const get = (loader: Handler, host: string, path: string, cookie = adminCookie) =>
  settle(async () =>
    loader({
      request: requestFor(host, path, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )

const post = (
  action: Handler,
  path: string,
  fields: Record<string, string>,
  cookie = adminCookie,
  host = PLATFORM,
) =>
  settle(async () =>
    action({
      request: formRequest(host, path, fields, cookie),
      context: contextFor(host),
      params: {},
    }),
  )

async function auditsFor(entityId: string) {
  return getDb().select().from(auditEvents).where(eq(auditEvents.entityId, entityId))
}

async function userRow(id: string) {
  const [row] = await getDb().select().from(users).where(eq(users.id, id))
  return row
}

describe('access: super admin on the platform host only', () => {
  const others: Role[] = [
    'super_admin_team',
    'agency_admin',
    'agency_member',
    'team_admin',
    'end_user',
  ]
  test('every other role gets 403 on every loader and action', async () => {
    for (const role of others) {
      const org = role === 'super_admin_team' ? platform : agency
      const host = role === 'super_admin_team' ? PLATFORM : agencyHost()
      const user = await makeUser(org.id, { role })
      const cookie = await sessionCookieFor(org.id, user.id)
      for (const [loader, path] of [
        [usersLoader, USERS],
        [exportLoader, `${USERS}/export.csv`],
        [teamLoader, TEAM],
      ] as const) {
        expect((await get(loader, host, path, cookie)).status, `${role} ${path}`).toBe(403)
      }
      const before = await databaseChecksum()
      const response = await post(
        usersAction,
        USERS,
        { intent: 'delete-user', userId: adminId },
        cookie,
        host,
      )
      expect(response.status).toBe(403)
      expect(
        (await post(teamAction, TEAM, { intent: 'delete-member', userId: adminId }, cookie, host))
          .status,
      ).toBe(403)
      expect(await databaseChecksum()).toEqual(before)
    }
  })

  test("a super admin of an agency, on the agency's host, gets 403", async () => {
    const user = await makeUser(agency.id, { role: 'super_admin' })
    const cookie = await sessionCookieFor(agency.id, user.id)
    expect((await get(usersLoader, agencyHost(), USERS, cookie)).status).toBe(403)
    expect((await get(teamLoader, agencyHost(), TEAM, cookie)).status).toBe(403)
    expect((await get(exportLoader, agencyHost(), `${USERS}/export.csv`, cookie)).status).toBe(403)
    const target = await makeUser(agency.id)
    const response = await post(
      usersAction,
      USERS,
      { intent: 'set-status', userId: target.id, organizationId: agency.id, status: 'inactive' },
      cookie,
      agencyHost(),
    )
    expect(response.status).toBe(403)
    expect((await userRow(target.id))?.status).toBe('active')
  })

  test('signed out is sent to sign in', async () => {
    const response = await get(usersLoader, PLATFORM, USERS, '')
    expect(response).toHaveRedirect(/^\/auth\/login/)
  })
})

describe('End Users', () => {
  test('lists every account but the platform staff, with agency, role, status and last active; search and filter work', async () => {
    const mark = uniqueSuffix()
    const inAgency = await makeUser(agency.id, { firstName: 'Ava', lastName: `Agency${mark}` })
    const onPlatform = await makeUser(platform.id, {
      firstName: 'Pia',
      lastName: `Platform${mark}`,
    })
    const owner = await makeUser(agency.id, { role: 'agency_admin', lastName: `Admin${mark}` })
    const teamMember = await makeUser(agency.id, { role: 'team_admin', lastName: `Team${mark}` })
    // The platform's staff are on the Admin Team, not here.
    await makeUser(platform.id, { role: 'super_admin_team', lastName: `Staff${mark}` })
    await getDb().update(users).set({ status: 'inactive' }).where(eq(users.id, onPlatform.id))
    const all = await (await get(usersLoader, PLATFORM, `${USERS}?q=${mark}`)).json()
    expect(all.users.map((u: { id: string }) => u.id).sort()).toEqual(
      [inAgency.id, onPlatform.id, owner.id, teamMember.id].sort(),
    )
    expect(all.users.find((u: { id: string }) => u.id === teamMember.id)?.role).toBe('team_admin')
    const byRole = await (
      await get(usersLoader, PLATFORM, `${USERS}?q=${mark}&role=agency_admin`)
    ).json()
    expect(byRole.users.map((u: { id: string }) => u.id)).toEqual([owner.id])
    const row = all.users.find((u: { id: string }) => u.id === inAgency.id)
    expect(row).toMatchObject({
      agency: 'Acme Agency',
      status: 'active',
      name: `Ava Agency${mark}`,
    })
    const byAgency = await (
      await get(usersLoader, PLATFORM, `${USERS}?q=${mark}&agency=${agency.id}`)
    ).json()
    expect(byAgency.users.map((u: { id: string }) => u.id).sort()).toEqual(
      [inAgency.id, owner.id, teamMember.id].sort(),
    )
    const inactive = await (
      await get(usersLoader, PLATFORM, `${USERS}?q=${mark}&status=inactive`)
    ).json()
    expect(inactive.users.map((u: { id: string }) => u.id)).toEqual([onPlatform.id])
    expect(inactive.total).toBe(1)
  })

  test('last active comes from a real sign-in', async () => {
    const tenant = await resolveTenant(agencyHost())
    if (tenant.status !== 'found') throw new Error('no tenant')
    const user = await makeUser(agency.id, { password: 'secret-pass-1' })
    expect((await userRow(user.id))?.lastActiveAt).toBeNull()
    const request = requestFor(agencyHost(), '/auth/login')
    expect(
      await signIn(
        tenant.tenant,
        { email: user.email, password: 'secret-pass-1' },
        '192.0.2.5',
        request,
      ),
    ).not.toBeNull()
    const seen = (await userRow(user.id))?.lastActiveAt
    expect(seen).toBeInstanceOf(Date)
    expect(Date.now() - (seen as Date).getTime()).toBeLessThan(60_000)
  })

  test('Add User creates an end user in the chosen organization, audited there', async () => {
    const email = `added-${uniqueSuffix()}@example.test`
    const response = await post(usersAction, USERS, {
      intent: 'add-user',
      name: 'Nia New',
      email,
      organizationId: agency.id,
      active: 'on',
    })
    expect(response.status).toBe(302)
    await expect(response).toSendToast('User added')
    const [created] = await getDb()
      .select()
      .from(users)
      .where(and(eq(users.email, email), eq(users.organizationId, agency.id)))
    expect(created).toMatchObject({
      firstName: 'Nia',
      lastName: 'New',
      role: 'end_user',
      status: 'active',
    })
    const events = await auditsFor(created?.id ?? '')
    expect(events).toMatchObject([
      { action: 'user.created', organizationId: agency.id, actorUserId: adminId },
    ])
    // Its owner is emailed a set-password link on the agency's host.
    await settleBackgroundWork()
    const [mail] = asDelivered(
      await getDb()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.organizationId, agency.id), eq(emailOutbox.toAddress, email))),
    )
    expect(mail?.text).toMatch(
      new RegExp(
        `http://${agency.slug}\\.localhost(:\\d+)?/auth/reset-password\\?token=[a-z2-7]{52}`,
      ),
    )
    // The same email again in that organization is refused and changes nothing.
    const before = await databaseChecksum()
    const again = await post(usersAction, USERS, {
      intent: 'add-user',
      name: 'Nia New',
      email,
      organizationId: agency.id,
    })
    expect(again.status).toBe(409)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('bad input is refused with the spec messages and changes nothing', async () => {
    const before = await databaseChecksum()
    const response = await post(usersAction, USERS, {
      intent: 'add-user',
      name: 'N',
      email: 'nope',
      organizationId: '',
    })
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.result.error).toMatchObject({
      name: ['Name must be at least 2 characters'],
      email: ['Please enter a valid email address'],
      organizationId: ['Please select an agency'],
    })
    const unknown = await post(usersAction, USERS, {
      intent: 'set-status',
      userId: '00000000-0000-4000-8000-000000000000',
      organizationId: agency.id,
      status: 'inactive',
    })
    expect(unknown.status).toBe(404)
    // A staff account is not an end user: the End Users screen cannot act on it.
    const staff = await post(usersAction, USERS, {
      intent: 'delete-user',
      userId: adminId,
      organizationId: platform.id,
    })
    expect(staff.status).toBe(404)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('deactivation ends the sessions at once and blocks sign-in; activation lets them back', async () => {
    const tenant = await resolveTenant(agencyHost())
    if (tenant.status !== 'found') throw new Error('no tenant')
    const user = await makeUser(agency.id, { password: 'secret-pass-1' })
    await sessionCookieFor(agency.id, user.id)
    const off = await post(usersAction, USERS, {
      intent: 'set-status',
      userId: user.id,
      organizationId: agency.id,
      status: 'inactive',
    })
    await expect(off).toSendToast('User deactivated')
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
    const request = requestFor(agencyHost(), '/auth/login')
    expect(
      await signIn(
        tenant.tenant,
        { email: user.email, password: 'secret-pass-1' },
        '192.0.2.6',
        request,
      ),
    ).toBeNull()
    const on = await post(usersAction, USERS, {
      intent: 'set-status',
      userId: user.id,
      organizationId: agency.id,
      status: 'active',
    })
    await expect(on).toSendToast('User activated')
    expect(
      await signIn(
        tenant.tenant,
        { email: user.email, password: 'secret-pass-1' },
        '192.0.2.7',
        request,
      ),
    ).not.toBeNull()
    expect((await auditsFor(user.id)).map((e) => e.action).sort()).toEqual([
      'user.activated',
      'user.deactivated',
    ])
  })

  test('edit, role change and delete, each audited', async () => {
    const user = await makeUser(agency.id)
    const edited = await post(usersAction, USERS, {
      intent: 'edit-user',
      userId: user.id,
      organizationId: agency.id,
      name: 'Eda Edited',
      email: `edited-${uniqueSuffix()}@example.test`,
      active: 'on',
    })
    await expect(edited).toSendToast('User updated')
    // A new address waits for its owner's confirmation again.
    expect(await userRow(user.id)).toMatchObject({
      firstName: 'Eda',
      lastName: 'Edited',
      emailConfirmedAt: null,
    })
    // Super admin roles exist on the platform only.
    const refused = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: user.id,
      organizationId: agency.id,
      role: 'super_admin',
    })
    expect(refused.status).toBe(400)
    const role = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: user.id,
      organizationId: agency.id,
      role: 'team_admin',
    })
    await expect(role).toSendToast('User role updated to Team Member successfully')
    expect((await userRow(user.id))?.role).toBe('team_admin')
    const other = await makeUser(agency.id)
    // Named under another organization than its own, the account is not found.
    const elsewhere = await post(usersAction, USERS, {
      intent: 'delete-user',
      userId: other.id,
      organizationId: platform.id,
    })
    expect(elsewhere.status).toBe(404)
    expect(await userRow(other.id)).toBeDefined()
    const deleted = await post(usersAction, USERS, {
      intent: 'delete-user',
      userId: other.id,
      organizationId: agency.id,
    })
    await expect(deleted).toSendToast('User removed')
    expect(await userRow(other.id)).toBeUndefined()
    expect((await auditsFor(user.id)).map((e) => e.action).sort()).toEqual([
      'user.role_changed',
      'user.updated',
    ])
    expect((await auditsFor(other.id)).map((e) => e.action)).toEqual(['user.deleted'])
  })

  test('promote then demote: the team member stays listed, can be edited, deactivated and changed back, each audited', async () => {
    const endUser = await makeUser(agency.id, {
      firstName: 'Pro',
      lastName: `Moted${uniqueSuffix()}`,
    })
    const assigned = await makeUser(agency.id, { role: 'end_user' })
    const promote = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: endUser.id,
      organizationId: agency.id,
      role: 'team_admin',
    })
    await expect(promote).toSendToast('User role updated to Team Member successfully')
    await getDb()
      .update(users)
      .set({ assignedToUserId: endUser.id })
      .where(eq(users.id, assigned.id))
    const listed = async () =>
      (await (await get(usersLoader, PLATFORM, `${USERS}?q=${endUser.lastName}`)).json()).users
    expect(await listed()).toEqual([
      expect.objectContaining({ id: endUser.id, role: 'team_admin' }),
    ])
    const edited = await post(usersAction, USERS, {
      intent: 'edit-user',
      userId: endUser.id,
      organizationId: agency.id,
      name: `Tia ${endUser.lastName}`,
      email: endUser.email,
      active: 'on',
    })
    await expect(edited).toSendToast('User updated')
    const off = await post(usersAction, USERS, {
      intent: 'set-status',
      userId: endUser.id,
      organizationId: agency.id,
      status: 'inactive',
    })
    await expect(off).toSendToast('User deactivated')
    const demote = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: endUser.id,
      organizationId: agency.id,
      role: 'end_user',
    })
    await expect(demote).toSendToast('User role updated to End User successfully')
    expect(await userRow(endUser.id)).toMatchObject({
      role: 'end_user',
      firstName: 'Tia',
      status: 'inactive',
    })
    // No longer a team member: the end users they looked after are unassigned.
    expect((await userRow(assigned.id))?.assignedToUserId).toBeNull()
    const audits = await auditsFor(endUser.id)
    expect(audits.map((e) => e.action).sort()).toEqual(
      ['user.deactivated', 'user.role_changed', 'user.role_changed', 'user.updated'].sort(),
    )
    expect(audits.filter((e) => e.action === 'user.role_changed').map((e) => e.metadata)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          from: 'end_user',
          to: 'team_admin',
          actorOrganizationId: platform.id,
        }),
        expect.objectContaining({ from: 'team_admin', to: 'end_user', unassignedEndUsers: 1 }),
      ]),
    )
    expect(audits.every((e) => e.organizationId === agency.id && e.actorUserId === adminId)).toBe(
      true,
    )
    const promotedAgain = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: endUser.id,
      organizationId: agency.id,
      role: 'team_admin',
    })
    expect(promotedAgain.status).toBe(302)
    const deleted = await post(usersAction, USERS, {
      intent: 'delete-user',
      userId: endUser.id,
      organizationId: agency.id,
    })
    await expect(deleted).toSendToast('User removed')
    expect(await userRow(endUser.id)).toBeUndefined()
  })

  test("an agency owner's role can change, but the agency keeps an active agency admin", async () => {
    const own = await makeOrganization({ name: 'Owned Agency' })
    const owner = await makeUser(own.id, { role: 'agency_admin' })
    const before = await databaseChecksum()
    for (const fields of <Record<string, string>[]>[
      { intent: 'change-role', role: 'agency_member' },
      { intent: 'set-status', status: 'inactive' },
      { intent: 'delete-user' },
      { intent: 'edit-user', name: 'Owen Owner', email: owner.email },
    ]) {
      const response = await post(usersAction, USERS, {
        ...fields,
        userId: owner.id,
        organizationId: own.id,
      })
      expect(response.status, fields.intent).toBe(409)
      const body = (await response.json()) as { error: string }
      expect(body.error).toBe('An agency must keep at least one active agency admin')
    }
    expect(await databaseChecksum()).toEqual(before)
    // An inactive second admin does not count; an active one does.
    const second = await makeUser(own.id, { role: 'agency_admin' })
    await getDb().update(users).set({ status: 'inactive' }).where(eq(users.id, second.id))
    const stillRefused = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: owner.id,
      organizationId: own.id,
      role: 'agency_member',
    })
    expect(stillRefused.status).toBe(409)
    await getDb().update(users).set({ status: 'active' }).where(eq(users.id, second.id))
    const demoted = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: owner.id,
      organizationId: own.id,
      role: 'agency_member',
    })
    await expect(demoted).toSendToast('User role updated to Agency Member successfully')
    expect((await userRow(owner.id))?.role).toBe('agency_member')
    expect((await auditsFor(owner.id)).map((e) => e.action)).toEqual(['user.role_changed'])
  })

  test('a refused role change names the reason for the dialog', async () => {
    const user = await makeUser(agency.id)
    const refused = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: user.id,
      organizationId: agency.id,
      role: 'end_user',
    })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({
      intent: 'change-role',
      error: 'This user is already End User',
    })
  })

  test('Export Data: the filtered list as formula-safe CSV', async () => {
    const mark = uniqueSuffix()
    await makeUser(agency.id, {
      firstName: '=HYPERLINK("x")',
      lastName: `Csv${mark}`,
      email: `csv-${mark}@example.test`,
    })
    await makeUser(platform.id, { firstName: 'Other', lastName: `Csv${mark}` })
    const response = await get(
      exportLoader,
      PLATFORM,
      `${USERS}/export.csv?q=${mark}&agency=${agency.id}`,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toContain('text/csv')
    expect(response.headers.get('Content-Disposition')).toContain('end-users.csv')
    const lines = (await response.text()).replace('\uFEFF', '').trim().split('\r\n')
    expect(lines[0]).toBe('"Name","Email","Agency","Role","Status","Last Active","Created"')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(
      `"'=HYPERLINK(""x"") Csv${mark}","csv-${mark}@example.test","Acme Agency","End User","active"`,
    )
  })
})

describe('Admin Team', () => {
  test('add a staff member with a title and password; they can sign in', async () => {
    const email = `staff-${uniqueSuffix()}@example.test`
    const response = await post(teamAction, TEAM, {
      intent: 'add-member',
      name: 'Sam Staff',
      email,
      staffTitle: 'support_manager',
      access: 'super_admin_team',
      password: 'staff-pass-1',
    })
    await expect(response).toSendToast('Team member added successfully')
    const list = await (
      await get(teamLoader, PLATFORM, `${TEAM}?q=${encodeURIComponent(email)}`)
    ).json()
    expect(list.members).toMatchObject([
      { email, name: 'Sam Staff', role: 'super_admin_team', staffTitleLabel: 'Support Manager' },
    ])
    const tenant = await resolveTenant(PLATFORM)
    if (tenant.status !== 'found') throw new Error('no platform')
    expect(
      await signIn(
        tenant.tenant,
        { email, password: 'staff-pass-1' },
        '192.0.2.8',
        requestFor(PLATFORM),
      ),
    ).not.toBeNull()
    expect((await auditsFor(list.members[0].id)).map((e) => e.action)).toEqual(['staff.created'])
  })

  test('the role column: a title above the badge, and the badge alone without one', async () => {
    const list = (await (await get(teamLoader, PLATFORM, TEAM)).json()) as {
      members: { role: Role; staffTitleLabel: string | null }[]
    }
    const untitled = list.members.find((member) => member.staffTitleLabel === null)
    expect(untitled).toBeDefined()
    const cell = (member: { role: Role; staffTitleLabel: string | null }) =>
      renderToStaticMarkup(createElement(StaffRole, { member }))
    expect(cell(untitled as never)).not.toContain('—')
    expect(cell(untitled as never)).not.toContain('<div')
    expect(cell({ role: 'super_admin_team', staffTitleLabel: 'Support Manager' })).toMatch(
      /<div[^>]*>Support Manager<\/div><span[^>]*>/,
    )
  })

  test('the spec messages, and nothing changes', async () => {
    const before = await databaseChecksum()
    const response = await post(teamAction, TEAM, {
      intent: 'add-member',
      name: 'S',
      email: 'x',
      password: 'short',
    })
    expect(response.status).toBe(400)
    expect((await response.json()).result.error).toMatchObject({
      name: ['Name must be at least 2 characters'],
      email: ['Please enter a valid email address'],
      staffTitle: ['Please select a role'],
      password: ['Password must be at least 8 characters'],
    })
    expect(await databaseChecksum()).toEqual(before)
  })

  test('edit leaves the password unchanged unless typed; role filter; delete', async () => {
    const staff = await makeUser(platform.id, {
      role: 'super_admin_team',
      password: 'first-pass-1',
    })
    const hash = (await userRow(staff.id))?.passwordHash
    const fields = {
      intent: 'edit-member',
      userId: staff.id,
      name: 'Ed Staff',
      email: staff.email,
      staffTitle: 'team_lead',
      access: 'super_admin_team',
    }
    const kept = await post(teamAction, TEAM, { ...fields, password: '' })
    await expect(kept).toSendToast('Team member updated successfully')
    expect(await userRow(staff.id)).toMatchObject({
      passwordHash: hash,
      staffTitle: 'team_lead',
      firstName: 'Ed',
    })
    await post(teamAction, TEAM, { ...fields, password: 'second-pass-2' })
    expect((await userRow(staff.id))?.passwordHash).not.toBe(hash)
    const onlyAdmins = await (await get(teamLoader, PLATFORM, `${TEAM}?role=super_admin`)).json()
    expect(onlyAdmins.members.every((m: { role: string }) => m.role === 'super_admin')).toBe(true)
    expect(onlyAdmins.members.some((m: { id: string }) => m.id === staff.id)).toBe(false)
    const deleted = await post(teamAction, TEAM, { intent: 'delete-member', userId: staff.id })
    await expect(deleted).toSendToast('Team member removed')
    expect(await userRow(staff.id)).toBeUndefined()
    expect((await auditsFor(staff.id)).map((e) => e.action).sort()).toEqual([
      'staff.deleted',
      'staff.updated',
      'staff.updated',
    ])
  })

  test('a super admin cannot delete or demote themselves; the platform keeps a super admin', async () => {
    const before = await databaseChecksum()
    const self = await post(teamAction, TEAM, { intent: 'delete-member', userId: adminId })
    expect(self.status).toBe(403)
    const demote = await post(teamAction, TEAM, {
      intent: 'change-role',
      userId: adminId,
      role: 'super_admin_team',
    })
    expect(demote.status).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
    // Another super admin can be demoted while one remains, with the role toast and audit.
    const other = await makeUser(platform.id, { role: 'super_admin' })
    const role = await post(teamAction, TEAM, {
      intent: 'change-role',
      userId: other.id,
      role: 'super_admin_team',
    })
    await expect(role).toSendToast('User role updated to Super Admin Team successfully')
    expect((await auditsFor(other.id)).map((e) => e.action)).toEqual(['user.role_changed'])
  })

  test('the last super admin cannot be demoted or deleted', async () => {
    // Every super admin but the acting one becomes team staff: the acting one is the last.
    await getDb()
      .update(users)
      .set({ role: 'super_admin_team' })
      .where(and(eq(users.organizationId, platform.id), eq(users.role, 'super_admin')))
    await getDb().update(users).set({ role: 'super_admin' }).where(eq(users.id, adminId))
    // A second admin acts against the last one's account: refused all the same.
    const second = await makeUser(platform.id, { role: 'super_admin' })
    const secondCookie = await sessionCookieFor(platform.id, second.id)
    await getDb().update(users).set({ role: 'super_admin_team' }).where(eq(users.id, second.id))
    // The second is no longer a super admin: 403 before anything.
    expect(
      (await post(teamAction, TEAM, { intent: 'delete-member', userId: adminId }, secondCookie))
        .status,
    ).toBe(403)
    await getDb().update(users).set({ role: 'super_admin' }).where(eq(users.id, second.id))
    const demoteSecond = await post(teamAction, TEAM, {
      intent: 'change-role',
      userId: second.id,
      role: 'super_admin_team',
    })
    expect(demoteSecond.status).toBe(302)
    const before = await databaseChecksum()
    const last = await post(
      teamAction,
      TEAM,
      { intent: 'delete-member', userId: adminId },
      adminCookie,
    )
    expect(last.status).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
  })
})
