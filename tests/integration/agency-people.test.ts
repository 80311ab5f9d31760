// The agency's Team Members and End Users screens (roles doc §2.12, §3, §4, §5, §8): an agency
// admin lists and changes its own organization's people only, on its own host; an agency member
// reads and is refused every write; an end user assigned to a team member shows on that team
// member's My End Users; an assignee of another organization or role is refused; every change
// writes its audit event.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { action as teamAction, loader as teamLoader } from '#app/routes/dashboard.agency.team'
import {
  action as usersAction,
  loader as usersLoader,
} from '#app/routes/dashboard.agency.users._index'
import { loader as exportLoader } from '#app/routes/dashboard.agency.users.export[.]csv'
import { loader as myEndUsersLoader } from '#app/routes/dashboard.team-member.users'
import type { Role } from '#app/validation/roles'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox, users } from '#drizzle/schema'
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
  settleBackgroundWork,
  uniqueSuffix,
} from '#tests/factories'

type Org = Awaited<ReturnType<typeof makeOrganization>>
type Handler = (args: {
  request: Request
  context: ReturnType<typeof contextFor>
  params: Record<string, string>
}) => Promise<unknown>

const TEAM = '/dashboard/agency/team'
const USERS = '/dashboard/agency/users'

let agency: Org
let other: Org
let adminId: string
let adminCookie: string
let memberCookie: string
let teamAdminId: string
let teamAdminCookie: string
let otherTeamAdminId: string
let otherEndUserId: string
let otherStaffId: string
const host = () => `${agency.slug}.localhost`

beforeAll(async () => {
  // People management, not the plans' limits (billing-plans.test.ts): room for every account.
  agency = await makeOrganization({ name: 'Acme People', subscriptionTier: 'enterprise' })
  other = await makeOrganization({ name: 'Other People' })
  const admin = await makeUser(agency.id, { role: 'agency_admin', firstName: 'Ada' })
  adminId = admin.id
  adminCookie = await sessionCookieFor(agency.id, admin.id)
  const member = await makeUser(agency.id, { role: 'agency_member', firstName: 'Mel' })
  memberCookie = await sessionCookieFor(agency.id, member.id)
  const teamAdmin = await makeUser(agency.id, {
    role: 'team_admin',
    firstName: 'Tess',
    lastName: 'Team',
  })
  teamAdminId = teamAdmin.id
  teamAdminCookie = await sessionCookieFor(agency.id, teamAdmin.id)
  otherTeamAdminId = (await makeUser(other.id, { role: 'team_admin' })).id
  otherEndUserId = (await makeUser(other.id, { role: 'end_user', firstName: 'Otto' })).id
  otherStaffId = (await makeUser(other.id, { role: 'agency_member', firstName: 'Olga' })).id
})

const get = (loader: Handler, path: string, cookie = adminCookie, on = host()) =>
  settle(async () =>
    loader({
      request: requestFor(on, path, { headers: { Cookie: cookie } }),
      context: contextFor(on),
      params: {},
    }),
  )

const post = (
  action: Handler,
  path: string,
  fields: Record<string, string>,
  cookie = adminCookie,
) =>
  settle(async () =>
    action({
      request: formRequest(host(), path, fields, cookie),
      context: contextFor(host()),
      params: {},
    }),
  )

const auditsFor = (entityId: string) =>
  getDb().select().from(auditEvents).where(eq(auditEvents.entityId, entityId))

async function userRow(id: string) {
  const [row] = await getDb().select().from(users).where(eq(users.id, id))
  return row
}

async function userByEmail(email: string) {
  const [row] = await getDb().select().from(users).where(eq(users.email, email))
  return row
}

