// Teams, members, invitations and plans (roles-teams-admin.md §2.9, §2.10, §4, §5, §7-§9),
// through the team page's loader and action and the invitation pages, as a browser calls them:
// who may do what (team roles, other tenants, people outside the team), the plan limits, the
// emailed invitation (stored hashed, 7 days, answered once by the invited address) and upgrades.
import { and, desc, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { hashToken } from '#app/email/link-token.server'
import { setUserPlan, type UserRole } from '#app/models/users.server'
import { saveNotificationPreferences } from '#app/notifications/preferences.server'
import { action as agencyUsersAction } from '#app/routes/dashboard.agency.users._index'
import { action as teamAction, loader as teamLoader } from '#app/routes/dashboard.end-user.team'
import { action as superAdminUsersAction } from '#app/routes/dashboard.super-admin.users._index'
import { action as acceptAction, loader as invitationLoader } from '#app/routes/invitations.$token'
import {
  action as declineAction,
  loader as declinePageLoader,
} from '#app/routes/invitations.$token_.decline'
import { INVITATION_NOT_YOURS } from '#app/teams/invitations.server'
import { PLANS_GRANTED_BY_ADMINS, type PlanId } from '#app/validation/plans'
import type { TeamRole } from '#app/validation/teams'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  auditEvents,
  emailOutbox,
  rateLimits,
  teamInvitations,
  teamMembers,
  teams,
  users,
} from '#drizzle/schema'
import { databaseChecksum, rowsOf } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

type Org = Awaited<ReturnType<typeof makeOrganization>>
type Actor = {
  org: Org
  host: string
  cookie: string
  user: Awaited<ReturnType<typeof makeUser>>
}

const TEAM_PATH = '/dashboard/end-user/team'
const hostOf = (org: Org) => `${org.slug}.localhost`
const db = () => getDb()

async function person(
  org: Org,
  overrides: { plan?: PlanId; email?: string; role?: UserRole; firstName?: string } = {},
): Promise<Actor> {
  let user = await makeUser(org.id, {
    email: overrides.email ?? `p-${uniqueSuffix()}@example.test`,
    role: overrides.role ?? 'end_user',
    firstName: overrides.firstName ?? 'Test',
  })
  if (overrides.plan && overrides.plan !== 'free') {
    const plan = overrides.plan
    user = await withTenant(org.id, async (tx) => {
      const updated = await setUserPlan(tx, org.id, user.id, 'free', plan)
      if (!updated) throw new Error('plan not set')
      return updated
    })
  }
  return { org, host: hostOf(org), cookie: await sessionCookieFor(org.id, user.id), user }
}

/** The team page's action, posted by `actor` (on their host unless another is given). */
function post(actor: Actor, fields: Record<string, string>, host = actor.host) {
  return settle(() =>
    teamAction({
      request: formRequest(host, TEAM_PATH, fields, actor.cookie),
      context: contextFor(host),
      params: {},
    }),
  )
}

type TeamData = {
  view: 'plans' | 'manage'
  plan: PlanId
  teams: { id: string; name: string; myRole: TeamRole }[]
  selected: null | {
    id: string
    name: string
    plan: PlanId
    seats: number
    members: { id: string; userId: string; email: string; role: TeamRole }[]
    invitations: { id: string; email: string; role: TeamRole }[]
  }
}

function loadPage(actor: Actor, search = '') {
  return settle(() =>
    teamLoader({
      request: requestFor(actor.host, `${TEAM_PATH}${search}`, {
        headers: { Cookie: actor.cookie },
      }),
      context: contextFor(actor.host),
      params: {},
    }),
  )
}

async function page(actor: Actor, search = '') {
  const response = await loadPage(actor, search)
  const body = await response.text()
  return { status: response.status, body, data: JSON.parse(body) as TeamData }
}

async function answer(
  actor: Actor | null,
  token: string,
  intent: 'accept' | 'decline',
  host = actor?.host ?? '',
  route: 'accept' | 'decline' = intent,
) {
  const path = route === 'accept' ? `/invitations/${token}` : `/invitations/${token}/decline`
  const run = route === 'accept' ? acceptAction : declineAction
  return settle(() =>
    run({
      request: formRequest(host, path, { intent }, actor?.cookie),
      context: contextFor(host),
      params: { token },
    }),
  )
}

async function invitationPage(host: string, token: string, cookie?: string, decline = false) {
  const run = decline ? declinePageLoader : invitationLoader
  const path = decline ? `/invitations/${token}/decline` : `/invitations/${token}`
  const response = await settle(() =>
    run({
      request: requestFor(host, path, cookie ? { headers: { Cookie: cookie } } : undefined),
      context: contextFor(host),
      params: { token },
    }),
  )
  return response
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error?: string; answerError?: string }
  return body.error ?? body.answerError
}

async function createTeam(owner: Actor, name = `Team ${uniqueSuffix()}`) {
  const response = await post(owner, { intent: 'create-team', name, description: 'Our team' })
  expect(response.status).toBe(302)
  const teamId = new URL(response.headers.get('Location') ?? '', 'http://x').searchParams.get(
    'team',
  )
  if (!teamId) throw new Error('no team id in the redirect')
  return teamId
}

/** A session cookie of a new agency admin of `org` (or of the account `userId`). */
async function agencyCookie(org: Org, userId?: string) {
  return sessionCookieFor(org.id, userId ?? (await makeUser(org.id, { role: 'agency_admin' })).id)
}

/** Change Plan on the agency's End Users screen, posted with an agency account's cookie. */
function grantPlan(org: Org, cookie: string, userId: string, plan: PlanId) {
  return settle(() =>
    agencyUsersAction({
      request: formRequest(
        hostOf(org),
        '/dashboard/agency/users',
        { intent: 'set-plan', userId, plan },
        cookie,
      ),
      context: contextFor(hostOf(org)),
      params: {},
    }),
  )
}

/** Re-invitations wait out a cooldown (send-limits.test.ts): as if it had passed. */
async function cooldownPasses() {
  await db()
    .update(rateLimits)
    .set({ resetAt: new Date(Date.now() - 1000) })
    .where(sql`${rateLimits.key} like 'invitationResend:%'`)
}

async function addMember(by: Actor, teamId: string, email: string, role: TeamRole = 'member') {
  return post(by, { intent: 'add-member', teamId, email, role })
}

async function memberRow(teamId: string, userId: string) {
  const [row] = await db()
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
  return row
}

async function membersOf(teamId: string) {
  return db().select().from(teamMembers).where(eq(teamMembers.teamId, teamId))
}

async function invitationsOf(teamId: string) {
  return db()
    .select()
    .from(teamInvitations)
    .where(eq(teamInvitations.teamId, teamId))
    .orderBy(desc(teamInvitations.createdAt))
}

