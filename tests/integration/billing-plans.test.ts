// Agency Pro and Team Member Basic (issue 31 point 5, ADR 051) against the local fake of Stripe:
// what each plan grants is enforced (an agency's staff seats, a team member's end users) with a
// refusal that names the plan; the settings screens' Billing tabs buy them through Checkout and
// the signed webhooks set them; the grace period's reminders are emailed once each and stop when
// the invoice is paid.
import { and, eq, isNull, like } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { STAFF_LIMITS } from '#app/billing/plan-limits'
import { GRACE_PERIOD_MS } from '#app/billing/stripe-event-jobs.server'
import { resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { action as agencyTeamAction } from '#app/routes/dashboard.agency.team'
import { action as agencyUsersAction } from '#app/routes/dashboard.agency.users._index'
import { action as myUsersAction } from '#app/routes/dashboard.team-member.users'
import {
  action as agencySettingsAction,
  loader as agencySettingsLoader,
} from '#app/routes/settings.agency'
import {
  action as memberSettingsAction,
  loader as memberSettingsLoader,
} from '#app/routes/settings.team-member'
import { getDb } from '#drizzle/db.server'
import { billingAccounts, emailOutbox, jobs, organizations, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { type FakeStripe, stripeEnvFor } from '#tests/fake-stripe'
import { startStripeForWebhook, stopStripeForWebhook } from '#tests/stripe-webhook-fake'

const db = () => getDb()
let fake: FakeStripe

type Action = (args: {
  request: Request
  context: ReturnType<typeof contextFor>
  params: Record<string, string>
}) => Promise<unknown>

beforeAll(async () => {
  fake = await startStripeForWebhook()
})

afterAll(() => stopStripeForWebhook(fake))

beforeEach(() => {
  fake.setClock(() => Math.floor(Date.now() / 1000))
})

async function agency() {
  const org = await makeOrganization()
  const admin = await makeUser(org.id, {
    email: `admin-${uniqueSuffix()}@example.test`,
    role: 'agency_admin',
  })
  const teamMember = await makeUser(org.id, {
    email: `tm-${uniqueSuffix()}@example.test`,
    role: 'team_admin',
    firstName: 'Tia',
    lastName: 'Team',
  })
  const host = `${org.slug}.localhost`
  return {
    org,
    admin,
    teamMember,
    host,
    adminCookie: await sessionCookieFor(org.id, admin.id),
    memberCookie: await sessionCookieFor(org.id, teamMember.id),
  }
}
type Agency = Awaited<ReturnType<typeof agency>>

const post = (
  a: Agency,
  action: Action,
  path: string,
  fields: Record<string, string>,
  cookie: string,
) =>
  settle(() =>
    action({
      request: formRequest(a.host, path, fields, cookie),
      context: contextFor(a.host),
      params: {},
    }),
  )

async function load(a: Agency, loader: Action, path: string, cookie: string) {
  const response = await settle(() =>
    loader({
      request: requestFor(a.host, path, { headers: { Cookie: cookie } }),
      context: contextFor(a.host),
      params: {},
    }),
  )
  return (await response.json()) as Record<string, unknown>
}

const addStaff = (a: Agency) =>
  post(
    a,
    agencyTeamAction,
    '/dashboard/agency/team',
    {
      intent: 'add-member',
      name: 'New Staff',
      email: `staff-${uniqueSuffix()}@example.test`,
      staffTitle: 'designer',
      access: 'agency_member',
      password: 'password-123',
    },
    a.adminCookie,
  )

const addOwnEndUser = (a: Agency) =>
  post(
    a,
    myUsersAction,
    '/dashboard/team-member/users',
    { intent: 'add-user', name: 'End User', email: `eu-${uniqueSuffix()}@example.test` },
    a.memberCookie,
  )

async function fillStaff(a: Agency, total: number) {
  // The admin and the team member are staff already.
  for (let i = 2; i < total; i++) {
    await makeUser(a.org.id, { email: `s-${uniqueSuffix()}@example.test`, role: 'agency_member' })
  }
}

async function fillEndUsers(a: Agency, total: number) {
  for (let i = 0; i < total; i++) {
    await makeUser(a.org.id, {
      email: `e-${uniqueSuffix()}@example.test`,
      role: 'end_user',
      assignedToUserId: a.teamMember.id,
    })
  }
}

const tierOf = async (orgId: string) =>
  (
    await db()
      .select({ tier: organizations.subscriptionTier })
      .from(organizations)
      .where(eq(organizations.id, orgId))
  )[0]?.tier

const memberPlanOf = async (userId: string) =>
  (await db().select({ plan: users.memberPlan }).from(users).where(eq(users.id, userId)))[0]?.plan

/** Post the Billing tab's upgrade, follow Checkout, press Pay: the subscription's id. */
async function buy(a: Agency, action: Action, path: string, cookie: string) {
  const started = await post(a, action, path, { intent: 'upgrade' }, cookie)
  expect(started.status).toBe(302)
  const location = started.headers.get('Location') ?? ''
  expect(location.startsWith(`${fake.url}/checkout/`)).toBe(true)
  const sessionId = location.split('/').at(-1) ?? ''
  const success = await fake.pay(sessionId)
  expect(success).toMatch(
    new RegExp(
      `^http://${a.host}(:\\d+)?${path.replace('?', '\\?')}\\?tab=billing&checkout=success$`,
    ),
  )
  return String(fake.sessions.get(sessionId)?.subscription)
}

const AGENCY_SETTINGS = '/settings/agency'
const MEMBER_SETTINGS = '/settings/team-member'

describe('Agency Pro: up to 25 team members', () => {
  test('a Free agency is refused its sixth staff account with a message naming the plan; Agency Pro bought through Checkout lifts it to 25', async () => {
    const a = await agency()
    await fillStaff(a, STAFF_LIMITS.free ?? 0)
    const refused = await addStaff(a)
    expect(refused.status).toBe(409)
    expect(JSON.stringify(await replyErrors(refused))).toContain(
      'Your agency has reached its limit: the Free plan allows up to 5 team members. Upgrade to Agency Pro for up to 25.',
    )

    const before = await load(a, agencySettingsLoader, AGENCY_SETTINGS, a.adminCookie)
    expect(before.agencyPlan).toMatchObject({ name: 'Free', current: false, canPayOnline: true })

    await buy(a, agencySettingsAction, AGENCY_SETTINGS, a.adminCookie)
    expect(await tierOf(a.org.id)).toBe('professional')
    expect((await addStaff(a)).status).toBe(302)

    const after = await load(
      a,
      agencySettingsLoader,
      `${AGENCY_SETTINGS}?tab=billing`,
      a.adminCookie,
    )
    expect(after.agencyPlan).toMatchObject({ name: 'Agency Pro', current: true })
    expect(after.stripe).toMatchObject({ plan: 'Agency Pro', status: 'active', unavailable: false })
    expect((after.stripe as { invoices: unknown[] }).invoices.length).toBeGreaterThan(0)

    // Another admin of the agency manages the same subscription: the portal, not a new checkout.
    const second = await makeUser(a.org.id, {
      email: `admin2-${uniqueSuffix()}@example.test`,
      role: 'agency_admin',
    })
    const secondCookie = await sessionCookieFor(a.org.id, second.id)
    const portal = await post(
      a,
      agencySettingsAction,
      AGENCY_SETTINGS,
      { intent: 'billing-portal' },
      secondCookie,
    )
    expect(portal.headers.get('Location')).toContain(`${fake.url}/portal/`)
    const again = await post(
      a,
      agencySettingsAction,
      AGENCY_SETTINGS,
      { intent: 'upgrade' },
      secondCookie,
    )
    expect(again.status).toBe(409)
  })

  test('an end user made staff takes a seat too; a member of the agency reads the plan but cannot buy it', async () => {
    const a = await agency()
    await fillStaff(a, STAFF_LIMITS.free ?? 0)
    const endUser = await makeUser(a.org.id, {
      email: `e-${uniqueSuffix()}@example.test`,
      role: 'end_user',
    })
    const promoted = await post(
      a,
      agencyUsersAction,
      '/dashboard/agency/users',
      { intent: 'change-role', organizationId: a.org.id, userId: endUser.id, role: 'team_admin' },
      a.adminCookie,
    )
    expect(promoted.status).toBe(409)
    expect(JSON.stringify(await replyErrors(promoted))).toContain(
      'the Free plan allows up to 5 team members',
    )
    expect((await db().select().from(users).where(eq(users.id, endUser.id)))[0]?.role).toBe(
      'end_user',
    )
    const member = await makeUser(a.org.id, {
      email: `m-${uniqueSuffix()}@example.test`,
      role: 'agency_member',
    })
    const cookie = await sessionCookieFor(a.org.id, member.id)
    const bought = await post(
      a,
      agencySettingsAction,
      AGENCY_SETTINGS,
      { intent: 'upgrade' },
      cookie,
    )
    expect(bought.status).toBe(403)
    const seen = await load(a, agencySettingsLoader, AGENCY_SETTINGS, cookie)
    expect(seen.stripe).toBeNull()
  })

  test('cancelled, the agency falls back to Free: its staff stay, a new one is refused', async () => {
    const a = await agency()
    const subscription = await buy(a, agencySettingsAction, AGENCY_SETTINGS, a.adminCookie)
    await fillStaff(a, 7)
    await fake.cancel(subscription)
    expect(await tierOf(a.org.id)).toBe('free')
    const staff = await db()
      .select()
      .from(users)
      .where(and(eq(users.organizationId, a.org.id), eq(users.role, 'agency_member')))
    expect(staff).toHaveLength(5)
    expect((await addStaff(a)).status).toBe(409)
  })

  test('without the Agency Pro price, the tab says who grants it and the upgrade is refused', async () => {
    const a = await agency()
    delete process.env.STRIPE_PRICE_AGENCY_PRO
    resetEnvForTests()
    try {
      const seen = await load(a, agencySettingsLoader, AGENCY_SETTINGS, a.adminCookie)
      expect(seen.agencyPlan).toMatchObject({ canPayOnline: false })
      const refused = await post(
        a,
        agencySettingsAction,
        AGENCY_SETTINGS,
        { intent: 'upgrade' },
        a.adminCookie,
      )
      expect(refused.status).toBe(403)
      expect(JSON.stringify(await replyErrors(refused))).toContain(
        'the platform administrator sets',
      )
      // The super admin's tier grants it as before.
      await db()
        .update(organizations)
        .set({ subscriptionTier: 'professional' })
        .where(eq(organizations.id, a.org.id))
      await fillStaff(a, 10)
      expect((await addStaff(a)).status).toBe(302)
    } finally {
      Object.assign(process.env, stripeEnvFor(fake))
      resetEnvForTests()
    }
  })
})

describe('Team Member Basic: up to 10 end users', () => {
  test('a Free team member is refused a sixth end user (their own add and the agency assigning one), naming the plan; Team Member Basic lifts it to 10', async () => {
    const a = await agency()
    await fillEndUsers(a, 5)
    const own = await addOwnEndUser(a)
    expect(own.status).toBe(409)
    const message =
      'Tia Team has reached their limit: the Free plan allows up to 5 end users per team member. Team Member Basic allows up to 10.'
    expect(JSON.stringify(await replyErrors(own))).toContain(message)
    const spare = await makeUser(a.org.id, {
      email: `e-${uniqueSuffix()}@example.test`,
      role: 'end_user',
    })
    const assign = {
      intent: 'assign-user',
      organizationId: a.org.id,
      userId: spare.id,
      assignedToUserId: a.teamMember.id,
    }
    const refused = await post(
      a,
      agencyUsersAction,
      '/dashboard/agency/users',
      assign,
      a.adminCookie,
    )
    expect(refused.status).toBe(409)
    expect(JSON.stringify(await replyErrors(refused))).toContain(message)

    await buy(a, memberSettingsAction, MEMBER_SETTINGS, a.memberCookie)
    expect(await memberPlanOf(a.teamMember.id)).toBe('team_member_basic')
    const member = await load(a, memberSettingsLoader, MEMBER_SETTINGS, a.memberCookie)
    expect(member.plan).toMatchObject({ name: 'Team Member Basic', current: true })
    expect(member.billing).toMatchObject({ plan: 'Team Member Basic', status: 'active' })

    const memberCookie = await sessionCookieFor(a.org.id, a.teamMember.id)
    expect(
      (await post(a, agencyUsersAction, '/dashboard/agency/users', assign, a.adminCookie)).status,
    ).toBe(302)
    await fillEndUsers(a, 3)
    expect(
      (
        await post(
          a,
          myUsersAction,
          '/dashboard/team-member/users',
          { intent: 'add-user', name: 'Tenth', email: `n-${uniqueSuffix()}@example.test` },
          memberCookie,
        )
      ).status,
    ).toBe(302)
    // Five, the one assigned, three more and the tenth: ten, the plan's limit.
    const eleventh = await post(
      a,
      myUsersAction,
      '/dashboard/team-member/users',
      { intent: 'add-user', name: 'Eleventh', email: `y-${uniqueSuffix()}@example.test` },
      memberCookie,
    )
    expect(eleventh.status).toBe(409)
    expect(JSON.stringify(await replyErrors(eleventh))).toContain(
      'the Team Member Basic plan allows up to 10 end users per team member.',
    )
  })
})

describe('Team Member Basic granted by an agency admin (Stripe or not)', () => {
  test('Change Plan on Team Members grants it, audited; the same plan again and a staff account that is not a team member are refused', async () => {
    const a = await agency()
    await fillEndUsers(a, 5)
    const grant = (userId: string, plan: string) =>
      post(
        a,
        agencyTeamAction,
        '/dashboard/agency/team',
        { intent: 'set-member-plan', userId, plan },
        a.adminCookie,
      )
    const granted = await grant(a.teamMember.id, 'team_member_basic')
    expect(granted.status).toBe(302)
    await expect(granted).toSendToast({ title: 'Plan changed to Team Member Basic' })
    expect(await memberPlanOf(a.teamMember.id)).toBe('team_member_basic')
    expect((await addOwnEndUser(a)).status).toBe(302)

    const again = await grant(a.teamMember.id, 'team_member_basic')
    expect(again.status).toBe(409)
    expect(await replyErrors(again)).toMatchObject({
      plan: ['This team member already has the Team Member Basic plan'],
    })
    expect((await grant(a.admin.id, 'team_member_basic')).status).toBe(404)
    const bad = await grant(a.teamMember.id, 'gold')
    expect(bad.status).toBe(400)
    expect(await replyErrors(bad)).toMatchObject({ plan: ['Please choose a plan'] })

    // Back to Free: the six stay assigned, a seventh is refused.
    expect((await grant(a.teamMember.id, 'free')).status).toBe(302)
    expect((await addOwnEndUser(a)).status).toBe(409)
  })
})

describe('grace-period reminders', () => {
  const reminders = (to: string) =>
    db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, to), like(emailOutbox.subject, 'Reminder:%')))

  const dueNow = (orgId: string, days: string) =>
    db()
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(
        and(
          eq(jobs.name, 'billing.grace-reminder'),
          eq(jobs.organizationId, orgId),
          like(jobs.idempotencyKey, `%:${days}`),
        ),
      )

  test('3 and 1 days before the downgrade, each emailed once; a paid invoice stops the rest', async () => {
    const a = await agency()
    const subscription = await buy(a, memberSettingsAction, MEMBER_SETTINGS, a.memberCookie)
    await fake.failInvoice(subscription)
    const queued = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, 'billing.grace-reminder'), eq(jobs.organizationId, a.org.id)))
    expect(queued).toHaveLength(2)
    const account = (
      await db().select().from(billingAccounts).where(eq(billingAccounts.userId, a.teamMember.id))
    )[0]
    const graceEndsAt = account?.graceEndsAt?.getTime() ?? 0
    expect(queued.map((job) => graceEndsAt - job.runAt.getTime()).sort((x, y) => x - y)).toEqual([
      86_400_000,
      3 * 86_400_000,
    ])
    expect(await reminders(a.teamMember.email)).toHaveLength(0)

    // Four days on: the 3-days reminder is due. Run twice, and Stripe retries the failure: once.
    await dueNow(a.org.id, '3')
    await runJobsNow()
    await fake.failInvoice(subscription)
    await runJobsNow()
    const sent = await reminders(a.teamMember.email)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.subject).toContain('Team Member Basic')
    expect(sent[0]?.text).toContain('/settings/team-member?tab=billing')

    // Paid before the last day: the 1-day reminder, now due, sends nothing.
    await fake.payInvoice(subscription)
    await dueNow(a.org.id, '1')
    await runJobsNow()
    expect(await reminders(a.teamMember.email)).toHaveLength(1)
    expect(await memberPlanOf(a.teamMember.id)).toBe('team_member_basic')
  })

  test('the grace period ends in Free for Agency Pro too, with its reminders before', async () => {
    const a = await agency()
    const subscription = await buy(a, agencySettingsAction, AGENCY_SETTINGS, a.adminCookie)
    await fake.failInvoice(subscription)
    await dueNow(a.org.id, '3')
    await dueNow(a.org.id, '1')
    await runJobsNow()
    expect(await reminders(a.admin.email)).toHaveLength(2)
    expect(await tierOf(a.org.id)).toBe('professional')
    // The agency's own account (ADR 055), not the admin's who bought it.
    await db()
      .update(billingAccounts)
      .set({ graceEndsAt: new Date(Date.now() - 1000) })
      .where(and(eq(billingAccounts.organizationId, a.org.id), isNull(billingAccounts.userId)))
    await db()
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.name, 'billing.grace-end'), eq(jobs.organizationId, a.org.id)))
    await runJobsNow()
    expect(await tierOf(a.org.id)).toBe('free')
    // Paid later: Agency Pro comes back.
    await fake.payInvoice(subscription)
    expect(await tierOf(a.org.id)).toBe('professional')
  })

  test("a failure older than the reminders' times queues none", async () => {
    const a = await agency()
    const subscription = await buy(a, memberSettingsAction, MEMBER_SETTINGS, a.memberCookie)
    fake.setClock(() => Math.floor((Date.now() - GRACE_PERIOD_MS + 12 * 3_600_000) / 1000))
    await fake.failInvoice(subscription)
    const queued = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, 'billing.grace-reminder'), eq(jobs.organizationId, a.org.id)))
    expect(queued).toHaveLength(0)
  })
})
