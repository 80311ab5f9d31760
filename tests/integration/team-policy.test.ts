// The agency's Team settings (roles-teams-admin.md §2.6) applied to its users' teams (ADR 015):
// each setting is saved through Agency Settings as an agency admin would, then the team page's
// loader and action show its effect. Untouched settings keep the behaviour teams.test.ts pins.
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { setUserPlan } from '#app/models/users.server'
import { action as teamAction, loader as teamLoader } from '#app/routes/dashboard.end-user.team'
import { action as acceptAction } from '#app/routes/invitations.$token'
import { action as settingsAction } from '#app/routes/settings.agency'
import { ONLY_ADMINS_INVITE } from '#app/teams/permissions'
import type { TeamRole } from '#app/validation/teams'
import { getDb, withTenant } from '#drizzle/db.server'
import { emailOutbox, teamInvitations, teamMembers } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

type Org = Awaited<ReturnType<typeof makeOrganization>>
type Actor = { org: Org; host: string; cookie: string; user: Awaited<ReturnType<typeof makeUser>> }

const TEAM_PATH = '/dashboard/end-user/team'
const db = () => getDb()

async function person(org: Org, role: 'end_user' | 'agency_admin' = 'end_user', pro = false) {
  let user = await makeUser(org.id, { email: `tp-${uniqueSuffix()}@example.test`, role })
  if (pro) {
    user = await withTenant(org.id, async (tx) => {
      const updated = await setUserPlan(tx, org.id, user.id, 'free', 'team_pro')
      if (!updated) throw new Error('plan not set')
      return updated
    })
  }
  const host = `${org.slug}.localhost`
  return { org, host, cookie: await sessionCookieFor(org.id, user.id), user } satisfies Actor
}

function post(actor: Actor, path: string, fields: Record<string, string>, run = teamAction) {
  return settle(() =>
    (run as typeof teamAction)({
      request: formRequest(actor.host, path, fields, actor.cookie),
      context: contextFor(actor.host),
      params: {},
    }),
  )
}

/** Saves the agency's Team tab through its settings page, as its admin. */
async function saveTeamSettings(
  org: Org,
  settings: { defaultTeamRole?: TeamRole; autoApprove?: boolean; membersMayInvite?: boolean },
) {
  const admin = await person(org, 'agency_admin')
  const fields: Record<string, string> = {
    intent: 'team',
    defaultTeamRole: settings.defaultTeamRole ?? 'member',
  }
  // A checkbox left out of the form is off.
  if (settings.autoApprove ?? true) fields.autoApprove = 'on'
  if (settings.membersMayInvite ?? true) fields.membersMayInvite = 'on'
  const response = await post(admin, '/settings/agency', fields, settingsAction as never)
  await expect(response).toSendToast('Team settings saved successfully')
}

/** An organization with a Team Pro owner's team holding a manager. */
async function world() {
  const org = await makeOrganization({ name: 'Policy Agency' })
  const owner = await person(org, 'end_user', true)
  const created = await post(owner, TEAM_PATH, { intent: 'create-team', name: 'Policy team' })
  const teamId = new URL(created.headers.get('Location') ?? '', 'http://x').searchParams.get('team')
  if (!teamId) throw new Error('no team')
  const manager = await person(org)
  const add = await post(owner, TEAM_PATH, {
    intent: 'add-member',
    teamId,
    email: manager.user.email,
    role: 'manager',
  })
  // Adding by email invites (issue 39 point 3, ADR 058): the manager joins by accepting.
  await expect(add).toSendToast(`Invitation sent to ${manager.user.email}`)
  await accept(manager, await tokenFor(manager.user.email))
  expect(await roleOf(teamId, manager.user.id)).toBe('manager')
  return { org, owner, manager, teamId }
}

/** The token of the invitation emailed to `email`. */
async function tokenFor(email: string) {
  const mails = asDelivered(
    await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email)),
  )
  const token = /\/invitations\/([a-z2-7]{52})/.exec(mails.at(-1)?.text ?? '')?.[1]
  if (!token) throw new Error(`no invitation email to ${email}`)
  return token
}

/** `actor` accepts the invitation of `token`. */
async function accept(actor: Actor, token: string) {
  const accepted = await settle(() =>
    acceptAction({
      request: formRequest(actor.host, `/invitations/${token}`, { intent: 'accept' }, actor.cookie),
      context: contextFor(actor.host),
      params: { token },
    }),
  )
  expect(accepted.status).toBe(302)
}

/** The role of the pending invitation to `email`: what adding by email gives. */
async function invitedRoleOf(teamId: string, email: string) {
  const [row] = await db()
    .select({ role: teamInvitations.role })
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.teamId, teamId),
        eq(teamInvitations.email, email),
        eq(teamInvitations.status, 'pending'),
      ),
    )
  return row?.role
}

async function roleOf(teamId: string, userId: string) {
  const [row] = await db()
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
  return row?.role
}

async function pageOf(actor: Actor, teamId: string) {
  const response = await settle(() =>
    teamLoader({
      request: requestFor(actor.host, `${TEAM_PATH}?team=${teamId}`, {
        headers: { Cookie: actor.cookie },
      }),
      context: contextFor(actor.host),
      params: {},
    }),
  )
  const data = (await response.json()) as {
    selected: { policy: { membersMayInvite: boolean; autoApprove: boolean; defaultRole: TeamRole } }
  }
  return data.selected.policy
}

