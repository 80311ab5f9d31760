// "Delete my account" (issue 31 point 4, ADR 053) in one journey on the production project: Lena
// asks on her profile's Security tab (the dialog says the date and takes her password), lands on
// the sign-in page signed out, signs in again (the deletion stays scheduled: the banner offers
// her data and "Keep my account", which she chooses, ADR 081); she asks
// again, the grace period is moved into the past in the database (as billing.spec.ts moves its
// grace period), the job worker deletes the account as the app login, and then her short link
// answers the agency's forwarding while her password no longer signs in.
import { expect, test } from '@playwright/test'
import postgres from 'postgres'
import { E2E_PRODUCTION_PORT, urlFor } from './fixtures'
import { expectAccessible, openAs, waitForHydration } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.leaver
const [lena] = agency.endUsers
const SECURITY = '/profile?tab=security'

/** The production server's own database (e2e/server-database.ts names it by port). */
function serverDatabase() {
  const url = new URL(process.env.TEST_DATABASE_URL ?? '')
  url.pathname = `/brandcard_e2e_${E2E_PRODUCTION_PORT}`
  return postgres(url.toString(), { max: 1, onnotice: () => {} })
}

async function askForDeletion(page: import('@playwright/test').Page) {
  await page.getByRole('button', { name: 'Delete My Account' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' })
  await expect(dialog).toContainText('Your account will be deleted on')
  return dialog
}

async function signIn(page: import('@playwright/test').Page) {
  await page.goto(urlFor(agency.host, '/auth/login'))
  await waitForHydration(page)
  await page.getByLabel('Email').fill(lena.email)
  await page.getByLabel('Password').fill(lena.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

test('delete my account: asked, kept after signing in, asked again, deleted after the grace period; the short link forwards', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await openAs(page, lena, SECURITY)
  const dialog = await askForDeletion(page)
  await expectAccessible(page, 'delete my account dialog')
  // A wrong password is refused next to the field; nothing is scheduled.
  await dialog.getByLabel('Your password').fill('not-my-password')
  await dialog.getByRole('button', { name: 'Delete My Account' }).click()
  await expect(dialog.getByText('Your password is not right')).toBeVisible()
  await dialog.getByLabel('Your password').fill(lena.password)
  await dialog.getByRole('button', { name: 'Delete My Account' }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)
  await expect(page.getByText(/Your account will be deleted on/)).toBeVisible()
  // Signed out everywhere: the profile sends her to sign in.
  await page.goto(urlFor(agency.host, SECURITY))
  await expect(page).toHaveURL(/\/auth\/login/)

  // Signing in during the grace period leaves it scheduled and says so (issue 41 point 16, ADR
  // 081): she may have come for her data. The banner offers it, and to keep the account.
  await signIn(page)
  await expect(page).toHaveURL(/\/dashboard\/end-user$/)
  await expect(page.getByText(/^Your account will be deleted on/).first()).toBeVisible()
  const banner = page.getByTestId('account-deletion-banner')
  await expect(banner).toBeVisible()
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: test.info().outputPath('375-deletion-banner.jpg'), quality: 60 })
  await banner.getByRole('link', { name: 'Download my data' }).click()
  await expect(page).toHaveURL(/\/profile\/end-user\?tab=security$/)
  await expect(
    page.getByRole('button', { name: /Download my data|Prepare/i }).first(),
  ).toBeVisible()
  await banner.getByRole('button', { name: 'Keep my account' }).click()
  await expect(page.getByText('Your account deletion was cancelled')).toBeVisible()
  await expect(banner).toBeHidden()
  await page.setViewportSize({ width: 1280, height: 720 })

  // Asked again; this time the grace period passes.
  await page.goto(urlFor(agency.host, SECURITY))
  await waitForHydration(page)
  const again = await askForDeletion(page)
  await again.getByLabel('Your password').fill(lena.password)
  await again.getByRole('button', { name: 'Delete My Account' }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)

  const sql = serverDatabase()
  try {
    const [user] = await sql<{ id: string }[]>`select id from users where email = ${lena.email}`
    const past = new Date(Date.now() - 60_000)
    await sql`update account_deletions set scheduled_for = ${past} where user_id = ${user?.id ?? ''}`
    await sql`update jobs set run_at = ${past}
      where name = 'account.delete' and payload->>'userId' = ${user?.id ?? ''} and state = 'queued'`
    // The worker polls: the account is gone within a few seconds.
    await expect(async () => {
      const left = await sql`select 1 from users where email = ${lena.email}`
      expect(left).toHaveLength(0)
    }).toPass({ timeout: 60_000 })
  } finally {
    await sql.end()
  }

  // Her short link (and the capitals her QR code carries) answers the agency's forwarding.
  const visitor = await page.context().browser()?.newContext()
  if (!visitor) throw new Error('no browser')
  const stranger = await visitor.newPage()
  for (const path of ['/c/lena-leaving', '/C/LENA-LEAVING', '/card/lena-leaving']) {
    const response = await stranger.goto(urlFor(agency.host, path))
    expect(response?.status(), path).toBe(410)
    await expect(
      stranger.getByText('This person is no longer with us. Please get in touch with our team.'),
      path,
    ).toBeVisible()
    await expect(stranger.getByText('Lena Leaving'), path).toHaveCount(0)
  }
  await visitor.close()

  // And her password signs in to nothing.
  await signIn(page)
  await expect(page.getByText('Failed to sign in. Please check your credentials.')).toBeVisible()
})
