// Issue 30 point 2 (ADR 046): an end user opts in to Marketing emails, the agency admin writes
// and sends an announcement from the Announcements screen, the job queue delivers it to that
// user only, and its one-click unsubscribe (RFC 8058, no session) turns the user's switch off.
import http from 'node:http'
import { expect, type Page, test } from '@playwright/test'
import { e2ePort, HOSTS, SUPER_ADMIN, urlFor } from './fixtures'
import { newestEmailTo, receivedEmails } from './inbox'
import { signedInAs } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.announcer
const [opal, ned] = agency.endUsers
const PATH = '/dashboard/agency/announcements'

const marketingBox = (page: Page) =>
  page.getByRole('checkbox', { name: 'Marketing emails', exact: true })

/** A raw POST, as a mailbox provider sends it: no cookies, no Origin. */
function post(path: string, body: string) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: e2ePort(),
        path,
        method: 'POST',
        headers: {
          host: `${agency.host}:${e2ePort()}`,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

test('an announcement reaches only the opted-in end user, whose one-click link turns it off', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  // Opal opts in to Marketing emails on her profile; Ned keeps the default (off).
  const { context: opalContext, page: opalPage } = await signedInAs(
    browser,
    opal,
    '/profile/end-user?tab=notifications',
  )
  await marketingBox(opalPage).check()
  await opalPage.getByRole('button', { name: 'Save Preferences' }).click()
  await expect(opalPage.getByText('Notification preferences saved')).toBeVisible()

  // The agency admin opens Announcements from the sidebar.
  const { context: ownerContext, page: owner } = await signedInAs(
    browser,
    agency.owner,
    '/dashboard/agency',
  )
  await owner
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'Announcements', exact: true })
    .click()
  await expect(owner).toHaveURL(urlFor(agency.host, PATH))
  await expect(owner.getByRole('heading', { name: 'Announcements', level: 1 })).toBeVisible()
  await expect(owner.getByText('This announcement will reach 1 person who opted in.')).toBeVisible()
  await expect(owner.getByText('No announcements sent yet.')).toBeVisible()
  await expect(owner.getByRole('button', { name: 'Send to 1 person' })).toBeEnabled()

  // The form's messages, next to the fields, then a preview of what is typed.
  await owner.getByRole('button', { name: 'Send to 1 person' }).click()
  await expect(owner.getByText('Subject is required')).toBeVisible()
  await expect(owner.getByText('Message is required')).toBeVisible()
  const subject = `Spring news ${Date.now()}`
  await owner.getByLabel('Subject').fill(subject)
  await owner.getByLabel('Message').fill('Our new card designs are here.\nTake a look.')
  const preview = owner.getByRole('region', { name: 'Preview' })
  await expect(preview.getByText(subject)).toBeVisible()
  await expect(preview.getByText('Take a look.')).toBeVisible()
  await owner.getByRole('button', { name: 'Send to 1 person' }).click()
  await expect(owner.getByText('Announcement sent')).toBeVisible()

  // The history, from the announcement's row: sent by the job to one recipient.
  const row = owner.getByRole('row').filter({ hasText: subject })
  await expect(async () => {
    await owner.reload()
    await expect(row).toContainText('Sent', { timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect(row.getByRole('cell').nth(2)).toHaveText('1')

  // The outbox (super admin, platform host) shows it to Opal only.
  const { context: adminContext, page: admin } = await signedInAs(browser, SUPER_ADMIN)
  const email = admin.getByTestId('outbox-email').filter({ hasText: subject })
  await expect(async () => {
    await admin.goto(urlFor(HOSTS.platform, '/dev/outbox'))
    await expect(email).toHaveCount(1, { timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect(email.getByTestId('outbox-to')).toHaveText(opal.email)
  await expect(email.getByTestId('outbox-from')).toHaveText(agency.name)
  await adminContext.close()

  // Opal's email as delivered: the RFC 8058 headers, the same link in the body; none for Ned.
  const delivered = await newestEmailTo(opal.email, subject)
  expect(delivered.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
  const href = /^<([^>]+)>$/.exec(delivered.headers?.['List-Unsubscribe'] ?? '')?.[1] ?? ''
  expect(href.startsWith(urlFor(agency.host, '/email/unsubscribe?token='))).toBe(true)
  expect(delivered.text).toContain(href)
  const toNed = (await receivedEmails()).filter(
    (received) => [received.to].flat().includes(ned.email) && received.subject === subject,
  )
  expect(toNed).toEqual([])

  // Opening the link without a session explains and changes nothing.
  const stranger = await browser.newContext()
  const linkPage = await stranger.newPage()
  await linkPage.goto(href)
  await expect(
    linkPage.getByRole('heading', { name: 'Unsubscribe from announcements' }),
  ).toBeVisible()
  await opalPage.reload()
  await expect(marketingBox(opalPage)).toBeChecked()

  // The provider's one-click POST: no cookies, the token only. A forged token is refused.
  const path = `${new URL(href).pathname}${new URL(href).search}`
  expect(await post('/email/unsubscribe?token=forged.token', 'List-Unsubscribe=One-Click')).toBe(
    400,
  )
  expect(await post(path, 'List-Unsubscribe=One-Click')).toBe(200)
  await linkPage.reload()
  await expect(linkPage.getByRole('heading', { name: 'Announcements are off' })).toBeVisible()

  // Opal's switch is off, and the screen now finds nobody to send to.
  await opalPage.reload()
  await expect(marketingBox(opalPage)).not.toBeChecked()
  await owner.reload()
  await expect(
    owner.getByText(/None of your end users or team members has turned on/),
  ).toBeVisible()
  // "Send to 0 people" cannot be pressed (issue 41 point 17); the line above says why.
  await expect(owner.getByRole('button', { name: 'Send to 0 people' })).toBeDisabled()
  await Promise.all([opalContext.close(), ownerContext.close(), stranger.close()])
})