/** The token of the newest invitation email sent to `email` by the organization. */
async function emailedToken(org: Org, email: string) {
  const [mail] = asDelivered(
    await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, org.id), eq(emailOutbox.toAddress, email)))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1),
  )
  const token = /\/invitations\/([a-z2-7]{52})/.exec(mail?.text ?? '')?.[1]
  if (!token) throw new Error(`no invitation email to ${email}`)
  return { token, mail }
}

/** Invites `email` (no account of the org) and returns the emailed token. */
async function invite(by: Actor, teamId: string, email: string, role: TeamRole = 'member') {
  const response = await addMember(by, teamId, email, role)
  expect(response.status).toBe(302)
  await expect(response).toSendToast(`Invitation sent to ${email}`)
  return (await emailedToken(by.org, email)).token
}

/** Runs a request that must be refused: its status, no 5xx, and not one row written anywhere. */
async function refused(run: () => Promise<Response>) {
  const before = await databaseChecksum()
  const response = await run()
  expect(response.status).toBeLessThan(500)
  expect(await databaseChecksum()).toEqual(before)
  return response
}

async function expectRefusal(
  run: () => Promise<Response>,
  status: number,
  message?: string | RegExp,
) {
  const response = await refused(run)
  expect(response.status).toBe(status)
  if (message !== undefined) {
    const error = await errorOf(response)
    if (typeof message === 'string') expect(error).toBe(message)
    else expect(error).toMatch(message)
  }
  return response
}

/**
 * Acme with a Team Pro owner's team: owner (admin), a second admin, a manager, a member and a
 * viewer; an outsider of Acme in no team; a pending invitation; Globex with a team of its own.
 */
/**
 * `actor` joins the team the only way there is (issue 39 point 3, ADR 058): `by` adds their
 * email, which invites them, and they accept the emailed link.
 */
async function join(by: Actor, teamId: string, actor: Actor, role: TeamRole = 'member') {
  const invited = await addMember(by, teamId, actor.user.email, role)
  expect(invited.status).toBe(302)
  await expect(invited).toSendToast(`Invitation sent to ${actor.user.email}`)
  const { token } = await emailedToken(by.org, actor.user.email)
  const accepted = await answer(actor, token, 'accept')
  expect(accepted.status).toBe(302)
  return accepted
}

async function world() {
  const acme = await makeOrganization({ name: 'Acme Teams' })
  const globex = await makeOrganization({ name: 'Globex Teams' })
  const owner = await person(acme, { plan: 'team_pro', firstName: 'Olive' })
  const teamId = await createTeam(owner, 'Sales')
  const people = {} as Record<'admin' | 'manager' | 'member' | 'viewer', Actor>
  for (const role of ['admin', 'manager', 'member', 'viewer'] as const) {
    people[role] = await person(acme)
    await join(owner, teamId, people[role], role)
  }
  const outsider = await person(acme, { plan: 'team_pro' })
  const invitee = `invitee-${uniqueSuffix()}@example.test`
  const token = await invite(owner, teamId, invitee)
  const [invitation] = await invitationsOf(teamId)
  if (!invitation) throw new Error('no invitation')
  const foreign = await person(globex, { plan: 'team_pro' })
  const foreignTeamId = await createTeam(foreign, 'Globex Secret Team')
  const rowOf = async (actor: Actor) => {
    const row = await memberRow(teamId, actor.user.id)
    if (!row) throw new Error('not a member')
    return row.id
  }
  return {
    acme,
    globex,
    owner,
    ...people,
    outsider,
    foreign,
    teamId,
    foreignTeamId,
    invitee,
    token,
    invitationId: invitation.id,
    rowOf,
  }
}

type World = Awaited<ReturnType<typeof world>>

/** One form per team operation, naming the world's team, member and invitation. */
async function operations(w: World) {
  const memberRowId = await w.rowOf(w.member)
  return {
    'update-team': { intent: 'update-team', teamId: w.teamId, name: 'Hijacked', description: '' },
    'delete-team': { intent: 'delete-team', teamId: w.teamId },
    'add-member': {
      intent: 'add-member',
      teamId: w.teamId,
      email: `new-${uniqueSuffix()}@example.test`,
      role: 'member',
    },
    'change-role': {
      intent: 'change-role',
      teamId: w.teamId,
      memberId: memberRowId,
      role: 'viewer',
    },
    'remove-member': { intent: 'remove-member', teamId: w.teamId, memberId: memberRowId },
    'cancel-invitation': {
      intent: 'cancel-invitation',
      teamId: w.teamId,
      invitationId: w.invitationId,
    },
  } satisfies Record<string, Record<string, string>>
}

