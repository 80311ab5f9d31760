// Billing that takes money (issue 31 point 5, ADR 051) against the local fake of Stripe: the
// upgrade goes to Checkout, the plan changes only when a signed webhook says so (each event once,
// through the job queue), a failed payment keeps the plan for the grace period and then falls
// back to Free with the team's rows kept, and the portal opens for the account's own customer.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { GRACE_PERIOD_MS } from '#app/billing/stripe-event-jobs.server'
import { runJobsNow } from '#app/job-handlers.server'
import { action as teamAction, loader as teamLoader } from '#app/routes/dashboard.end-user.team'
import { getDb } from '#drizzle/db.server'
import {
  auditEvents,
  billingAccounts,
  emailOutbox,
  jobs,
  stripeEvents,
  teams,
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
import { FAKE_PRICES, type FakeStripe } from '#tests/fake-stripe'
import { startStripeForWebhook, stopStripeForWebhook } from '#tests/stripe-webhook-fake'

const TEAM_PATH = '/dashboard/end-user/team'
const db = () => getDb()
let fake: FakeStripe

beforeAll(async () => {
  fake = await startStripeForWebhook()
})

afterAll(() => stopStripeForWebhook(fake))

beforeEach(() => {
  fake.setClock(() => Math.floor(Date.now() / 1000))
})

async function buyer() {
  const org = await makeOrganization()
  const user = await makeUser(org.id, {
    email: `buyer-${uniqueSuffix()}@example.test`,
    role: 'end_user',
  })
  const host = `${org.slug}.localhost`
  return { org, user, host, cookie: await sessionCookieFor(org.id, user.id) }
}
type Buyer = Awaited<ReturnType<typeof buyer>>

const post = (b: Buyer, fields: Record<string, string>) =>
  settle(() =>
    teamAction({
      request: formRequest(b.host, TEAM_PATH, fields, b.cookie),
      context: contextFor(b.host),
      params: {},
    }),
  )

async function billingOf(b: Buyer) {
  const response = await settle(() =>
    teamLoader({
      request: requestFor(b.host, `${TEAM_PATH}?view=plans`, { headers: { Cookie: b.cookie } }),
      context: contextFor(b.host),
      params: {},
    }),
  )
  return ((await response.json()) as { billing: Record<string, unknown> | null }).billing
}

const planOf = async (userId: string) =>
  (await db().select({ plan: users.plan }).from(users).where(eq(users.id, userId)))[0]?.plan

const accountOf = async (userId: string) =>
  (await db().select().from(billingAccounts).where(eq(billingAccounts.userId, userId)))[0]

const auditsOf = async (userId: string, action: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, action)))

/** Upgrade, follow Checkout, press Pay: the buyer's subscription id. */
async function subscribe(b: Buyer, plan: 'team_basic' | 'team_pro' = 'team_pro') {
  const started = await post(b, { intent: 'upgrade', plan })
  expect(started.status).toBe(302)
  const location = started.headers.get('Location') ?? ''
  expect(location.startsWith(`${fake.url}/checkout/`)).toBe(true)
  const sessionId = location.split('/').at(-1) ?? ''
  const success = await fake.pay(sessionId)
  expect(success).toMatch(
    new RegExp(`^http://${b.host}(:\\d+)?${TEAM_PATH}\\?view=plans&checkout=success$`),
  )
  const subscription = String(fake.sessions.get(sessionId)?.subscription)
  return subscription
}

