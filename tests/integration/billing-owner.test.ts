// Billing belongs to the organization (issue 39 point 2, ADR 055), against the local fake of
// Stripe: Agency Pro's customer and subscription are the agency's, so deleting, demoting or
// deactivating the admin who paid changes nothing about them (a failed payment, its grace period
// and a cancellation still follow for the agency); events are applied as Stripe's subscription
// stands when they are, so a late event grants or takes nothing; a signature dated ahead of the
// clock beyond Stripe's tolerance is refused.
import { and, eq, isNull, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { SIGNATURE_TOLERANCE_S } from '#app/billing/stripe-webhook.server'
import { runJobsNow } from '#app/job-handlers.server'
import { action as deleteAccountAction } from '#app/routes/account.delete'
import { action as agencyTeamAction } from '#app/routes/dashboard.agency.team'
import {
  action as agencySettingsAction,
  loader as agencySettingsLoader,
} from '#app/routes/settings.agency'
import { action as memberSettingsAction } from '#app/routes/settings.team-member'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  accountDeletions,
  auditEvents,
  billingAccounts,
  emailOutbox,
  jobs,
  organizations,
  stripeEvents,
  users,
} from '#drizzle/schema'
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
import type { FakeStripe } from '#tests/fake-stripe'
import { startStripeForWebhook, stopStripeForWebhook } from '#tests/stripe-webhook-fake'

const db = () => getDb()
const AGENCY_SETTINGS = '/settings/agency'
const MEMBER_SETTINGS = '/settings/team-member'
const PASSWORD = 'password123'
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
  fake.hold([])
})

/** An agency with two admins (the payer and another) and a team member. */
async function agency() {
  const org = await makeOrganization()
  const admin = (name: string) =>
    makeUser(org.id, {
      email: `${name}-${uniqueSuffix()}@example.test`,
      firstName: name,
      role: 'agency_admin',
      password: PASSWORD,
    })
  const payer = await admin('payer')
  const other = await admin('other')
  const teamMember = await makeUser(org.id, {
    email: `tm-${uniqueSuffix()}@example.test`,
    role: 'team_admin',
  })
  return {
    org,
    payer,
    other,
    teamMember,
    host: `${org.slug}.localhost`,
    payerCookie: await sessionCookieFor(org.id, payer.id),
    otherCookie: await sessionCookieFor(org.id, other.id),
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

/** The Billing tab's upgrade, Checkout, Pay: the checkout session's id. */
async function buy(a: Agency, action: Action, path: string, cookie: string) {
  const started = await post(a, action, path, { intent: 'upgrade' }, cookie)
  expect(started.status).toBe(302)
  const sessionId = (started.headers.get('Location') ?? '').split('/').at(-1) ?? ''
  await fake.pay(sessionId)
  return { sessionId, subscription: String(fake.sessions.get(sessionId)?.subscription) }
}

const buyAgencyPro = (a: Agency) => buy(a, agencySettingsAction, AGENCY_SETTINGS, a.payerCookie)

const tierOf = async (orgId: string) =>
  (
    await db()
      .select({ tier: organizations.subscriptionTier })
      .from(organizations)
      .where(eq(organizations.id, orgId))
  )[0]?.tier

const agencyAccountOf = async (orgId: string) =>
  (
    await db()
      .select()
      .from(billingAccounts)
      .where(and(eq(billingAccounts.organizationId, orgId), isNull(billingAccounts.userId)))
  )[0]

const subjectsTo = async (email: string) =>
  (await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))).map(
    (row) => row.subject,
  )

const graceJobsOf = (orgId: string) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.organizationId, orgId), like(jobs.name, 'billing.grace-%')))

/** The grace period over: its end and the queued job moved into the past, then the queue runs. */
async function graceOver(orgId: string) {
  const past = new Date(Date.now() - 1000)
  await db()
    .update(billingAccounts)
    .set({ graceEndsAt: past })
    .where(eq(billingAccounts.organizationId, orgId))
  await db()
    .update(jobs)
    .set({ runAt: past })
    .where(and(eq(jobs.name, 'billing.grace-end'), eq(jobs.organizationId, orgId)))
  await runJobsNow()
}