describe('refusals: other tenants and people without the team role write nothing', () => {
  test('a user of another organization, on their own host, finds none of our teams, members or invitations', async () => {
    const w = await world()
    for (const fields of Object.values(await operations(w))) {
      await expectRefusal(() => post(w.foreign, fields), 404, 'Team not found')
    }
    // Our invitation's token on their host is no invitation at all, shown or answered.
    for (const intent of ['accept', 'decline'] as const) {
      await expectRefusal(
        () => answer(w.foreign, w.token, intent),
        404,
        'This invitation is no longer valid',
      )
    }
    const shown = await refused(() => invitationPage(w.foreign.host, w.token, w.foreign.cookie))
    expect(shown.status).toBe(404)
    expect(await shown.text()).not.toContain('Sales')
    // The file's first test: it pays for loading the routes and a world of four accepted invitations.
  }, 90_000)

  test('a user of another organization, with their cookie on our host, is sent to sign in', async () => {
    const w = await world()
    const forms = {
      ...(await operations(w)),
      'create-team': { intent: 'create-team', name: 'Intruders', description: '' },
      upgrade: { intent: 'upgrade', plan: 'team_pro' },
    }
    for (const fields of Object.values(forms)) {
      const response = await refused(() => post(w.foreign, fields, w.owner.host))
      expect(response).toHaveRedirect(/^\/auth\/login\?/)
    }
    for (const intent of ['accept', 'decline'] as const) {
      const response = await refused(() => answer(w.foreign, w.token, intent, w.owner.host))
      expect(response).toHaveRedirect(/^\/auth\/login\?/)
    }
    const loaded = await settle(() =>
      teamLoader({
        request: requestFor(w.owner.host, `${TEAM_PATH}?team=${w.teamId}`, {
          headers: { Cookie: w.foreign.cookie },
        }),
        context: contextFor(w.owner.host),
        params: {},
      }),
    )
    expect(loaded.status).toBe(302)
  })

  test('our own organization: someone outside the team gets 404 for every operation', async () => {
    const w = await world()
    for (const fields of Object.values(await operations(w))) {
      await expectRefusal(() => post(w.outsider, fields), 404, 'Team not found')
    }
  })

  test('members and viewers may not invite, change roles, remove, cancel, edit or delete: 403', async () => {
    const w = await world()
    const forms = await operations(w)
    const expected = {
      'update-team': 'Only team admins can change or delete the team',
      'delete-team': 'Only team admins can change or delete the team',
      'add-member': 'Only team admins and managers can add or invite members',
      'change-role': 'Only team admins can change roles or remove members',
      'remove-member': 'Only team admins can change roles or remove members',
      'cancel-invitation': 'Only team admins and managers can add or invite members',
    }
    for (const actor of [w.member, w.viewer]) {
      for (const [intent, fields] of Object.entries(forms)) {
        // The member's own row stays a target only for the viewer; for the member it is their own.
        const target =
          actor === w.member && 'memberId' in fields
            ? { ...fields, memberId: await w.rowOf(w.viewer) }
            : fields
        await expectRefusal(
          () => post(actor, target),
          403,
          expected[intent as keyof typeof expected],
        )
      }
    }
  })

  test('a manager may not change roles, remove, make someone an admin, or edit the team: 403', async () => {
    const w = await world()
    const forms = await operations(w)
    const managerRefusals = [
      [forms['change-role'], 'Only team admins can change roles or remove members'],
      [forms['remove-member'], 'Only team admins can change roles or remove members'],
      [forms['update-team'], 'Only team admins can change or delete the team'],
      [forms['delete-team'], 'Only team admins can change or delete the team'],
      [{ ...forms['add-member'], role: 'admin' }, 'Only team admins can make someone an admin'],
      [
        { ...forms['add-member'], email: w.outsider.user.email, role: 'admin' },
        'Only team admins can make someone an admin',
      ],
    ] as const
    for (const [fields, message] of managerRefusals) {
      await expectRefusal(() => post(w.manager, fields), 403, message)
    }
  })

  test('ids that are not ids, or name another team, change nothing', async () => {
    const w = await world()
    const foreignMembers = await membersOf(w.foreignTeamId)
    const cases: [Record<string, string>, number][] = [
      [{ intent: 'delete-team', teamId: 'not-a-uuid' }, 404],
      [{ intent: 'remove-member', teamId: w.teamId, memberId: 'nope' }, 404],
      [{ intent: 'cancel-invitation', teamId: w.teamId, invitationId: "'; drop table teams" }, 404],
      // Our team, another team's member row: not a member of this team.
      [{ intent: 'remove-member', teamId: w.teamId, memberId: foreignMembers[0]?.id ?? '' }, 404],
      [{ intent: 'remove-member', memberId: await w.rowOf(w.viewer) }, 400],
      [{ intent: 'nonsense', teamId: w.teamId }, 400],
    ]
    for (const [fields, status] of cases) await expectRefusal(() => post(w.owner, fields), status)
    const missing = await expectRefusal(
      () => post(w.owner, { intent: 'delete-team', teamId: '' }),
      400,
    )
    expect(await errorOf(missing)).toBe('Team ID is required')
  })

  test('roles outside the end-user area get 403 from the team page', async () => {
    const w = await world()
    const agency = await person(w.acme, { role: 'agency_admin' })
    expect((await refused(() => loadPage(agency))).status).toBe(403)
    await expectRefusal(
      () => post(agency, { intent: 'create-team', name: 'Agency team', description: '' }),
      403,
    )
  })
})

describe('team roles', () => {
  test('an admin changes roles and removes members', async () => {
    const w = await world()
    const changed = await post(w.admin, {
      intent: 'change-role',
      teamId: w.teamId,
      memberId: await w.rowOf(w.member),
      role: 'manager',
    })
    expect(changed).toHaveRedirect(`${TEAM_PATH}?team=${w.teamId}`)
    await expect(changed).toSendToast('Member role updated')
    expect((await memberRow(w.teamId, w.member.user.id))?.role).toBe('manager')

    // The current role is refused (the select disables it).
    await expectRefusal(
      async () =>
        post(w.admin, {
          intent: 'change-role',
          teamId: w.teamId,
          memberId: await w.rowOf(w.member),
          role: 'manager',
        }),
      400,
    )

    const removed = await post(w.owner, {
      intent: 'remove-member',
      teamId: w.teamId,
      memberId: await w.rowOf(w.viewer),
    })
    expect(removed.status).toBe(302)
    await expect(removed).toSendToast('Member removed from team')
    expect(await memberRow(w.teamId, w.viewer.user.id)).toBeUndefined()

    const audits = await db()
      .select({ action: auditEvents.action, metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, w.teamId))
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(['team.member_role_changed', 'team.member_removed']),
    )
    expect(audits.find((a) => a.action === 'team.member_role_changed')?.metadata).toMatchObject({
      userId: w.member.user.id,
      from: 'member',
      to: 'manager',
    })
  })

  test('an admin may not set the role a member already has', async () => {
    const w = await world()
    await expectRefusal(
      async () =>
        post(w.owner, {
          intent: 'change-role',
          teamId: w.teamId,
          memberId: await w.rowOf(w.member),
          role: 'member',
        }),
      400,
    )
  })

  test('admins and managers add accounts and invite addresses', async () => {
    const w = await world()
    const colleague = await person(w.acme)
    await join(w.manager, w.teamId, colleague, 'viewer')
    expect((await memberRow(w.teamId, colleague.user.id))?.role).toBe('viewer')

    const email = `by-manager-${uniqueSuffix()}@example.test`
    await invite(w.manager, w.teamId, email, 'manager')
    const [invitation] = await invitationsOf(w.teamId)
    expect(invitation).toMatchObject({
      email,
      role: 'manager',
      status: 'pending',
      invitedByUserId: w.manager.user.id,
    })

    // The manager may cancel it; the admin cancels the world's own invitation.
    const cancelled = await post(w.manager, {
      intent: 'cancel-invitation',
      teamId: w.teamId,
      invitationId: invitation?.id ?? '',
    })
    expect(cancelled.status).toBe(302)
    await expect(cancelled).toSendToast('Invitation cancelled')
    const byAdmin = await post(w.admin, {
      intent: 'cancel-invitation',
      teamId: w.teamId,
      invitationId: w.invitationId,
    })
    expect(byAdmin.status).toBe(302)
    // Cancelling deletes the invitation, and its link stops working (the world's accepted ones stay).
    expect((await invitationsOf(w.teamId)).filter((i) => i.status === 'pending')).toEqual([])
    expect((await invitationPage(w.owner.host, w.token)).status).toBe(404)
    // An already-cancelled one is not found.
    await expectRefusal(
      () =>
        post(w.admin, {
          intent: 'cancel-invitation',
          teamId: w.teamId,
          invitationId: w.invitationId,
        }),
      404,
      'Invitation not found',
    )

    // Adding someone twice is refused.
    await expectRefusal(
      () => addMember(w.owner, w.teamId, colleague.user.email),
      409,
      `${colleague.user.email} is already a member of this team`,
    )
  })

  test('an admin may add someone as admin', async () => {
    const w = await world()
    const colleague = await person(w.acme)
    await join(w.admin, w.teamId, colleague, 'admin')
    expect((await memberRow(w.teamId, colleague.user.id))?.role).toBe('admin')
  })

  test('nobody acts on their own row', async () => {
    const w = await world()
    for (const actor of [w.owner, w.admin]) {
      const own = await w.rowOf(actor)
      await expectRefusal(
        () =>
          post(actor, { intent: 'change-role', teamId: w.teamId, memberId: own, role: 'viewer' }),
        403,
        'You cannot change your own membership',
      )
      await expectRefusal(
        () => post(actor, { intent: 'remove-member', teamId: w.teamId, memberId: own }),
        403,
        'You cannot change your own membership',
      )
    }
  })

  test('the owner cannot be removed or demoted; a team never loses its last admin', async () => {
    const w = await world()
    await expectRefusal(
      async () =>
        post(w.admin, {
          intent: 'remove-member',
          teamId: w.teamId,
          memberId: await w.rowOf(w.owner),
        }),
      409,
      "The team's owner cannot be removed",
    )
    await expectRefusal(
      async () =>
        post(w.admin, {
          intent: 'change-role',
          teamId: w.teamId,
          memberId: await w.rowOf(w.owner),
          role: 'viewer',
        }),
      409,
      "The team's owner stays an admin",
    )
    // Another admin may be demoted while one remains...
    const demoted = await post(w.owner, {
      intent: 'change-role',
      teamId: w.teamId,
      memberId: await w.rowOf(w.admin),
      role: 'member',
    })
    expect(demoted.status).toBe(302)
    // ...and the one left, the only admin, cannot demote or remove themselves.
    const own = await w.rowOf(w.owner)
    await expectRefusal(
      () =>
        post(w.owner, { intent: 'change-role', teamId: w.teamId, memberId: own, role: 'member' }),
      403,
    )
    await expectRefusal(
      () => post(w.owner, { intent: 'remove-member', teamId: w.teamId, memberId: own }),
      403,
    )
    const admins = (await membersOf(w.teamId)).filter((m) => m.role === 'admin')
    expect(admins.map((m) => m.userId)).toEqual([w.owner.user.id])
  })

  test('an admin renames and deletes the team', async () => {
    const w = await world()
    const renamed = await post(w.admin, {
      intent: 'update-team',
      teamId: w.teamId,
      name: 'Sales EMEA',
      description: 'Europe',
    })
    expect(renamed.status).toBe(302)
    await expect(renamed).toSendToast('Team updated successfully')
    const [team] = await db().select().from(teams).where(eq(teams.id, w.teamId))
    expect(team).toMatchObject({ name: 'Sales EMEA', description: 'Europe' })

    await expectRefusal(
      () => post(w.admin, { intent: 'update-team', teamId: w.teamId, name: 'x', description: '' }),
      400,
      'Team name must be at least 2 characters',
    )

    const deleted = await post(w.owner, { intent: 'delete-team', teamId: w.teamId })
    expect(deleted).toHaveRedirect(TEAM_PATH)
    await expect(deleted).toSendToast('Team deleted successfully')
    expect(await db().select().from(teams).where(eq(teams.id, w.teamId))).toEqual([])
    expect(await membersOf(w.teamId)).toEqual([])
    expect(await invitationsOf(w.teamId)).toEqual([])
  })
})

