// Issue 45 point 1 (ADR 102) in one journey, on the production project: a visitor asks on Fern's
// card to be kept updated, confirms with the emailed link, Fern sees her follower and edits her
// title, and the digest email carries the new vCard, with its one-click way out.
import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { emailTraces } from './platform-traces'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.following
const [fern] = agency.endUsers

test('a visitor follows a card, confirms, and the owner’s new title reaches them as a vCard', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  if (!fern) throw new Error('no card owner in the following agency')
  const follower = `follower-${randomUUID().slice(0, 8)}@example.test`
  const jobTitle = `Head of Follow-ups ${randomUUID().slice(0, 6)}`

  // The visitor, signed out (the card page without React, ADR 022), on a phone.
  const visitor = await browser.newContext()
  const page = await visitor.newPage()
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto(urlFor(agency.host, '/c/fern-follow'))
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name: 'Keep me updated' })).toBeVisible()
  await page.getByLabel('Email for updates').fill(follower)
  await page.getByRole('button', { name: 'Keep me updated' }).click()
  await expect(
    page.getByText(
      "Check your email: unless it already follows Fern's card, we sent it a link to confirm.",
    ),
  ).toBeVisible()

  // The confirmation, through the queue; opening it shows, the button confirms.
  const confirmation = await newestEmailTo(follower, 'Confirm updates from Fern Follow')
  // Both emails are the agency's own: no trace of the platform (the no-trace crawl's rule).
  expect(emailTraces('follow confirmation', confirmation)).toEqual([])
  const link = linkIn(confirmation, '/follow/confirm?token=')
  expect(new URL(link).hostname).toBe(agency.host)
  await page.goto(link)
  await expect(
    page.getByRole('heading', { name: 'Keep me updated about Fern Follow', level: 1 }),
  ).toBeVisible()
  await expectAccessible(page, 'the follow confirmation')
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(
    page.getByRole('heading', { name: 'You are following this card', level: 1 }),
  ).toBeVisible()

  // Fern sees her follower on her card list, and changes her title.
  const owner = await signedInAs(browser, fern, '/dashboard/end-user/digital-cards')
  await waitForHydration(owner.page)
  await expect(owner.page.getByTestId('card-followers').first()).toHaveText(
    '1 person follows this card',
  )
  await owner.page
    .getByRole('link', { name: /^Edit / })
    .first()
    .click()
  await expect(owner.page.getByLabel('Job title')).toBeVisible()
  await waitForHydration(owner.page)
  await owner.page.getByLabel('Job title').fill(jobTitle)
  await owner.page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(owner.page.getByText('Card updated successfully')).toBeVisible()
  await owner.context.close()

  // One digest, with the new vCard attached and the one-click way out.
  const digest = await newestEmailTo(follower, "Fern Follow's contact details changed")
  expect(emailTraces('follow digest', digest)).toEqual([])
  const [vcard] = digest.attachments ?? []
  expect(vcard?.filename).toMatch(/\.vcf$/)
  const text = Buffer.from(vcard?.content ?? '', 'base64').toString('utf8')
  expect(text).toContain('BEGIN:VCARD')
  expect(text).toContain(`TITLE:${jobTitle}`)
  expect(digest.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
  const stop = linkIn(digest, '/follow/unsubscribe?token=')
  expect(digest.headers?.['List-Unsubscribe']).toBe(`<${stop}>`)

  // The way out works from the page too.
  await page.goto(stop)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(page.getByRole('heading', { name: 'You are unsubscribed', level: 1 })).toBeVisible()
  await visitor.close()
})