async function billingSeenBy(a: Agency, cookie: string) {
  const response = await settle(() =>
    agencySettingsLoader({
      request: requestFor(a.host, `${AGENCY_SETTINGS}?tab=billing`, {
        headers: { Cookie: cookie },
      }),
      context: contextFor(a.host),
      params: {},
    }),
  )
  return ((await response.json()) as { stripe: Record<string, unknown> | null }).stripe
}

async function openPortal(a: Agency, cookie: string) {
  const opened = await post(
    a,
    agencySettingsAction,
    AGENCY_SETTINGS,
    { intent: 'billing-portal' },
    cookie,
  )
  expect(opened.status).toBe(302)
  expect(opened.headers.get('Location')).toContain(`${fake.url}/portal/`)
}

// First: the file's first test also pays for loading the app, and this one is the lightest.
describe('webhook signatures dated ahead', () => {
  test("a signature dated in the future beyond Stripe's tolerance is refused; a little clock drift is not", async () => {
    const a = await agency()
    const { subscription } = await buyAgencyPro(a)
    const object = fake.subscriptions.get(subscription)
    if (!object) throw new Error('no subscription')
    const count = async () =>
      (await db().select().from(stripeEvents).where(eq(stripeEvents.organizationId, a.org.id)))
        .length
    const before = await count()
    const now = Math.floor(Date.now() / 1000)
    const ahead = now + SIGNATURE_TOLERANCE_S + 3600
    expect(await fake.send('customer.subscription.updated', object, { signedAt: ahead })).toBe(400)
    expect(await count()).toBe(before)
    expect(await fake.send('customer.subscription.updated', object, { signedAt: now + 60 })).toBe(
      200,
    )
    expect(await count()).toBe(before + 1)
    expect(await tierOf(a.org.id)).toBe('professional')
  })
})

describe('Stripe asked outside the transaction (review of issue 39 point 4)', () => {
  test('while Stripe is slow to answer, the job holds no lock: the account is locked and read meanwhile, and the event applies once Stripe answers', async () => {
    const a = await agency()
    const { subscription } = await buyAgencyPro(a)
    let released = false
    const release = fake.stallReads()
    // A watchdog, not a measure: should the job hold the account, this ends the wait.
    const watchdog = setTimeout(() => {
      released = true
      release()
    }, 60_000)
    try {
      const failing = fake.failInvoice(subscription)
      await vi.waitFor(() => expect(fake.reading()).toBe(1), { timeout: 60_000, interval: 20 })
      // Through the app's own transactions, which the embedded database runs one at a time.
      const locked = await withTenant(a.org.id, (tx) =>
        tx
          .select()
          .from(billingAccounts)
          .where(and(eq(billingAccounts.organizationId, a.org.id), isNull(billingAccounts.userId)))
          .for('update'),
      )
      const answeredWhileStripeWaited = !released
      expect(locked).toHaveLength(1)
      expect(answeredWhileStripeWaited).toBe(true)
      release()
      await failing
      expect(await billingSeenBy(a, a.otherCookie)).toMatchObject({ status: 'past_due' })
    } finally {
      clearTimeout(watchdog)
      release()
    }
  })

  test('a read of Stripe older than the one the account follows changes nothing', async () => {
    const a = await agency()
    const { subscription } = await buyAgencyPro(a)
    // Another event's job read Stripe later than this one will, and applied it.
    await db()
      .update(billingAccounts)
      .set({ subscriptionReadAt: new Date(Date.now() + 3_600_000) })
      .where(and(eq(billingAccounts.organizationId, a.org.id), isNull(billingAccounts.userId)))
    await fake.cancel(subscription)
    expect(await tierOf(a.org.id)).toBe('professional')
    expect(await agencyAccountOf(a.org.id)).toMatchObject({ status: 'active' })
    const handled = await db()
      .select({ handledAt: stripeEvents.handledAt })
      .from(stripeEvents)
      .where(eq(stripeEvents.organizationId, a.org.id))
    expect(handled.every((event) => event.handledAt !== null)).toBe(true)
  })
})