describe('adding by email', () => {
  test('an account here, one that cannot join teams, one of another agency and an unknown address get the same answer and effects: an invitation', async () => {
    const w = await world()
    const colleague = await person(w.acme, { email: `mixed-${uniqueSuffix()}@example.test` })
    const staff = await person(w.acme, { role: 'agency_admin' })
    const addresses = {
      colleague: colleague.user.email,
      staff: staff.user.email,
      foreign: w.foreign.user.email,
      unknown: `nobody-${uniqueSuffix()}@example.test`,
    }
    const membersBefore = await membersOf(w.teamId)
    /** What the inviter and the address see, with the address and the token made alike. */
    const seen = {} as Record<string, unknown>
    for (const [who, email] of Object.entries(addresses)) {
      // Typed in another case and with spaces: the same address.
      const response = await addMember(w.owner, w.teamId, `  ${email.toUpperCase()} `, 'manager')
      await expect(response).toSendToast(`Invitation sent to ${email}`)
      const { token, mail } = await emailedToken(w.acme, email)
      const [invitation] = (await invitationsOf(w.teamId)).filter((i) => i.email === email)
      const audits = await db()
        .select({ action: auditEvents.action, metadata: auditEvents.metadata })
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.entityId, w.teamId),
            sql`${auditEvents.metadata}->>'invitationId' = ${invitation?.id ?? ''}`,
          ),
        )
      const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))
      const alike = (text: string | null | undefined) =>
        (text ?? '').replaceAll(email, '{email}').replaceAll(token, '{token}')
      seen[who] = {
        status: response.status,
        location: response.headers.get('Location'),
        invitation: { role: invitation?.role, status: invitation?.status },
        invitedBy: invitation?.invitedByUserId,
        audits: audits.map((a) => ({
          action: a.action,
          metadata: { ...(a.metadata as object), invitationId: '{id}' },
        })),
        mails: mails.map((m) => ({ subject: m.subject, text: alike(m.text), html: alike(m.html) })),
        delivered: alike(mail?.text),
      }
    }
    const [first, ...rest] = Object.values(seen)
    expect(first).toMatchObject({
      status: 302,
      invitation: { role: 'manager', status: 'pending' },
      invitedBy: w.owner.user.id,
      audits: [{ action: 'team.invitation_created' }],
    })
    for (const other of rest) expect(other).toEqual(first)
    // Nobody became a member, nobody was told they were added.
    expect(await membersOf(w.teamId)).toEqual(membersBefore)
    const added = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, w.teamId), eq(auditEvents.action, 'team.member_added')))
    expect(added).toEqual([])

    // The colleague joins by accepting, with the invited role.
    const { token } = await emailedToken(w.acme, colleague.user.email)
    expect(await answer(colleague, token, 'accept')).toHaveRedirect(new RegExp(`team=${w.teamId}`))
    expect((await memberRow(w.teamId, colleague.user.id))?.role).toBe('manager')
  })

  test('an unknown address gets an invitation: emailed link, token stored only as its SHA-256', async () => {
    const w = await world()
    const email = `stranger-${uniqueSuffix()}@example.test`
    const before = Date.now()
    const response = await addMember(w.owner, w.teamId, email, 'viewer')
    expect(response.status).toBe(302)
    await expect(response).toSendToast(`Invitation sent to ${email}`)
    const { token, mail } = await emailedToken(w.acme, email)
    expect(mail?.subject).toContain('Sales')
    expect(mail?.text).toContain(`/invitations/${token}/decline`)
    const [invitation] = (await invitationsOf(w.teamId)).filter((i) => i.email === email)
    expect(invitation).toMatchObject({ role: 'viewer', status: 'pending' })
    expect(invitation?.tokenHash).toBe(hashToken(token))
    expect(invitation?.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    // Valid 7 days.
    const ttl = (invitation?.expiresAt.getTime() ?? 0) - before
    expect(ttl).toBeGreaterThan(7 * 24 * 3600_000 - 60_000)
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600_000 + 60_000)

    // The raw token is in no table, the outbox that carries the email included (ADR 028).
    const tables = rowsOf<{ table_name: string }>(
      await db().execute(sql`
        select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`),
    )
    for (const { table_name: table } of tables) {
      const [row] = rowsOf<{ n: number | string }>(
        await db().execute(
          sql`select count(*) as n from ${sql.identifier(table)} t where t::text like ${`%${token}%`}`,
        ),
      )
      expect(Number(row?.n), table).toBe(0)
    }
  })

  test('an account of another organization with the same email is not added: it is invited', async () => {
    const w = await world()
    const email = w.foreign.user.email
    const response = await addMember(w.owner, w.teamId, email)
    expect(response.status).toBe(302)
    await expect(response).toSendToast(`Invitation sent to ${email}`)
    expect(await memberRow(w.teamId, w.foreign.user.id)).toBeUndefined()
    expect((await invitationsOf(w.teamId)).map((i) => i.email)).toContain(email)
    // And that account cannot answer it from its own host.
    const { token } = await emailedToken(w.acme, email)
    await expectRefusal(() => answer(w.foreign, token, 'accept'), 404)
  })

  test('inviting the same address again replaces the pending invitation', async () => {
    const w = await world()
    const email = `twice-${uniqueSuffix()}@example.test`
    const first = await invite(w.owner, w.teamId, email, 'member')
    await cooldownPasses()
    const second = await invite(w.admin, w.teamId, email, 'manager')
    expect(second).not.toBe(first)
    const pending = (await invitationsOf(w.teamId)).filter((i) => i.email === email)
    expect(pending).toHaveLength(1)
    expect(pending[0]).toMatchObject({
      role: 'manager',
      status: 'pending',
      tokenHash: hashToken(second),
    })
    // The first link no longer works.
    expect((await invitationPage(w.owner.host, first)).status).toBe(404)
    expect((await invitationPage(w.owner.host, second)).status).toBe(200)
  })

  test('an account that cannot join teams is invited like anyone, and refused only when it answers', async () => {
    const w = await world()
    const agency = await person(w.acme, { role: 'agency_admin' })
    const invited = await addMember(w.owner, w.teamId, agency.user.email)
    await expect(invited).toSendToast(`Invitation sent to ${agency.user.email}`)
    const { token } = await emailedToken(w.acme, agency.user.email)
    await expectRefusal(
      () => answer(agency, token, 'accept'),
      403,
      'This account cannot join teams',
    )
    expect(await memberRow(w.teamId, agency.user.id)).toBeUndefined()
  })

  test('invalid addresses and roles are refused with the spec messages', async () => {
    const w = await world()
    const bad = await expectRefusal(
      () =>
        post(w.owner, { intent: 'add-member', teamId: w.teamId, email: 'nope', role: 'member' }),
      400,
    )
    expect(await errorOf(bad)).toBe('Please enter a valid email address')
    const role = await expectRefusal(
      () =>
        post(w.owner, {
          intent: 'add-member',
          teamId: w.teamId,
          email: 'ok@example.test',
          role: 'owner',
        }),
      400,
    )
    expect(await errorOf(role)).toBe('Please select a role')
  })
})

