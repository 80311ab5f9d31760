// Notification preferences on the profile, the new-contact email a card owner gets, and its
// one-click unsubscribe link (RFC 8058) opened and confirmed without signing in.
import http from 'node:http'
import { expect, type Page, test } from '@playwright/test'
import { e2ePort, HOSTS, SUPER_ADMIN, TENANTS, urlFor } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { openAs, signedInAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

const notificationsBox = (page: Page) =>
  page.getByRole('checkbox', { name: 'Notifications', exact: true })
const marketingBox = (page: Page) =>
  page.getByRole('checkbox', { name: 'Marketing emails', exact: true })

/** A raw POST, as a mailbox provider sends it: no cookies and, unless given, no Origin. */
function post(path: string, body: string, origin?: string) {
  return new Promise<number>((resolve, reject) => {
    const headers: Record<string, string> = {
      host: `${HOSTS.alpha}:${e2ePort()}`,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    }
    if (origin) headers.origin = origin
    const req = http.request(
      { host: '127.0.0.1', port: e2ePort(), path, method: 'POST', headers },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

test('the Notifications tab starts at the defaults and keeps what is saved', async ({ page }) => {
  // A new account, as a sign-up leaves it (e2e/spec-accounts.ts).
  await openAs(page, SPEC_ACCOUNTS.preferences, '/profile/end-user?tab=notifications')
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible()
  // Spec §3: notifications on, marketing emails off for a new user.
  await expect(notificationsBox(page)).toBeChecked()
  await expect(marketingBox(page)).not.toBeChecked()

  await notificationsBox(page).uncheck()
  await marketingBox(page).check()
  await page.getByRole('button', { name: 'Save Preferences' }).click()
  await expect(page.getByText('Notification preferences saved')).toBeVisible()

  await page.reload()
  await expect(notificationsBox(page)).not.toBeChecked()
  await expect(marketingBox(page)).toBeChecked()
  // The same preferences on the shared /profile page.
  await page.goto(urlFor(HOSTS.alpha, '/profile?tab=notifications'))
  await expect(notificationsBox(page)).not.toBeChecked()
  await expect(marketingBox(page)).toBeChecked()
})

test('a connection emails the card owner, whose one-click link turns notifications off', async ({
  page,
  browser,
}) => {
  // A visitor with an account connects with a card owner of this spec's own (notifications on
  // by default): the test leaves them off, which no other spec's card owner may be.
  const visitor = SPEC_ACCOUNTS.connector
  const cardOwner = SPEC_ACCOUNTS.cardOwner
  const cardPath = `/card/${cardOwner.firstName}-${cardOwner.lastName}`.toLowerCase()
  await openAs(page, visitor, cardPath)
  await page.getByRole('button', { name: `Connect with ${cardOwner.firstName}` }).click()
  await expect(page.getByText(`Successfully connected with ${cardOwner.firstName}`)).toBeVisible()

  // The super admin reads the outbox on the platform host (OUTBOX_PAGE=1).
  const { context: adminContext, page: admin } = await signedInAs(browser, SUPER_ADMIN)
  const subject = `${visitor.firstName} ${visitor.lastName} connected with you on ${TENANTS.alpha.name}`
  const email = admin.getByTestId('outbox-email').filter({ hasText: subject })
  // The email goes out after the connect's answer.
  await expect(async () => {
    await admin.goto(urlFor(HOSTS.platform, '/dev/outbox'))
    await expect(email).toHaveCount(1, { timeout: 1_000 })
  }).toPass()
  await expect(email.getByTestId('outbox-to')).toHaveText(cardOwner.email)
  // The outbox keeps no unsubscribe token (ADR 028): the link is the owner's, from their inbox.
  await expect(email.getByTestId('outbox-removed-link')).toContainText('/email/unsubscribe?token=')
  const href = linkIn(await newestEmailTo(cardOwner.email, subject), '/email/unsubscribe?token=')
  expect(href.startsWith(urlFor(HOSTS.alpha, '/email/unsubscribe?token='))).toBe(true)
  await adminContext.close()
  const path = `${new URL(href).pathname}${new URL(href).search}`

  // Opened without any session: a page that explains and asks; opening alone changes nothing.
  const stranger = await browser.newContext()
  const linkPage = await stranger.newPage()
  await linkPage.goto(href)
  await expect(
    linkPage.getByRole('heading', { name: 'Unsubscribe from notifications' }),
  ).toBeVisible()
  await linkPage.reload()
  await expect(linkPage.getByRole('button', { name: 'Unsubscribe' })).toBeVisible()

  // Forged tokens and foreign origins are refused; the provider's request is answered 200.
  expect(await post('/email/unsubscribe?token=forged.token', 'List-Unsubscribe=One-Click')).toBe(
    400,
  )
  expect(await post(path, 'List-Unsubscribe=One-Click', 'https://evil.test')).toBe(403)
  expect(await post(path, 'List-Unsubscribe=One-Click')).toBe(200)
  await linkPage.reload()
  await expect(linkPage.getByRole('heading', { name: 'Notifications are off' })).toBeVisible()

  // The owner sees it on the profile and turns notifications back on.
  const { context: ownerContext, page: owner } = await signedInAs(
    browser,
    cardOwner,
    '/profile/end-user?tab=notifications',
  )
  await expect(notificationsBox(owner)).not.toBeChecked()
  await notificationsBox(owner).check()
  await owner.getByRole('button', { name: 'Save Preferences' }).click()
  await expect(owner.getByText('Notification preferences saved')).toBeVisible()
  await owner.reload()
  await expect(notificationsBox(owner)).toBeChecked()

  // The page's own button confirms the unsubscribe in the browser.
  await linkPage.reload()
  await linkPage.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(linkPage.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()
  await owner.reload()
  await expect(notificationsBox(owner)).not.toBeChecked()
  await ownerContext.close()
  await stranger.close()
})