describe('an admin’s own Agency Pro account kept from before ADR 055', () => {
  test('its cancellation takes no tier the agency’s own account still pays for', async () => {
    const a = await agency()
    const { subscription } = await buyAgencyPro(a)
    // As migration 0031 left a second admin's purchase: a seat row paying for Agency Pro beside
    // the agency's own live account.
    await db()
      .update(billingAccounts)
      .set({ userId: a.other.id })
      .where(and(eq(billingAccounts.organizationId, a.org.id), isNull(billingAccounts.userId)))
    await db()
      .insert(billingAccounts)
      .values({
        organizationId: a.org.id,
        userId: null,
        stripeCustomerId: `cus_agency_${uniqueSuffix()}`,
        stripeSubscriptionId: `sub_agency_${uniqueSuffix()}`,
        plan: 'agency_pro',
        status: 'active',
      })
    await fake.cancel(subscription)
    const [legacy] = await db()
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.userId, a.other.id))
    expect(legacy).toMatchObject({ status: 'canceled', plan: 'free' })
    expect(await tierOf(a.org.id)).toBe('professional')
  })
})

describe('Agency Pro stays with the agency when the admin who paid goes', () => {
  test('deleted through Delete my account: the agency keeps its subscription, and a failed payment puts it past due with its admins told', async () => {
    const a = await agency()
    const { subscription } = await buyAgencyPro(a)
    expect(await tierOf(a.org.id)).toBe('professional')

    // The payer deletes their own account; the clock moves past the 14 days and the job runs.
    const asked = await post(
      a,
      deleteAccountAction,
      '/account/delete',
      { password: PASSWORD },
      a.payerCookie,
    )
    expect(asked.status).toBe(302)
    const past = new Date(Date.now() - 60_000)
    await db()
      .update(accountDeletions)
      .set({ scheduledFor: past })
      .where(eq(accountDeletions.userId, a.payer.id))
    await db()
      .update(jobs)
      .set({ runAt: past })
      .where(and(eq(jobs.name, 'account.delete'), sql`${jobs.payload}->>'userId' = ${a.payer.id}`))
    await runJobsNow()
    expect(await db().select().from(users).where(eq(users.id, a.payer.id))).toEqual([])

    // The agency's subscription is still there, the same for the admin who stays.
    expect(await billingSeenBy(a, a.otherCookie)).toMatchObject({
      plan: 'Agency Pro',
      status: 'active',
    })

    // A renewal fails: past due for the agency, the admin who stays is emailed, the lapse queued.
    await fake.failInvoice(subscription)
    expect(await billingSeenBy(a, a.otherCookie)).toMatchObject({ status: 'past_due' })
    expect(await subjectsTo(a.other.email)).toEqual(
      expect.arrayContaining([expect.stringContaining('payment did not go through')]),
    )
    expect((await graceJobsOf(a.org.id)).map((job) => job.name)).toContain('billing.grace-end')
    expect(await tierOf(a.org.id)).toBe('professional')
  })

  test('deleted by another admin on Team Members: the grace period, the payment after it and the cancellation still follow for the agency', async () => {
    const a = await agency()
    const { subscription } = await buyAgencyPro(a)
    const deleted = await post(
      a,
      agencyTeamAction,
      '/dashboard/agency/team',
      { intent: 'delete-member', userId: a.payer.id },
      a.otherCookie,
    )
    expect(deleted.status).toBe(302)
    expect(await db().select().from(users).where(eq(users.id, a.payer.id))).toEqual([])

    // A failed renewal's grace period over: Agency Pro ends, the admin who stays is told; paid
    // later, it comes back.
    await fake.failInvoice(subscription)
    await graceOver(a.org.id)
    expect(await tierOf(a.org.id)).toBe('free')
    expect(await subjectsTo(a.other.email)).toEqual(
      expect.arrayContaining([expect.stringContaining('plan is now Free')]),
    )
    await fake.payInvoice(subscription)
    expect(await tierOf(a.org.id)).toBe('professional')

    await fake.cancel(subscription)
    expect(await tierOf(a.org.id)).toBe('free')
    expect(await agencyAccountOf(a.org.id)).toMatchObject({ status: 'canceled', plan: 'free' })
    const audited = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, a.org.id), eq(auditEvents.action, 'plan.cancelled')))
    expect(audited).toHaveLength(1)
  })

  test('demoted to agency member: the other admins manage the same subscription, and buying again after a cancellation reuses the agency’s customer', async () => {
    const a = await agency()
    const { sessionId, subscription } = await buyAgencyPro(a)
    const customer = String(fake.sessions.get(sessionId)?.customer)
    const demoted = await post(
      a,
      agencyTeamAction,
      '/dashboard/agency/team',
      { intent: 'change-role', userId: a.payer.id, role: 'agency_member' },
      a.otherCookie,
    )
    expect(demoted.status).toBe(302)

    // The remaining admin sees the subscription and opens the portal of the agency's customer.
    expect(await billingSeenBy(a, a.otherCookie)).toMatchObject({
      plan: 'Agency Pro',
      status: 'active',
    })
    await openPortal(a, a.otherCookie)

    await fake.cancel(subscription)
    expect(await tierOf(a.org.id)).toBe('free')
    const again = await buy(a, agencySettingsAction, AGENCY_SETTINGS, a.otherCookie)
    expect(fake.sessions.get(again.sessionId)?.customer).toBe(customer)
    expect(await tierOf(a.org.id)).toBe('professional')
  })

  test("deactivated: the payment emails go to the agency's active admins, not to the admin who paid", async () => {
    const a = await agency()
    const { subscription } = await buyAgencyPro(a)
    await db().update(users).set({ status: 'inactive' }).where(eq(users.id, a.payer.id))
    await fake.failInvoice(subscription)
    expect(await billingSeenBy(a, a.otherCookie)).toMatchObject({ status: 'past_due' })
    expect(await subjectsTo(a.other.email)).toEqual([
      expect.stringContaining('payment did not go through'),
    ])
    expect(await subjectsTo(a.payer.email)).not.toEqual(
      expect.arrayContaining([expect.stringContaining('payment did not go through')]),
    )
  })
})