describe('team updates email (Team Updates notification, §2.6)', () => {
  /** The team-update emails (not invitations) the organization queued for `email`. */
  async function teamUpdates(org: Org, email: string) {
    const mails = await db()
      .select({ subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, org.id), eq(emailOutbox.toAddress, email)))
      .orderBy(emailOutbox.createdAt)
    return mails.filter((m) => !m.text.includes('/invitations/'))
  }

  async function choose(
    actor: Actor,
    preferences: { notifications: boolean; teamUpdates: boolean },
  ) {
    await withTenant(actor.org.id, (tx) =>
      saveNotificationPreferences(tx, actor.org.id, actor.user.id, preferences),
    )
  }

  test('a changed role queues an email, with the team link (joining was their own answer)', async () => {
    const w = await world()
    const colleague = await person(w.acme)
    await join(w.owner, w.teamId, colleague, 'viewer')
    const changed = await post(w.owner, {
      intent: 'change-role',
      teamId: w.teamId,
      memberId: await w.rowOf(colleague),
      role: 'manager',
    })
    expect(changed.status).toBe(302)
    const mails = await teamUpdates(w.acme, colleague.user.email)
    expect(mails.map((m) => m.subject)).toEqual(['Your role in Sales is now manager'])
    expect(mails[0]?.text).toContain('changed your role in the team “Sales” from viewer to manager')
    expect(mails[0]?.text).toContain(`/dashboard/end-user/team?team=${w.teamId}`)
    expect(mails[0]?.text).toContain('/email/unsubscribe?token=')
  })

  test('Team Updates off, or every notification off, sends none; the change still happens', async () => {
    const w = await world()
    const quiet = await person(w.acme)
    await choose(quiet, { notifications: true, teamUpdates: false })
    await join(w.owner, w.teamId, quiet, 'viewer')
    const muted = await person(w.acme)
    await choose(muted, { notifications: false, teamUpdates: true })
    await join(w.owner, w.teamId, muted, 'viewer')
    for (const who of [quiet, muted]) {
      const changed = await post(w.owner, {
        intent: 'change-role',
        teamId: w.teamId,
        memberId: await w.rowOf(who),
        role: 'member',
      })
      expect(changed.status).toBe(302)
      expect((await memberRow(w.teamId, who.user.id))?.role).toBe('member')
      expect(await teamUpdates(w.acme, who.user.email)).toEqual([])
    }
    // Turned back on, the next change is emailed.
    await choose(quiet, { notifications: true, teamUpdates: true })
    await post(w.owner, {
      intent: 'change-role',
      teamId: w.teamId,
      memberId: await w.rowOf(quiet),
      role: 'viewer',
    })
    expect((await teamUpdates(w.acme, quiet.user.email)).map((m) => m.subject)).toEqual([
      'Your role in Sales is now viewer',
    ])
  })

  test('a refused change queues no email', async () => {
    const w = await world()
    await expectRefusal(
      async () =>
        post(w.manager, {
          intent: 'change-role',
          teamId: w.teamId,
          memberId: await w.rowOf(w.member),
          role: 'viewer',
        }),
      403,
    )
    expect(await teamUpdates(w.acme, w.member.user.email)).toEqual([])
  })
})