describe('access', () => {
  test('agency admin and member read both screens; other roles get 403', async () => {
    for (const cookie of [adminCookie, memberCookie]) {
      expect((await get(teamLoader, TEAM, cookie)).status).toBe(200)
      expect((await get(usersLoader, USERS, cookie)).status).toBe(200)
      expect((await get(exportLoader, `${USERS}/export.csv`, cookie)).status).toBe(200)
    }
    for (const role of ['team_admin', 'end_user'] as Role[]) {
      const user = await makeUser(agency.id, { role })
      const cookie = await sessionCookieFor(agency.id, user.id)
      expect((await get(teamLoader, TEAM, cookie)).status).toBe(403)
      expect((await get(usersLoader, USERS, cookie)).status).toBe(403)
    }
  })

  test("on the platform's host: 403, even for an account with an agency role there", async () => {
    const platform = await getPlatformOrganization()
    const oddAdmin = await makeUser(platform.id, { role: 'agency_admin' })
    const cookie = await sessionCookieFor(platform.id, oddAdmin.id)
    expect((await get(teamLoader, TEAM, cookie, 'localhost')).status).toBe(403)
    expect((await get(usersLoader, USERS, cookie, 'localhost')).status).toBe(403)
    const superAdmin = await makeUser(platform.id, { role: 'super_admin' })
    const superCookie = await sessionCookieFor(platform.id, superAdmin.id)
    expect((await get(usersLoader, USERS, superCookie, 'localhost')).status).toBe(403)
  })

  test("on another agency's host the session counts for nothing (sent to sign in)", async () => {
    const response = await get(usersLoader, USERS, adminCookie, `${other.slug}.localhost`)
    expect(response).toHaveRedirect(/^\/auth\/login/)
  })

  test('the agency member sees no edit controls and is refused every write (403)', async () => {
    const team = await (await get(teamLoader, TEAM, memberCookie)).json()
    const people = await (await get(usersLoader, USERS, memberCookie)).json()
    expect(team.canEdit).toBe(false)
    expect(people.canEdit).toBe(false)
    const endUser = await makeUser(agency.id, { role: 'end_user' })
    const before = await databaseChecksum({ organizationId: agency.id })
    const attempts: [Handler, string, Record<string, string>][] = [
      [
        usersAction,
        USERS,
        { intent: 'add-user', name: 'Mal Ice', email: 'mal@example.test', active: 'on' },
      ],
      [
        usersAction,
        USERS,
        { intent: 'edit-user', userId: endUser.id, name: 'X Y', email: 'x@example.test' },
      ],
      [
        usersAction,
        USERS,
        { intent: 'assign-user', userId: endUser.id, assignedToUserId: teamAdminId },
      ],
      [usersAction, USERS, { intent: 'set-status', userId: endUser.id, status: 'inactive' }],
      [usersAction, USERS, { intent: 'delete-user', userId: endUser.id }],
      [usersAction, USERS, { intent: 'change-role', userId: endUser.id, role: 'team_admin' }],
      [
        teamAction,
        TEAM,
        {
          intent: 'add-member',
          name: 'Sly One',
          email: 'sly@example.test',
          staffTitle: 'designer',
          access: 'agency_admin',
          password: 'password-1',
        },
      ],
      [
        teamAction,
        TEAM,
        {
          intent: 'edit-member',
          userId: adminId,
          name: 'Ada',
          email: 'ada@example.test',
          staffTitle: 'designer',
          access: 'agency_member',
        },
      ],
      [teamAction, TEAM, { intent: 'delete-member', userId: adminId }],
      [teamAction, TEAM, { intent: 'change-role', userId: adminId, role: 'agency_member' }],
    ]
    for (const [action, path, fields] of attempts) {
      expect((await post(action, path, fields, memberCookie)).status, fields.intent).toBe(403)
    }
    expect(await databaseChecksum({ organizationId: agency.id })).toEqual(before)
  })
})