describe("events applied in the order of Stripe's own state", () => {
  test('a checkout.session.completed delivered after customer.subscription.deleted grants nothing', async () => {
    const a = await agency()
    fake.hold(['checkout.session.completed'])
    const { subscription } = await buyAgencyPro(a)
    // The invoice's event came first (it granted the plan); the cancellation follows.
    await fake.cancel(subscription)
    expect(await tierOf(a.org.id)).toBe('free')
    expect(fake.held()).toEqual(['checkout.session.completed'])

    expect(await fake.release()).toEqual([200])
    expect(await tierOf(a.org.id)).toBe('free')
    expect(await agencyAccountOf(a.org.id)).toMatchObject({ status: 'canceled', plan: 'free' })
  })

  test('a checkout and its invoice both delivered after the deletion grant nothing either', async () => {
    const a = await agency()
    fake.hold(['checkout.session.completed', 'invoice.paid'])
    const { subscription } = await buyAgencyPro(a)
    await fake.cancel(subscription)
    expect(await fake.release()).toEqual([200, 200])
    expect(await tierOf(a.org.id)).toBe('free')
    expect(await agencyAccountOf(a.org.id)).toMatchObject({ status: 'canceled', plan: 'free' })
  })

  test('an older invoice.payment_failed after a newer invoice.paid changes nothing and queues no lapse', async () => {
    const a = await agency()
    const { subscription } = await buy(a, memberSettingsAction, MEMBER_SETTINGS, a.memberCookie)
    const memberPlan = async () =>
      (
        await db()
          .select({ plan: users.memberPlan })
          .from(users)
          .where(eq(users.id, a.teamMember.id))
      )[0]?.plan
    expect(await memberPlan()).toBe('team_member_basic')

    fake.hold(['invoice.payment_failed'])
    await fake.failInvoice(subscription)
    await fake.payInvoice(subscription)
    expect(await fake.release()).toEqual([200])

    const account = (
      await db().select().from(billingAccounts).where(eq(billingAccounts.userId, a.teamMember.id))
    )[0]
    expect(account).toMatchObject({
      status: 'active',
      graceEndsAt: null,
      plan: 'team_member_basic',
    })
    expect(await graceJobsOf(a.org.id)).toEqual([])
    expect(await subjectsTo(a.teamMember.email)).not.toEqual(
      expect.arrayContaining([expect.stringContaining('payment did not go through')]),
    )
    expect(await memberPlan()).toBe('team_member_basic')
  })
})