describe('plan limits', () => {
  const BASIC_FULL =
    'This team has reached its limit: the Team Basic plan allows up to 3 members, pending invitations included. Upgrade to Team Pro for up to 10.'

  async function basicTeam() {
    const org = await makeOrganization()
    const owner = await person(org, { plan: 'team_basic' })
    const teamId = await createTeam(owner)
    return { org, owner, teamId }
  }

  test('a free user cannot create a team', async () => {
    const org = await makeOrganization()
    const free = await person(org)
    await expectRefusal(
      () => post(free, { intent: 'create-team', name: 'Dreamers', description: '' }),
      403,
      'Upgrade to a team plan to create a team',
    )
  })

  test('Team Basic: the owner and two more fit, members and invitations alike; the fourth is refused', async () => {
    const { org, owner, teamId } = await basicTeam()
    const colleague = await person(org)
    await join(owner, teamId, colleague)
    await invite(owner, teamId, `third-${uniqueSuffix()}@example.test`)
    const fourth = await person(org)
    await expectRefusal(() => addMember(owner, teamId, fourth.user.email), 409, BASIC_FULL)
    await expectRefusal(
      () => addMember(owner, teamId, `fourth-${uniqueSuffix()}@example.test`),
      409,
      BASIC_FULL,
    )
    expect(await memberRow(teamId, fourth.user.id)).toBeUndefined()
    // Someone already in the full team is told so, not that the team is full.
    await expectRefusal(
      () => addMember(owner, teamId, colleague.user.email),
      409,
      `${colleague.user.email} is already a member of this team`,
    )
    const { data } = await page(owner, `?team=${teamId}`)
    expect(data.selected?.seats).toBe(3)
  })

  test('Team Basic filled with pending invitations: a direct add is refused; re-inviting one is not', async () => {
    const { org, owner, teamId } = await basicTeam()
    const first = `a-${uniqueSuffix()}@example.test`
    await invite(owner, teamId, first)
    await invite(owner, teamId, `b-${uniqueSuffix()}@example.test`)
    const colleague = await person(org)
    await expectRefusal(() => addMember(owner, teamId, colleague.user.email), 409, BASIC_FULL)
    // Sending an invitation again takes no new place.
    await cooldownPasses()
    await invite(owner, teamId, first)
    expect(await invitationsOf(teamId)).toHaveLength(2)
  })

  test('an invited address that signs up and accepts takes the one place its invitation held', async () => {
    const { org, owner, teamId } = await basicTeam()
    const email = `signed-up-${uniqueSuffix()}@example.test`
    const token = await invite(owner, teamId, email)
    // The invitee signs up before answering, then accepts.
    const invitee = await person(org, { email })
    expect((await answer(invitee, token, 'accept')).status).toBe(302)
    expect(await memberRow(teamId, invitee.user.id)).toBeDefined()
    const { data } = await page(owner, `?team=${teamId}`)
    expect(data.selected?.seats).toBe(2)
    // So the third place is still free.
    const third = await person(org)
    await join(owner, teamId, third)
  })

  test('concurrent adds and accepts cannot overfill the team (the team is locked)', async () => {
    const { org, owner, teamId } = await basicTeam()
    const email = `first-${uniqueSuffix()}@example.test`
    const token = await invite(owner, teamId, email)
    const invitee = await person(org, { email })
    const [a, b, c] = [await person(org), await person(org), await person(org)]
    // Owner + the invitation hold 2 places: the accept and one of the adds (an invitation, ADR
    // 058) fit, not two adds.
    const [accepted, ...added] = await Promise.all([
      answer(invitee, token, 'accept'),
      addMember(owner, teamId, a.user.email),
      addMember(owner, teamId, b.user.email),
      addMember(owner, teamId, c.user.email),
    ])
    expect(accepted?.status).toBe(302)
    expect(added.map((r) => r.status).sort()).toEqual([302, 409, 409])
    expect(await membersOf(teamId)).toHaveLength(2)
    expect((await invitationsOf(teamId)).filter((i) => i.status === 'pending')).toHaveLength(1)
  })

  test('an expired invitation holds no place', async () => {
    const { org, owner, teamId } = await basicTeam()
    await invite(owner, teamId, `a-${uniqueSuffix()}@example.test`)
    await invite(owner, teamId, `b-${uniqueSuffix()}@example.test`)
    await db()
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamInvitations.teamId, teamId))
    const colleague = await person(org)
    expect((await addMember(owner, teamId, colleague.user.email)).status).toBe(302)
  })

  test('accepting recounts: a team that became full meanwhile refuses, and the invitation stays pending', async () => {
    const { org, owner, teamId } = await basicTeam()
    const email = `late-${uniqueSuffix()}@example.test`
    const token = await invite(owner, teamId, email)
    await invite(owner, teamId, `other-${uniqueSuffix()}@example.test`)
    // The team fills up by other means (a member row written directly).
    const extra = await person(org)
    await withTenant(org.id, (tx) =>
      tx
        .insert(teamMembers)
        .values({ organizationId: org.id, teamId, userId: extra.user.id, role: 'member' }),
    )
    const invitee = await person(org, { email })
    await expectRefusal(() => answer(invitee, token, 'accept'), 409, BASIC_FULL)
    const [invitation] = (await invitationsOf(teamId)).filter((i) => i.email === email)
    expect(invitation?.status).toBe('pending')
    expect(await memberRow(teamId, invitee.user.id)).toBeUndefined()
  })

  test('accepting into a team at its limit counting that invitation succeeds', async () => {
    const { org, owner, teamId } = await basicTeam()
    const email = `fits-${uniqueSuffix()}@example.test`
    const token = await invite(owner, teamId, email, 'viewer')
    await invite(owner, teamId, `other-${uniqueSuffix()}@example.test`)
    const invitee = await person(org, { email })
    const response = await answer(invitee, token, 'accept')
    expect(response.status).toBe(302)
    expect((await memberRow(teamId, invitee.user.id))?.role).toBe('viewer')
  })

  test('after an admin grants Team Pro the team takes more', async () => {
    const { org, owner, teamId } = await basicTeam()
    for (const letter of ['a', 'b'])
      await invite(owner, teamId, `${letter}-${uniqueSuffix()}@x.test`)
    const colleague = await person(org)
    await expectRefusal(() => addMember(owner, teamId, colleague.user.email), 409)
    const cookie = await agencyCookie(org)
    expect((await grantPlan(org, cookie, owner.user.id, 'team_pro')).status).toBe(302)
    // A new session reads the new plan; the team's plan is its creator's.
    expect((await addMember(owner, teamId, colleague.user.email)).status).toBe(302)
    const { data } = await page(owner, `?team=${teamId}`)
    expect(data.selected).toMatchObject({ plan: 'team_pro', seats: 4 })
  })
})