describe('checkout and webhooks', () => {
  test('the upgrade goes to Stripe Checkout; the signed webhook grants the plan, once', async () => {
    const b = await buyer()
    const started = await post(b, { intent: 'upgrade', plan: 'team_basic' })
    const sessionId = (started.headers.get('Location') ?? '').split('/').at(-1) ?? ''
    const session = fake.sessions.get(sessionId)
    expect(session).toMatchObject({
      mode: 'subscription',
      price: FAKE_PRICES.team_basic.id,
      metadata: { organizationId: b.org.id, userId: b.user.id, plan: 'team_basic' },
    })
    // Nothing changes before Stripe says the checkout completed.
    expect(await planOf(b.user.id)).toBe('free')
    const from = fake.events.length
    await fake.pay(sessionId)
    expect(fake.events.slice(from).map((e) => [e.event.type, e.status])).toEqual([
      ['checkout.session.completed', 200],
      ['invoice.paid', 200],
    ])
    expect(await planOf(b.user.id)).toBe('team_basic')
    expect(await accountOf(b.user.id)).toMatchObject({ plan: 'team_basic', status: 'active' })
    expect(await auditsOf(b.user.id, 'plan.upgraded')).toHaveLength(1)
    // The plans view's billing: the plan, the masked card and the paid invoice.
    expect(await billingOf(b)).toMatchObject({
      plan: 'Team Basic',
      status: 'active',
      card: { brand: 'visa', last4: '4242', expires: '12/30' },
      invoices: [{ amount: '$19.00', status: 'paid' }],
    })

    // A replay of the completed checkout: answered 200, stored once, applied once.
    const replayed = await fake.resend(from)
    expect(replayed).toBe(200)
    const stored = await db()
      .select()
      .from(stripeEvents)
      .where(eq(stripeEvents.id, String(fake.events[from]?.event.id)))
    expect(stored).toHaveLength(1)
    expect(stored[0]?.handledAt).not.toBeNull()
    expect(await auditsOf(b.user.id, 'plan.upgraded')).toHaveLength(1)
    const queued = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.idempotencyKey, `billing.stripe-event:${stored[0]?.id}`))
    expect(queued).toHaveLength(1)
  })

  test('a bad or missing signature is a 400 and changes nothing', async () => {
    const b = await buyer()
    const subscription = await subscribe(b, 'team_basic')
    const count = async () => (await db().select().from(stripeEvents)).length
    const before = await count()
    const object = { ...(fake.subscriptions.get(subscription) ?? { id: subscription }) }
    const forged = fake.subscriptions.get(subscription)
    // Signed with another secret, then with no header: Stripe's scheme refuses both.
    const wrong = `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`
    expect(await fake.send('customer.subscription.deleted', object, { signature: wrong })).toBe(400)
    expect(await fake.send('customer.subscription.deleted', object, { signature: '' })).toBe(400)
    expect(forged?.status).toBe('active')
    expect(await count()).toBe(before)
    expect(await planOf(b.user.id)).toBe('team_basic')
  })

  test('a plan changed in the portal follows; a deleted subscription falls back to Free', async () => {
    const b = await buyer()
    const subscription = await subscribe(b, 'team_basic')
    await fake.changePrice(subscription, FAKE_PRICES.team_pro.id)
    expect(await planOf(b.user.id)).toBe('team_pro')
    expect(await auditsOf(b.user.id, 'plan.changed')).toHaveLength(1)
    await fake.cancel(subscription)
    expect(await planOf(b.user.id)).toBe('free')
    expect(await accountOf(b.user.id)).toMatchObject({ status: 'canceled', plan: 'free' })
    // Buying again after a cancellation is a new Checkout, not the portal.
    const again = await post(b, { intent: 'upgrade', plan: 'team_basic' })
    expect(again.headers.get('Location')).toContain(`${fake.url}/checkout/`)
  })

  test('an event naming an account of another agency changes nothing there', async () => {
    const a = await buyer()
    const other = await buyer()
    const subscription = await subscribe(a, 'team_pro')
    const original = fake.subscriptions.get(subscription)
    if (!original) throw new Error('no subscription')
    // Our metadata names the agency the event is applied in; a user of another is not found there.
    const crossed = {
      ...original,
      metadata: { organizationId: a.org.id, userId: other.user.id, plan: 'team_pro' },
    }
    expect(await fake.send('customer.subscription.deleted', crossed)).toBe(200)
    expect(await planOf(other.user.id)).toBe('free')
    expect(await planOf(a.user.id)).toBe('team_pro')
    expect(await accountOf(other.user.id)).toBeUndefined()
  })
})

describe('a failed payment', () => {
  test('keeps the plan through the grace period with an email, then falls back to Free keeping the team; paying gives it back', async () => {
    const b = await buyer()
    const subscription = await subscribe(b, 'team_pro')
    const created = await post(b, { intent: 'create-team', name: 'Crew', description: '' })
    expect(created.status).toBe(302)

    // Failed now: the plan stays and the grace period's end is queued, not yet due.
    await fake.failInvoice(subscription)
    expect(await planOf(b.user.id)).toBe('team_pro')
    const account = await accountOf(b.user.id)
    expect(account?.status).toBe('past_due')
    const graceEndsAt = account?.graceEndsAt?.getTime() ?? 0
    expect(Math.abs(graceEndsAt - Date.now() - GRACE_PERIOD_MS)).toBeLessThan(60_000)
    expect(await billingOf(b)).toMatchObject({ status: 'past_due', plan: 'Team Pro' })

    // The clock moved past the grace period: the queued end runs and the plan falls back.
    await db()
      .update(billingAccounts)
      .set({ graceEndsAt: new Date(Date.now() - 1000) })
      .where(eq(billingAccounts.userId, b.user.id))
    await db()
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.name, 'billing.grace-end'), eq(jobs.organizationId, b.org.id)))
    await runJobsNow()
    expect(await planOf(b.user.id)).toBe('free')
    expect(await auditsOf(b.user.id, 'plan.lapsed')).toHaveLength(1)
    // The team and its admin are kept (read only over the Free plan's limit).
    expect(await db().select().from(teams).where(eq(teams.organizationId, b.org.id))).toHaveLength(
      1,
    )
    const subjects = (
      await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, b.user.email))
    ).map((row) => row.subject)
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringContaining('payment did not go through'),
        expect.stringContaining('plan is now Free'),
      ]),
    )

    // The open invoice paid later: the plan comes back.
    await fake.payInvoice(subscription)
    expect(await planOf(b.user.id)).toBe('team_pro')
    expect(await accountOf(b.user.id)).toMatchObject({ status: 'active', graceEndsAt: null })
  })

  test("the grace period runs from Stripe's event time: a failure eight days old downgrades at once", async () => {
    const b = await buyer()
    const subscription = await subscribe(b, 'team_basic')
    fake.setClock(() => Math.floor((Date.now() - GRACE_PERIOD_MS - 86_400_000) / 1000))
    await fake.failInvoice(subscription)
    expect(await planOf(b.user.id)).toBe('free')
    expect(await accountOf(b.user.id)).toMatchObject({ status: 'past_due', plan: 'team_basic' })
  })
})

describe('the billing portal', () => {
  test('opens for the account that has a customer, and is refused before', async () => {
    const b = await buyer()
    const refused = await post(b, { intent: 'billing-portal' })
    expect(refused.status).toBe(404)
    await subscribe(b, 'team_basic')
    const opened = await post(b, { intent: 'billing-portal' })
    expect(opened.status).toBe(302)
    expect(opened.headers.get('Location')).toContain(`${fake.url}/portal/`)
    // An upgrade of an account that already pays goes to the portal too (Stripe changes the plan).
    const upgrade = await post(b, { intent: 'upgrade', plan: 'team_pro' })
    expect(upgrade.headers.get('Location')).toContain(`${fake.url}/portal/`)
  })
})