describe('Team Members', () => {
  test('lists this agency staff and team members only, with titles; search and access filter', async () => {
    const email = `designer-${uniqueSuffix()}@example.test`
    const added = await post(teamAction, TEAM, {
      intent: 'add-member',
      name: 'Dee Signer',
      email,
      staffTitle: 'designer',
      access: 'agency_member',
      password: 'password-123',
    })
    expect(added.status).toBe(302)
    await expect(added).toSendToast({ title: 'Team member added successfully' })
    const created = await userByEmail(email)
    expect(created).toMatchObject({
      organizationId: agency.id,
      role: 'agency_member',
      staffTitle: 'designer',
    })
    expect((await auditsFor(created?.id ?? '')).map((e) => e.action)).toContain('staff.created')
    const data = await (await get(teamLoader, TEAM)).json()
    const ids = data.members.map((m: { id: string }) => m.id)
    expect(ids).toContain(created?.id)
    expect(ids).toContain(adminId)
    expect(ids).not.toContain(otherStaffId)
    // Team members (role team_admin, the spec's "Team Member") are managed here too.
    expect(ids).toContain(teamAdminId)
    const teamMembersOnly = await (await get(teamLoader, `${TEAM}?role=team_admin`)).json()
    expect(teamMembersOnly.members.map((m: { id: string }) => m.id)).toContain(teamAdminId)
    expect(teamMembersOnly.members.map((m: { id: string }) => m.id)).not.toContain(adminId)
    expect(data.members.find((m: { id: string }) => m.id === created?.id).staffTitleLabel).toBe(
      'Designer',
    )
    const searched = await (await get(teamLoader, `${TEAM}?q=Signer&role=agency_member`)).json()
    expect(searched.members.map((m: { id: string }) => m.id)).toEqual([created?.id])
  })

  test('adding without a password emails a set-password link', async () => {
    const email = `invited-${uniqueSuffix()}@example.test`
    const added = await post(teamAction, TEAM, {
      intent: 'add-member',
      name: 'Ivy Ted',
      email,
      staffTitle: 'developer',
      access: 'agency_member',
      password: '',
    })
    expect(added.status).toBe(302)
    await settleBackgroundWork()
    const mails = await getDb().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))
    expect(mails).toHaveLength(1)
    expect(mails[0]?.text).toMatch(/reset-password\?token=/)
  })

  test('a short password, a platform title or a platform access level are refused', async () => {
    const before = await databaseChecksum({ organizationId: agency.id })
    for (const fields of [
      { password: 'short' },
      { staffTitle: 'team_lead' },
      { access: 'super_admin' },
    ]) {
      const response = await post(teamAction, TEAM, {
        intent: 'add-member',
        name: 'Bad Input',
        email: 'bad@example.test',
        staffTitle: 'designer',
        access: 'agency_member',
        password: 'password-123',
        ...fields,
      })
      expect(response.status).toBe(400)
    }
    expect(await databaseChecksum({ organizationId: agency.id })).toEqual(before)
  })

  test('edit keeps the password unless typed; delete removes; each is audited', async () => {
    const member = await makeUser(agency.id, { role: 'agency_member' })
    const hash = (await userRow(member.id))?.passwordHash
    const edited = await post(teamAction, TEAM, {
      intent: 'edit-member',
      userId: member.id,
      name: 'Renamed Member',
      email: member.email,
      staffTitle: 'marketing_specialist',
      access: 'agency_admin',
      password: '',
    })
    expect(edited.status).toBe(302)
    await expect(edited).toSendToast({ title: 'Team member updated successfully' })
    const after = await userRow(member.id)
    expect(after).toMatchObject({
      firstName: 'Renamed',
      role: 'agency_admin',
      staffTitle: 'marketing_specialist',
    })
    expect(after?.passwordHash).toBe(hash)
    const deleted = await post(teamAction, TEAM, { intent: 'delete-member', userId: member.id })
    await expect(deleted).toSendToast({ title: 'Team member removed' })
    expect(await userRow(member.id)).toBeUndefined()
    expect((await auditsFor(member.id)).map((e) => e.action).sort()).toEqual(
      ['staff.deleted', 'staff.updated', 'user.role_changed'].sort(),
    )
  })

  test("another organization's staff, and a non-staff account, are not found by id", async () => {
    const endUserId = (await makeUser(agency.id, { role: 'end_user' })).id
    const before = await databaseChecksum()
    for (const userId of [otherStaffId, otherTeamAdminId, endUserId]) {
      for (const fields of <Record<string, string>[]>[
        {
          intent: 'edit-member',
          name: 'Taken',
          email: 'taken@example.test',
          staffTitle: 'designer',
          access: 'agency_admin',
        },
        { intent: 'delete-member' },
        { intent: 'change-role', role: 'agency_admin' },
      ]) {
        const response = await post(teamAction, TEAM, { ...fields, userId })
        expect(response.status, `${fields.intent} ${userId}`).toBe(404)
      }
    }
    expect(await databaseChecksum()).toEqual(before)
  })

  test('promote on End Users, then manage and demote on Team Members: each audited', async () => {
    const person = await makeUser(agency.id, {
      role: 'end_user',
      firstName: 'Rita',
      lastName: `Round${uniqueSuffix()}`,
    })
    const looked = await makeUser(agency.id, { role: 'end_user' })
    const promote = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: person.id,
      role: 'team_admin',
    })
    await expect(promote).toSendToast({
      title: 'User role updated to Team Member successfully',
    })
    // Off End Users, onto Team Members, and offered as an assignee.
    const endUsers = await (await get(usersLoader, USERS)).json()
    expect(endUsers.users.map((u: { id: string }) => u.id)).not.toContain(person.id)
    expect(endUsers.teamMembers.map((m: { id: string }) => m.id)).toContain(person.id)
    const team = await (await get(teamLoader, `${TEAM}?q=${person.lastName}`)).json()
    expect(team.members).toEqual([expect.objectContaining({ id: person.id, role: 'team_admin' })])
    const assigned = await post(usersAction, USERS, {
      intent: 'assign-user',
      userId: looked.id,
      assignedToUserId: person.id,
    })
    expect(assigned.status).toBe(302)
    const edited = await post(teamAction, TEAM, {
      intent: 'edit-member',
      userId: person.id,
      name: `Rita ${person.lastName}`,
      email: person.email,
      staffTitle: 'account_manager',
      access: 'team_admin',
    })
    await expect(edited).toSendToast({ title: 'Team member updated successfully' })
    expect((await userRow(person.id))?.staffTitle).toBe('account_manager')
    const demote = await post(teamAction, TEAM, {
      intent: 'change-role',
      userId: person.id,
      role: 'end_user',
    })
    await expect(demote).toSendToast({
      title: 'User role updated to End User successfully',
    })
    expect(await userRow(person.id)).toMatchObject({ role: 'end_user', staffTitle: null })
    expect((await userRow(looked.id))?.assignedToUserId).toBeNull()
    const back = await (await get(usersLoader, USERS)).json()
    expect(back.users.map((u: { id: string }) => u.id)).toContain(person.id)
    expect(back.teamMembers.map((m: { id: string }) => m.id)).not.toContain(person.id)
    expect((await auditsFor(person.id)).map((e) => e.action).sort()).toEqual(
      ['staff.updated', 'user.role_changed', 'user.role_changed'].sort(),
    )
    // Promoted again, a team member is deleted from Team Members.
    await post(usersAction, USERS, { intent: 'change-role', userId: person.id, role: 'team_admin' })
    const deleted = await post(teamAction, TEAM, { intent: 'delete-member', userId: person.id })
    await expect(deleted).toSendToast({ title: 'Team member removed' })
    expect(await userRow(person.id)).toBeUndefined()
  })

  test('the Team Members screen offers no platform role', async () => {
    const person = await makeUser(agency.id, { role: 'team_admin' })
    const before = await databaseChecksum()
    const refused = await post(teamAction, TEAM, {
      intent: 'change-role',
      userId: person.id,
      role: 'super_admin',
    })
    expect(refused.status).toBe(400)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('the admin cannot delete or demote themselves', async () => {
    expect(
      (await post(teamAction, TEAM, { intent: 'delete-member', userId: adminId })).status,
    ).toBe(403)
    expect(
      (
        await post(teamAction, TEAM, {
          intent: 'change-role',
          userId: adminId,
          role: 'agency_member',
        })
      ).status,
    ).toBe(403)
    expect((await userRow(adminId))?.role).toBe('agency_admin')
  })
})