describe('answering an invitation', () => {
  test('the page shows the invitation and writes nothing; accepting adds the member with the invited role', async () => {
    const w = await world()
    const email = `joiner-${uniqueSuffix()}@example.test`
    const token = await invite(w.owner, w.teamId, email, 'manager')
    const invitee = await person(w.acme, { email })
    await withTenant(w.acme.id, (tx) =>
      tx.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, invitee.user.id)),
    )

    for (const decline of [false, true]) {
      const shown = await refused(() =>
        invitationPage(w.owner.host, token, invitee.cookie, decline),
      )
      expect(shown.status).toBe(200)
      expect(shown.headers.get('Referrer-Policy')).toBe('no-referrer')
      expect(await shown.json()).toMatchObject({
        state: 'pending',
        invitation: { teamName: 'Sales', role: 'manager', email, inviterName: 'Olive User' },
        matches: true,
      })
    }
    // Anonymous, the page still shows; answering needs a sign-in.
    expect((await refused(() => invitationPage(w.owner.host, token))).status).toBe(200)
    const anonymous = await refused(() => answer(null, token, 'accept', w.owner.host))
    expect(anonymous).toHaveRedirect(/^\/auth\/login\?redirectTo=/)
    // The other page's button is refused.
    await expectRefusal(() => answer(invitee, token, 'decline', undefined, 'accept'), 400)

    const accepted = await answer(invitee, token, 'accept')
    expect(accepted).toHaveRedirect(`${TEAM_PATH}?team=${w.teamId}`)
    await expect(accepted).toSendToast('You have joined the team')
    expect((await memberRow(w.teamId, invitee.user.id))?.role).toBe('manager')
    const [invitation] = await db()
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.tokenHash, hashToken(token)))
    expect(invitation?.status).toBe('accepted')
    const [confirmed] = await db().select().from(users).where(eq(users.id, invitee.user.id))
    expect(confirmed?.emailConfirmedAt).toBeInstanceOf(Date)

    // The token is used up.
    await expectRefusal(
      () => answer(invitee, token, 'accept'),
      404,
      'This invitation is no longer valid',
    )
    await expectRefusal(() => answer(invitee, token, 'decline'), 404)
    expect((await invitationPage(w.owner.host, token, invitee.cookie)).status).toBe(404)

    const [audit] = await db()
      .select({ actorUserId: auditEvents.actorUserId, metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.entityId, w.teamId),
          eq(auditEvents.action, 'team.invitation_accepted'),
          sql`${auditEvents.metadata}->>'invitationId' = ${invitation?.id ?? ''}`,
        ),
      )
    expect(audit).toEqual({
      actorUserId: invitee.user.id,
      metadata: { invitationId: invitation?.id, role: 'manager' },
    })

    // The new member sees the team.
    const { data } = await page(invitee)
    expect(data.view).toBe('manage')
    expect(data.teams.map((t) => t.id)).toEqual([w.teamId])
  })

  test('declining marks it declined; a declined invitation cannot be accepted', async () => {
    const w = await world()
    const invitee = await person(w.acme, { email: w.invitee })
    const declined = await answer(invitee, w.token, 'decline')
    expect(declined).toHaveRedirect('/dashboard/end-user')
    await expect(declined).toSendToast('Invitation declined')
    const [invitation] = await invitationsOf(w.teamId)
    expect(invitation?.status).toBe('declined')
    await expectRefusal(() => answer(invitee, w.token, 'accept'), 404)
    expect(await memberRow(w.teamId, invitee.user.id)).toBeUndefined()
  })

  test('an expired invitation answers "Invitation has expired" and becomes expired', async () => {
    const w = await world()
    const invitee = await person(w.acme, { email: w.invitee })
    await db()
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(teamInvitations.id, w.invitationId))
    const shown = await refused(() => invitationPage(w.owner.host, w.token, invitee.cookie))
    expect(shown.status).toBe(410)
    expect(await shown.json()).toMatchObject({ state: 'expired', token: null })

    const response = await answer(invitee, w.token, 'accept')
    expect(response.status).toBe(410)
    expect(await errorOf(response)).toBe('Invitation has expired')
    const [invitation] = await invitationsOf(w.teamId)
    expect(invitation?.status).toBe('expired')
    expect(await memberRow(w.teamId, invitee.user.id)).toBeUndefined()
    // Now it is no longer pending at all.
    await expectRefusal(() => answer(invitee, w.token, 'accept'), 404)
  })

  test('another account of the same organization cannot answer it', async () => {
    const w = await world()
    for (const actor of [w.outsider, w.member]) {
      for (const intent of ['accept', 'decline'] as const) {
        await expectRefusal(() => answer(actor, w.token, intent), 403, INVITATION_NOT_YOURS)
        // Issue 39 point 3: the refusal does not name the invited address.
        const response = await refused(() => answer(actor, w.token, intent))
        expect(await response.text()).not.toContain(w.invitee)
      }
      const shown = await refused(() => invitationPage(w.owner.host, w.token, actor.cookie))
      const page = await shown.text()
      expect(JSON.parse(page)).toMatchObject({ state: 'pending', matches: false })
      expect(page).not.toContain(w.invitee)
    }
  })

  test("another organization's token on our host finds nothing, even for the invited address", async () => {
    const w = await world()
    // Globex invites an address that also has an Acme account.
    const email = `both-${uniqueSuffix()}@example.test`
    const globexToken = await invite(w.foreign, w.foreignTeamId, email)
    const acmeAccount = await person(w.acme, { email })
    const shown = await refused(() => invitationPage(w.owner.host, globexToken, acmeAccount.cookie))
    expect(shown.status).toBe(404)
    expect(await shown.text()).not.toContain('Globex Secret Team')
    for (const intent of ['accept', 'decline'] as const) {
      await expectRefusal(() => answer(acmeAccount, globexToken, intent), 404)
    }
    // Malformed tokens are refused without a lookup.
    await expectRefusal(() => answer(acmeAccount, 'short', 'accept'), 404)
    expect((await invitationPage(w.owner.host, 'short')).status).toBe(404)
  })

  // Accepting while an admin cancels: tests/integration/team-lock-order.postgres.test.ts.

  test('an account that cannot join teams cannot accept', async () => {
    const w = await world()
    const email = `agent-${uniqueSuffix()}@example.test`
    const token = await invite(w.owner, w.teamId, email)
    const agency = await makeUser(w.acme.id, { email, role: 'agency_member' })
    const actor: Actor = {
      org: w.acme,
      host: w.owner.host,
      cookie: await sessionCookieFor(w.acme.id, agency.id),
      user: agency,
    }
    await expectRefusal(() => answer(actor, token, 'accept'), 403, 'This account cannot join teams')
  })
})

