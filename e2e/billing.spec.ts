// Billing that takes money (issue 31 point 5, ADR 051) in one journey on the production
// configuration: an end user upgrades through the fake Stripe's hosted Checkout, the signed
// webhook (applied by the job worker under the app login) grants the plan, the billing section
// shows the masked card and the invoice, a renewal fails (the plan is kept, with a warning), and
// once the grace period is over (its timestamps moved in the database, not waited for) the
// account is back on Free. Then an agency admin buys Agency Pro on Agency Settings → Billing.
import { expect, test } from '@playwright/test'
import postgres from 'postgres'
import { E2E_PRODUCTION_PORT, stripePort } from './fixtures'
import { expectAccessible, openAs } from './page-helpers'
import { SPEC_ACCOUNTS, SPEC_AGENCIES } from './spec-accounts'

const BEA = SPEC_ACCOUNTS.billing
const PLANS_VIEW = '/dashboard/end-user/team?view=plans'

/** The production server's own database (e2e/server-database.ts names it by port). */
function serverDatabase() {
  const url = new URL(process.env.TEST_DATABASE_URL ?? '')
  url.pathname = `/brandcard_e2e_${E2E_PRODUCTION_PORT}`
  return postgres(url.toString(), { max: 1, onnotice: () => {} })
}

async function subscriptionOf(email: string) {
  const sql = serverDatabase()
  try {
    const [row] = await sql<{ id: string | null }[]>`
      select b.stripe_subscription_id as id from billing_accounts b
      join users u on u.id = b.user_id where u.email = ${email}`
    return row?.id ?? undefined
  } finally {
    await sql.end()
  }
}

test('upgrade through Stripe Checkout, the webhook grants the plan, a failed renewal falls back to Free after the grace period', async ({
  page,
}) => {
  test.setTimeout(60_000)
  await openAs(page, BEA, PLANS_VIEW)
  await page.getByRole('button', { name: 'Upgrade to Team Pro' }).click()
  const dialog = page.getByRole('dialog', { name: 'Confirm Upgrade' })
  await expect(dialog).toContainText('$49/month')
  await dialog.getByRole('button', { name: 'Confirm Upgrade' }).click()

  // Stripe's hosted Checkout (the fake's page on its own origin); Pay returns to the app.
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${stripePort()}/checkout/`))
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page).toHaveURL(/\/dashboard\/end-user\/team\?view=plans&checkout=success$/)

  // The webhook's job may finish a moment after the redirect: the page is read again until then.
  const billing = page.getByTestId('billing')
  await expect(async () => {
    await page.reload()
    await expect(billing.getByTestId('billing-plan')).toHaveText('Team Pro', { timeout: 1000 })
  }).toPass({ timeout: 60_000 })
  await expect(page.getByTestId('plan-team_pro')).toContainText('Current plan')
  await expect(billing.getByTestId('billing-card')).toHaveText('VISA ending 4242, expires 12/30')
  await expect(billing.getByRole('row').filter({ hasText: '$49.00' })).toContainText('paid')
  await expect(billing.getByRole('button', { name: 'Update Billing Info' })).toBeVisible()

  // A renewal fails: Stripe says so, the plan is kept and the page warns until when.
  // Bea's own subscription, named: the Agency Pro test beside this one runs in parallel.
  const subscription = await subscriptionOf(BEA.email)
  const failed = await fetch(`http://127.0.0.1:${stripePort()}/__fake/fail-invoice`, {
    method: 'POST',
    body: JSON.stringify({ subscription }),
  })
  expect(failed.status).toBe(200)
  await expect(async () => {
    await page.reload()
    await expect(billing.getByTestId('billing-state')).toContainText('Your last payment failed', {
      timeout: 1000,
    })
  }).toPass({ timeout: 60_000 })
  await expect(billing.getByTestId('billing-plan')).toHaveText('Team Pro')
  // The billing section at its fullest (card, invoices, the warning, the portal buttons): axe.
  // The accessibility crawl runs on the embedded server, which has no Stripe.
  await expectAccessible(page, 'team plans with billing, payment failed')

  // The grace period over: its end and the queued job moved into the past, which the worker
  // then runs; the account falls back to Free.
  const sql = serverDatabase()
  try {
    const [user] = await sql<{ id: string }[]>`select id from users where email = ${BEA.email}`
    const past = new Date(Date.now() - 60_000)
    // The grace period's job names Bea's billing account (ADR 055), not Bea.
    const [account] = await sql<{ id: string }[]>`
      update billing_accounts set grace_ends_at = ${past} where user_id = ${user?.id ?? ''}
      returning id`
    await sql`update jobs set run_at = ${past}
      where name = 'billing.grace-end' and payload->>'accountId' = ${account?.id ?? ''}`
  } finally {
    await sql.end()
  }
  await expect(async () => {
    await page.reload()
    await expect(billing.getByTestId('billing-plan')).toHaveText('Free', { timeout: 1000 })
  }).toPass({ timeout: 60_000 })
  await expect(billing.getByTestId('billing-state')).toContainText('Payment overdue')
})

test('an agency admin buys Agency Pro on Agency Settings → Billing through Stripe Checkout', async ({
  page,
}) => {
  test.setTimeout(30_000)
  const { owner } = SPEC_AGENCIES.buyer
  await openAs(page, owner, '/settings/agency?tab=billing')
  await expect(page.getByTestId('settings-plan')).toHaveText('Starter')
  await expect(page.getByTestId('plan-offer')).toHaveText(
    'Agency Pro: $99/month, up to 25 team members.',
  )
  await page.getByRole('button', { name: 'Upgrade to Agency Pro' }).click()

  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${stripePort()}/checkout/`))
  await expect(page.getByText('Subscribe for $99 per month')).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page).toHaveURL(/\/settings\/agency\?tab=billing&checkout=success$/)

  const billing = page.getByTestId('billing')
  await expect(async () => {
    await page.reload()
    await expect(page.getByTestId('settings-plan')).toHaveText('Agency Pro', { timeout: 1000 })
  }).toPass({ timeout: 60_000 })
  await expect(page.getByText('Up to 25 team members')).toBeVisible()
  await expect(billing.getByTestId('billing-card')).toHaveText('VISA ending 4242, expires 12/30')
  await expect(billing.getByRole('row').filter({ hasText: '$99.00' })).toContainText('paid')
  await expect(page.getByRole('button', { name: 'Upgrade to Agency Pro' })).toHaveCount(0)
  await expect(billing.getByRole('button', { name: 'View Invoices' })).toBeVisible()
})