describe('End Users', () => {
  test('lists only this organization end users, without an Agency; export likewise', async () => {
    const own = await makeUser(agency.id, { role: 'end_user', firstName: 'Owen' })
    const data = await (await get(usersLoader, USERS)).json()
    const ids = data.users.map((u: { id: string }) => u.id)
    expect(ids).toContain(own.id)
    expect(ids).not.toContain(otherEndUserId)
    expect(ids).not.toContain(teamAdminId)
    expect(data.scope).toBe('agency')
    const csv = await (await get(exportLoader, `${USERS}/export.csv`)).text()
    expect(csv).toContain(own.email)
    expect(csv).not.toContain('Otto')
  })

  // The status filter, and the export following it (e2e/agency-people.spec.ts filters by team
  // member; the super admin's journey in the browser filters by status on the same screen).
  test('the status filter lists and exports active or inactive users only', async () => {
    const mark = uniqueSuffix()
    const active = await makeUser(agency.id, { role: 'end_user', lastName: `Active${mark}` })
    const inactive = await makeUser(agency.id, {
      role: 'end_user',
      lastName: `Inactive${mark}`,
      status: 'inactive',
    })
    const listed = async (status: string) =>
      (await (await get(usersLoader, `${USERS}?q=${mark}&status=${status}`)).json()).users.map(
        (u: { id: string }) => u.id,
      )
    expect(await listed('inactive')).toEqual([inactive.id])
    expect(await listed('active')).toEqual([active.id])
    expect((await listed('')).sort()).toEqual([active.id, inactive.id].sort())
    const csv = await (
      await get(exportLoader, `${USERS}/export.csv?q=${mark}&status=inactive`)
    ).text()
    expect(csv).toContain('"Name","Email","Status","Team Member","Last Active","Created"')
    expect(csv).toContain(`"${inactive.email}","inactive",""`)
    expect(csv).not.toContain(active.email)
    expect(csv.trim().split('\r\n')).toHaveLength(2)
  })

  test('add with a team member: shows on their My End Users; audited; emailed', async () => {
    const email = `assigned-${uniqueSuffix()}@example.test`
    const added = await post(usersAction, `${USERS}?index`, {
      intent: 'add-user',
      name: 'Asa Signed',
      email,
      active: 'on',
      assignedToUserId: teamAdminId,
    })
    expect(added.status).toBe(302)
    await expect(added).toSendToast({ title: 'User added' })
    const created = await userByEmail(email)
    expect(created).toMatchObject({
      organizationId: agency.id,
      role: 'end_user',
      assignedToUserId: teamAdminId,
    })
    expect((await auditsFor(created?.id ?? '')).map((e) => e.action)).toEqual(['user.created'])
    const mine = await (
      await get(myEndUsersLoader, '/dashboard/team-member/users', teamAdminCookie)
    ).json()
    expect(mine.users.map((u: { id: string }) => u.id)).toContain(created?.id)
    const filtered = await (await get(usersLoader, `${USERS}?assignee=${teamAdminId}`)).json()
    expect(filtered.users.map((u: { id: string }) => u.id)).toEqual([created?.id])
  })

  test('assign and unassign move the user on and off the team member list', async () => {
    const endUser = await makeUser(agency.id, { role: 'end_user' })
    const assigned = await post(usersAction, USERS, {
      intent: 'assign-user',
      userId: endUser.id,
      assignedToUserId: teamAdminId,
    })
    await expect(assigned).toSendToast({ title: 'User assigned to Tess Team' })
    const listed = async () =>
      (
        await (await get(myEndUsersLoader, '/dashboard/team-member/users', teamAdminCookie)).json()
      ).users.map((u: { id: string }) => u.id)
    expect(await listed()).toContain(endUser.id)
    const unassigned = await post(usersAction, USERS, {
      intent: 'assign-user',
      userId: endUser.id,
      assignedToUserId: '',
    })
    await expect(unassigned).toSendToast({ title: 'User unassigned' })
    expect(await listed()).not.toContain(endUser.id)
    expect((await auditsFor(endUser.id)).map((e) => e.action)).toEqual([
      'user.assigned',
      'user.assigned',
    ])
  })

  test('an assignee of another organization, or not a team member, is refused with a field message', async () => {
    const endUser = await makeUser(agency.id, { role: 'end_user' })
    const before = await databaseChecksum()
    for (const assignee of [
      otherTeamAdminId,
      adminId,
      endUser.id,
      '00000000-0000-4000-8000-000000000000',
    ]) {
      for (const fields of <Record<string, string>[]>[
        { intent: 'assign-user', userId: endUser.id },
        {
          intent: 'edit-user',
          userId: endUser.id,
          name: 'Eddy User',
          email: endUser.email,
          active: 'on',
        },
        {
          intent: 'add-user',
          name: 'New User',
          email: `n-${uniqueSuffix()}@example.test`,
          active: 'on',
        },
      ]) {
        const response = await post(usersAction, USERS, { ...fields, assignedToUserId: assignee })
        expect(response.status, `${fields.intent} → ${assignee}`).toBe(400)
        expect((await replyErrors(response)).assignedToUserId).toEqual([
          'Please select a team member of this agency',
        ])
      }
    }
    expect(await databaseChecksum()).toEqual(before)
  })

  test('edit, deactivate, activate, change role and delete: each toasts and is audited', async () => {
    const endUser = await makeUser(agency.id, { role: 'end_user' })
    const steps: [Record<string, string>, string][] = [
      [
        {
          intent: 'edit-user',
          name: 'Eve Edited',
          email: endUser.email,
          active: 'on',
          assignedToUserId: teamAdminId,
        },
        'User updated',
      ],
      [{ intent: 'set-status', status: 'inactive' }, 'User deactivated'],
      [{ intent: 'set-status', status: 'active' }, 'User activated'],
    ]
    for (const [fields, toast] of steps) {
      const response = await post(usersAction, USERS, { ...fields, userId: endUser.id })
      expect(response.status, fields.intent).toBe(302)
      await expect(response).toSendToast({ title: toast })
    }
    expect(await userRow(endUser.id)).toMatchObject({
      firstName: 'Eve',
      status: 'active',
      assignedToUserId: teamAdminId,
    })
    const deleted = await post(usersAction, USERS, { intent: 'delete-user', userId: endUser.id })
    await expect(deleted).toSendToast({ title: 'User removed' })
    expect(await userRow(endUser.id)).toBeUndefined()
    expect((await auditsFor(endUser.id)).map((e) => e.action)).toEqual([
      'user.updated',
      'user.deactivated',
      'user.activated',
      'user.deleted',
    ])
    const promoted = await makeUser(agency.id, { role: 'end_user' })
    const role = await post(usersAction, USERS, {
      intent: 'change-role',
      userId: promoted.id,
      role: 'team_admin',
    })
    expect(role.status).toBe(302)
    expect((await userRow(promoted.id))?.role).toBe('team_admin')
    expect((await auditsFor(promoted.id)).map((e) => e.action)).toEqual(['user.role_changed'])
  })

  test("another organization's end user by id: 404, nothing changes", async () => {
    const before = await databaseChecksum()
    for (const fields of <Record<string, string>[]>[
      { intent: 'edit-user', name: 'Taken', email: 'taken@example.test', active: 'on' },
      { intent: 'assign-user', assignedToUserId: teamAdminId },
      { intent: 'set-status', status: 'inactive' },
      { intent: 'delete-user' },
      { intent: 'change-role', role: 'team_admin' },
    ]) {
      // The organization id in the form is ignored: the agency's own is always used.
      const response = await post(usersAction, USERS, {
        ...fields,
        userId: otherEndUserId,
        organizationId: other.id,
      })
      expect(response.status, fields.intent).toBe(404)
    }
    expect(await databaseChecksum()).toEqual(before)
    expect((await userRow(otherEndUserId))?.status).toBe('active')
  })
})