describe('upgrades: no paid plan without payment (issue 26 point 7)', () => {
  async function plannedAudits(userId: string) {
    return db()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.entityId, userId),
          sql`${auditEvents.action} in ('plan.upgraded', 'plan.granted')`,
        ),
      )
      .orderBy(auditEvents.createdAt)
  }

  test('the self-upgrade is refused on the server while no payment provider is connected, and the page says so', async () => {
    const org = await makeOrganization()
    const user = await person(org)
    for (const plan of ['team_basic', 'team_pro']) {
      await expectRefusal(
        () => post(user, { intent: 'upgrade', plan }),
        403,
        PLANS_GRANTED_BY_ADMINS,
      )
    }
    const [row] = await db().select().from(users).where(eq(users.id, user.user.id))
    expect(row?.plan).toBe('free')
    expect(await plannedAudits(user.user.id)).toEqual([])
    expect((await page(user)).data).toMatchObject({ view: 'plans', canPayOnline: false })
    await expectRefusal(() => post(user, { intent: 'upgrade', plan: 'free' }), 400)
  })

  test('an agency admin grants a plan to their end user from End Users, audited; the user then manages teams', async () => {
    const org = await makeOrganization()
    const user = await person(org)
    const admin = await agencyCookie(org)
    const granted = await grantPlan(org, admin, user.user.id, 'team_pro')
    expect(granted.status).toBe(302)
    await expect(granted).toSendToast('Plan changed to Team Pro')
    const [row] = await db().select().from(users).where(eq(users.id, user.user.id))
    expect(row?.plan).toBe('team_pro')
    const [audit] = await plannedAudits(user.user.id)
    expect(audit).toMatchObject({
      action: 'plan.granted',
      metadata: expect.objectContaining({ from: 'free', to: 'team_pro' }),
    })
    expect((await page(user)).data.view).toBe('manage')
    // The same plan again is refused; a plan can also be taken back.
    await expectRefusal(
      () => grantPlan(org, admin, user.user.id, 'team_pro'),
      409,
      'This account already has the Team Pro plan',
    )
    expect((await grantPlan(org, admin, user.user.id, 'free')).status).toBe(302)
  })

  test("an agency member cannot grant plans; an agency admin cannot reach another agency's user", async () => {
    const org = await makeOrganization()
    const other = await makeOrganization()
    const user = await person(org)
    const stranger = await person(other)
    const member = await agencyCookie(org, (await makeUser(org.id, { role: 'agency_member' })).id)
    const admin = await agencyCookie(org)
    await expectRefusal(() => grantPlan(org, member, user.user.id, 'team_pro'), 403)
    await expectRefusal(
      () => grantPlan(org, admin, stranger.user.id, 'team_pro'),
      404,
      'User not found',
    )
    // An agency admin account has no plan to change; an end user cannot reach the screen.
    const otherAdmin = await makeUser(org.id, { role: 'agency_admin' })
    await expectRefusal(() => grantPlan(org, admin, otherAdmin.id, 'team_pro'), 404)
    await expectRefusal(() => grantPlan(org, user.cookie, user.user.id, 'team_pro'), 403)
  })

  test("a super admin grants a plan to any agency's end user", async () => {
    const org = await makeOrganization()
    const user = await person(org)
    const platform = await getPlatformOrganization()
    const admin = await makeUser(platform.id, { role: 'super_admin' })
    const cookie = await sessionCookieFor(platform.id, admin.id)
    const response = await settle(() =>
      superAdminUsersAction({
        request: formRequest(
          'localhost',
          '/dashboard/super-admin/users',
          { intent: 'set-plan', organizationId: org.id, userId: user.user.id, plan: 'team_basic' },
          cookie,
        ),
        context: contextFor('localhost'),
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    const [row] = await db().select().from(users).where(eq(users.id, user.user.id))
    expect(row?.plan).toBe('team_basic')
    const [audit] = await plannedAudits(user.user.id)
    expect(audit).toMatchObject({ action: 'plan.granted', actorUserId: admin.id })
  })

  test('the page shows the plans to a free user without teams, the management view otherwise', async () => {
    const org = await makeOrganization()
    const free = await person(org)
    const paid = await person(org, { plan: 'team_basic' })
    expect((await page(free)).data).toMatchObject({ view: 'plans', plan: 'free', teams: [] })
    expect((await page(paid)).data).toMatchObject({ view: 'manage', teams: [], selected: null })
    expect((await page(paid, '?view=plans')).data.view).toBe('plans')
    // A free user who belongs to a team manages it.
    const teamId = await createTeam(paid)
    await join(paid, teamId, free)
    const { data } = await page(free)
    expect(data.view).toBe('manage')
    expect(data.selected).toMatchObject({ id: teamId, plan: 'team_basic' })
    // Reading the page writes nothing.
    expect((await refused(() => loadPage(free))).status).toBe(200)
  })
})

describe('the team page', () => {
  test("lists only the user's teams, newest first, with the chosen team's people", async () => {
    const w = await world()
    const second = await createTeam(w.owner, 'Marketing')
    await createTeam(w.outsider, 'Outsiders')
    const { data, body } = await page(w.owner)
    expect(data.teams.map((t) => [t.name, t.myRole])).toEqual([
      ['Marketing', 'admin'],
      ['Sales', 'admin'],
    ])
    expect(data.selected?.id).toBe(second)
    expect(body).not.toContain('Outsiders')
    expect(body).not.toContain('Globex Secret Team')

    const sales = await page(w.owner, `?team=${w.teamId}`)
    expect(sales.data.selected?.name).toBe('Sales')
    expect(sales.data.selected?.members.map((m) => m.role)).toEqual([
      'admin',
      'admin',
      'manager',
      'member',
      'viewer',
    ])
    expect(sales.data.selected?.invitations.map((i) => i.email)).toEqual([w.invitee])
    expect(sales.data.selected?.seats).toBe(6)
    expect(sales.body).not.toMatch(/token/i)

    // A member sees only their own teams.
    const viewer = await page(w.viewer)
    expect(viewer.data.teams.map((t) => [t.name, t.myRole])).toEqual([['Sales', 'viewer']])
    expect(viewer.body).not.toContain('Outsiders')
  })

  test("?team= naming another organization's team, or a team the user is not in, shows none of it", async () => {
    const w = await world()
    const notMine = await createTeam(w.outsider, 'Outsiders Club')
    for (const teamId of [w.foreignTeamId, notMine]) {
      const { status, data, body } = await page(w.owner, `?team=${teamId}`)
      expect(status).toBe(200)
      expect(data.selected?.id).toBe(w.teamId)
      expect(body).not.toContain(teamId)
      expect(body).not.toContain('Globex Secret Team')
      expect(body).not.toContain('Outsiders Club')
      expect(body).not.toContain(w.foreign.user.email)
    }
    // Someone in no team sees nothing of the team they name.
    const stranger = await person(w.acme, { plan: 'team_basic' })
    const { data, body } = await page(stranger, `?team=${w.teamId}`)
    expect(data).toMatchObject({ teams: [], selected: null })
    expect(body).not.toContain('Sales')
    expect(body).not.toContain(w.owner.user.email)
    // Globex's owner naming our team sees only their own.
    const foreign = await page(w.foreign, `?team=${w.teamId}`)
    expect(foreign.data.teams.map((t) => t.id)).toEqual([w.foreignTeamId])
    expect(foreign.body).not.toContain(w.teamId)
  })
})