describe('default team role', () => {
  test('untouched: a form without a role adds a member, and the dialog preselects member', async () => {
    const w = await world()
    const colleague = await person(w.org)
    await post(w.owner, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: colleague.user.email,
    })
    expect(await invitedRoleOf(w.teamId, colleague.user.email)).toBe('member')
    expect((await pageOf(w.owner, w.teamId)).defaultRole).toBe('member')
  })

  test('set to viewer: the dialog preselects it, a form without a role adds and invites as viewer, a chosen role still wins', async () => {
    const w = await world()
    await saveTeamSettings(w.org, { defaultTeamRole: 'viewer' })
    expect((await pageOf(w.owner, w.teamId)).defaultRole).toBe('viewer')
    expect((await pageOf(w.manager, w.teamId)).defaultRole).toBe('viewer')

    const colleague = await person(w.org)
    await post(w.owner, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: colleague.user.email,
    })
    expect(await invitedRoleOf(w.teamId, colleague.user.email)).toBe('viewer')

    const stranger = `stranger-${uniqueSuffix()}@example.test`
    await post(w.manager, TEAM_PATH, { intent: 'add-member', teamId: w.teamId, email: stranger })
    const [invitation] = await db()
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.teamId, w.teamId), eq(teamInvitations.email, stranger)))
    expect(invitation?.role).toBe('viewer')

    const chosen = await person(w.org)
    await post(w.owner, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: chosen.user.email,
      role: 'manager',
    })
    expect(await invitedRoleOf(w.teamId, chosen.user.email)).toBe('manager')
  })

  test('set to admin: an admin gets it; a manager, who may not grant admin, gets member preselected and applied', async () => {
    const w = await world()
    await saveTeamSettings(w.org, { defaultTeamRole: 'admin' })
    expect((await pageOf(w.owner, w.teamId)).defaultRole).toBe('admin')
    expect((await pageOf(w.manager, w.teamId)).defaultRole).toBe('member')
    const byOwner = await person(w.org)
    await post(w.owner, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: byOwner.user.email,
    })
    expect(await invitedRoleOf(w.teamId, byOwner.user.email)).toBe('admin')
    const byManager = await person(w.org)
    await post(w.manager, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: byManager.user.email,
    })
    expect(await invitedRoleOf(w.teamId, byManager.user.email)).toBe('member')
  })
})

describe('members may invite', () => {
  test('off: a manager can neither add nor invite nor cancel, with the agency rule as the reason; admins still can', async () => {
    const w = await world()
    await saveTeamSettings(w.org, { membersMayInvite: false })
    expect((await pageOf(w.manager, w.teamId)).membersMayInvite).toBe(false)

    const colleague = await person(w.org)
    for (const email of [colleague.user.email, `new-${uniqueSuffix()}@example.test`]) {
      const before = await databaseChecksum()
      const refused = await post(w.manager, TEAM_PATH, {
        intent: 'add-member',
        teamId: w.teamId,
        email,
      })
      expect(refused.status).toBe(403)
      expect(((await refused.json()) as { error: string }).error).toBe(ONLY_ADMINS_INVITE)
      expect(await databaseChecksum()).toEqual(before)
    }

    const invitee = `by-owner-${uniqueSuffix()}@example.test`
    const invited = await post(w.owner, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: invitee,
    })
    await expect(invited).toSendToast(`Invitation sent to ${invitee}`)
    const [invitation] = await db()
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.email, invitee))
    const cancel = await post(w.manager, TEAM_PATH, {
      intent: 'cancel-invitation',
      teamId: w.teamId,
      invitationId: invitation?.id ?? '',
    })
    expect(cancel.status).toBe(403)

    const added = await post(w.owner, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: colleague.user.email,
    })
    await expect(added).toSendToast(`Invitation sent to ${colleague.user.email}`)
  })

  test('turned back on, the manager adds again', async () => {
    const w = await world()
    await saveTeamSettings(w.org, { membersMayInvite: false })
    await saveTeamSettings(w.org, { membersMayInvite: true })
    const colleague = await person(w.org)
    const added = await post(w.manager, TEAM_PATH, {
      intent: 'add-member',
      teamId: w.teamId,
      email: colleague.user.email,
    })
    expect(added.status).toBe(302)
    expect(await invitedRoleOf(w.teamId, colleague.user.email)).toBe('member')
  })

  test("one agency's setting leaves another agency's teams alone", async () => {
    const w = await world()
    const other = await world()
    await saveTeamSettings(w.org, { membersMayInvite: false, autoApprove: false })
    const colleague = await person(other.org)
    const added = await post(other.manager, TEAM_PATH, {
      intent: 'add-member',
      teamId: other.teamId,
      email: colleague.user.email,
    })
    await expect(added).toSendToast(`Invitation sent to ${colleague.user.email}`)
  })
})

describe('auto-approve', () => {
  test('on (untouched) or off, an account of the organization is invited, never added, and joins with the role when it accepts', async () => {
    for (const autoApprove of [true, false]) {
      const w = await world()
      if (!autoApprove)
        await saveTeamSettings(w.org, { autoApprove: false, defaultTeamRole: 'viewer' })
      expect((await pageOf(w.owner, w.teamId)).autoApprove).toBe(autoApprove)
      const colleague = await person(w.org)
      const response = await post(w.manager, TEAM_PATH, {
        intent: 'add-member',
        teamId: w.teamId,
        email: colleague.user.email,
      })
      await expect(response).toSendToast(`Invitation sent to ${colleague.user.email}`)
      expect(await roleOf(w.teamId, colleague.user.id)).toBeUndefined()

      // Someone already a member is still told so, not invited.
      const again = await post(w.owner, TEAM_PATH, {
        intent: 'add-member',
        teamId: w.teamId,
        email: w.manager.user.email,
      })
      expect(again.status).toBe(409)

      await accept(colleague, await tokenFor(colleague.user.email))
      expect(await roleOf(w.teamId, colleague.user.id)).toBe(autoApprove ? 'member' : 'viewer')
    }
  })
})
