// No dead end where money changes hands (issue 41 point 4, ADR 079): without a payment provider
// an upgrade is a request. The person asks on their plan page, the agency's admins are emailed
// and see it on End Users (and a badge in the sidebar), grant or decline it in one click, and the
// person is emailed the answer. Another agency's admin, an agency member and a second answer are
// refused and change nothing.
import { and, desc, eq, inArray } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { PLAN_REQUEST_GONE, PLAN_REQUEST_SENT } from '#app/billing/upgrade-requests.server'
import { loader as dashboardLoader } from '#app/routes/dashboard'
import {
  action as agencyUsersAction,
  loader as agencyUsersLoader,
} from '#app/routes/dashboard.agency.users._index'
import { action as teamAction, loader as teamLoader } from '#app/routes/dashboard.end-user.team'
import {
  action as memberSettingsAction,
  loader as memberSettingsLoader,
} from '#app/routes/settings.team-member'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox, planRequests, users } from '#drizzle/schema'
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

type Org = Awaited<ReturnType<typeof makeOrganization>>
type Role = 'end_user' | 'agency_admin' | 'agency_member' | 'team_admin'

const hostOf = (org: Org) => `${org.slug}.localhost`

async function account(org: Org, role: Role, firstName = 'Pat') {
  const user = await makeUser(org.id, {
    email: `${role}-${uniqueSuffix()}@example.test`,
    role,
    firstName,
    lastName: 'Person',
  })
  return { org, user, cookie: await sessionCookieFor(org.id, user.id) }
}
type Account = Awaited<ReturnType<typeof account>>

const post = (
  who: Account,
  action: typeof teamAction,
  path: string,
  fields: Record<string, string>,
) =>
  settle(() =>
    action({
      request: formRequest(hostOf(who.org), path, fields, who.cookie),
      context: contextFor(hostOf(who.org)),
      params: {},
    }),
  )

const load = async <T>(who: Account, loader: typeof teamLoader, path: string) => {
  const response = await settle(() =>
    loader({
      request: requestFor(hostOf(who.org), path, { headers: { Cookie: who.cookie } }),
      context: contextFor(hostOf(who.org)),
      params: {},
    }),
  )
  return JSON.parse(await response.text()) as T
}

const ask = (who: Account, plan: string) =>
  post(who, teamAction, '/dashboard/end-user/team', { intent: 'request-plan', plan })
const decide = (admin: Account, requestId: string, decision: 'granted' | 'declined') =>
  post(admin, agencyUsersAction, '/dashboard/agency/users', {
    intent: 'decide-plan-request',
    requestId,
    decision,
  })

type PlanRequestRow = { id: string; planName: string; name: string; email: string }
const requestsOnEndUsers = async (admin: Account) =>
  (
    await load<{ planRequests: PlanRequestRow[] }>(
      admin,
      agencyUsersLoader as never,
      '/dashboard/agency/users',
    )
  ).planRequests
const badge = async (who: Account) =>
  (await load<{ planRequests: number }>(who, dashboardLoader as never, '/dashboard/end-user'))
    .planRequests

const mailsTo = (email: string) =>
  getDb()
    .select({ subject: emailOutbox.subject, text: emailOutbox.text })
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, email))
    .orderBy(desc(emailOutbox.createdAt))

const errorOf = async (response: Response) => ((await response.json()) as { error?: string }).error

async function refusedUnchanged(run: () => Promise<Response>) {
  const before = await databaseChecksum()
  const response = await run()
  expect(response.status).toBeGreaterThanOrEqual(400)
  expect(response.status).toBeLessThan(500)
  expect(await databaseChecksum()).toEqual(before)
  return response
}

describe('plan requests without a payment provider', () => {
  test('an end user asks, every admin is emailed and sees it, one grants it in one click, the person is told', async () => {
    const org = await makeOrganization()
    const person = await account(org, 'end_user', 'Ann')
    const admin = await account(org, 'agency_admin', 'Ada')
    const second = await account(org, 'agency_admin', 'Abe')

    const asked = await ask(person, 'team_pro')
    expect(asked).toHaveRedirect('/dashboard/end-user/team?view=plans')
    await expect(asked).toSendToast(PLAN_REQUEST_SENT)
    // The page says it waits; a second request is refused while it does.
    const page = await load<{ planRequest: { plan: string; name: string } | null }>(
      person,
      teamLoader,
      '/dashboard/end-user/team',
    )
    expect(page.planRequest).toMatchObject({ plan: 'team_pro', name: 'Team Pro' })
    const again = await refusedUnchanged(() => ask(person, 'team_basic'))
    expect(await errorOf(again)).toMatch(/^You already asked for Team Pro/)

    // Both admins are emailed; the End Users list and the sidebar's badge show it.
    for (const each of [admin, second]) {
      const [mail] = await mailsTo(each.user.email)
      expect(mail?.subject).toBe('Ann Person asks for the Team Pro plan')
      expect(mail?.text).toContain('/dashboard/agency/users#plan-requests')
      expect(await badge(each)).toBe(1)
    }
    const [row] = await requestsOnEndUsers(admin)
    expect(row).toMatchObject({ planName: 'Team Pro', name: 'Ann Person' })
    expect(await badge(person)).toBe(0)

    const granted = await decide(admin, row?.id ?? '', 'granted')
    await expect(granted).toSendToast('Team Pro granted to Ann Person')
    const [after] = await getDb().select().from(users).where(eq(users.id, person.user.id))
    expect(after?.plan).toBe('team_pro')
    const [told] = await mailsTo(person.user.email)
    expect(told?.subject).toBe('Your Team Pro plan is ready')
    expect(await badge(admin)).toBe(0)
    expect(await requestsOnEndUsers(second)).toEqual([])
    // The second admin's click comes too late, and says so.
    const late = await refusedUnchanged(() => decide(second, row?.id ?? '', 'declined'))
    expect(await errorOf(late)).toBe(PLAN_REQUEST_GONE)

    const events = await getDb()
      .select({ action: auditEvents.action, actor: auditEvents.actorUserId })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.entityId, person.user.id),
          inArray(auditEvents.action, ['plan.requested', 'plan.granted', 'plan.request_granted']),
        ),
      )
    expect(events).toEqual(
      expect.arrayContaining([
        { action: 'plan.requested', actor: person.user.id },
        { action: 'plan.granted', actor: admin.user.id },
        { action: 'plan.request_granted', actor: admin.user.id },
      ]),
    )
  })

  test('a declined request leaves the plan, tells the person, and they may ask again', async () => {
    const org = await makeOrganization()
    const person = await account(org, 'end_user', 'Dee')
    const admin = await account(org, 'agency_admin')
    await ask(person, 'team_basic')
    const [row] = await requestsOnEndUsers(admin)
    await expect(await decide(admin, row?.id ?? '', 'declined')).toSendToast(
      'Request of Dee Person for Team Basic declined',
    )
    const [after] = await getDb().select().from(users).where(eq(users.id, person.user.id))
    expect(after?.plan).toBe('free')
    const [told] = await mailsTo(person.user.email)
    expect(told?.subject).toBe('Your request for the Team Basic plan was declined')
    expect((await ask(person, 'team_basic')).status).toBe(302)
  })

  test('a withdrawn request is gone from the admins and cannot be granted', async () => {
    const org = await makeOrganization()
    const person = await account(org, 'end_user')
    const admin = await account(org, 'agency_admin')
    await ask(person, 'team_basic')
    const [row] = await requestsOnEndUsers(admin)
    const withdrawn = await post(person, teamAction, '/dashboard/end-user/team', {
      intent: 'withdraw-plan-request',
    })
    await expect(withdrawn).toSendToast('Request withdrawn')
    expect(await requestsOnEndUsers(admin)).toEqual([])
    await refusedUnchanged(() => decide(admin, row?.id ?? '', 'granted'))
    await refusedUnchanged(() =>
      post(person, teamAction, '/dashboard/end-user/team', { intent: 'withdraw-plan-request' }),
    )
  })

  test("another agency's admin, an agency member and a plan one has are refused, nothing written", async () => {
    const org = await makeOrganization()
    const other = await makeOrganization()
    const person = await account(org, 'end_user')
    const member = await account(org, 'agency_member')
    const foreign = await account(other, 'agency_admin')
    await ask(person, 'team_pro')
    const [row] = await getDb()
      .select()
      .from(planRequests)
      .where(eq(planRequests.userId, person.user.id))
    const id = row?.id ?? ''
    await refusedUnchanged(() => decide(foreign, id, 'granted'))
    await refusedUnchanged(() => decide(member, id, 'granted'))
    expect(await requestsOnEndUsers(foreign)).toEqual([])
    // An agency member sees the list, read only; the badge is the deciders'.
    expect(await requestsOnEndUsers(member)).toHaveLength(1)
    expect(await badge(member)).toBe(0)
    // Already has a plan as high: nothing to ask.
    const owner = await account(org, 'end_user')
    await getDb().update(users).set({ plan: 'team_pro' }).where(eq(users.id, owner.user.id))
    const refused = await refusedUnchanged(() => ask(owner, 'team_basic'))
    expect(await errorOf(refused)).toBe('Your Team Pro plan already includes more than Team Basic')
    // A team member asks for their own plan, not an end user's.
    const teamMember = await account(org, 'team_admin')
    await refusedUnchanged(() => ask(teamMember, 'team_pro'))
  })

  test('a team member asks for Team Member Basic on their Billing tab; granting sets their own plan', async () => {
    const org = await makeOrganization()
    const teamMember = await account(org, 'team_admin', 'Tim')
    const admin = await account(org, 'agency_admin')
    const path = '/settings/team-member'
    const asked = await post(teamMember, memberSettingsAction as never, path, {
      intent: 'request-plan',
    })
    expect(asked).toHaveRedirect('/settings/team-member?tab=billing')
    const settings = await load<{ plan: { request: { pending: { name: string } | null } } }>(
      teamMember,
      memberSettingsLoader as never,
      path,
    )
    expect(settings.plan.request.pending).toMatchObject({ name: 'Team Member Basic' })
    const [row] = await requestsOnEndUsers(admin)
    expect(row).toMatchObject({ planName: 'Team Member Basic', name: 'Tim Person' })
    await expect(await decide(admin, row?.id ?? '', 'granted')).toSendToast(
      'Team Member Basic granted to Tim Person',
    )
    const [after] = await getDb().select().from(users).where(eq(users.id, teamMember.user.id))
    expect(after?.memberPlan).toBe('team_member_basic')
  })
})
