// Issue 45 point 2 (ADR 103) in one journey, on the production project: a visitor follows Mira's
// card and confirms; the agency hands her seat over to Sid and offers her a personal card; she
// claims it from the emailed link with her personal address, then leaves; the follower is told
// "has moved" with both cards, the personal card opens on the platform's own host, and the
// agency's card still forwards to Sid. Then she edits and removes her card through a link
// sent to its personal email.
import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { emailTraces } from './platform-traces'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.moving
const [mira, sid] = agency.endUsers

test('a seat handed over with a personal card keeps the person’s followers told', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  if (!mira || !sid) throw new Error('no departing person in the moving agency')
  const follower = `fan-${randomUUID().slice(0, 8)}@example.test`
  const personalEmail = `mira-${randomUUID().slice(0, 6)}@home.example.test`

  // A visitor follows Mira's card and confirms.
  const visitor = await browser.newContext()
  const page = await visitor.newPage()
  await page.goto(urlFor(agency.host, '/c/mira-moving'))
  await waitForHydration(page)
  await page.getByLabel('Email for updates').fill(follower)
  await page.getByRole('button', { name: 'Keep me updated' }).click()
  const confirmation = await newestEmailTo(follower, 'Confirm updates from Mira Moving')
  await page.goto(linkIn(confirmation, '/follow/confirm?token='))
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(
    page.getByRole('heading', { name: 'You are following this card', level: 1 }),
  ).toBeVisible()

  // The agency hands her seat over to Sid and offers her a personal card.
  const admin = await signedInAs(browser, agency.owner, '/dashboard/agency/users')
  await waitForHydration(admin.page)
  await admin.page.getByRole('button', { name: 'Actions for Mira Moving' }).click()
  await admin.page.getByRole('menuitem', { name: 'Hand Over' }).click()
  const dialog = admin.page.getByRole('dialog', { name: 'Hand Over' })
  await dialog.getByLabel('Successor').selectOption({ label: 'Sid Staying' })
  await dialog.getByLabel('Offer a personal card').check()
  await dialog.getByRole('button', { name: 'Hand Over' }).click()
  await expect(
    admin.page.getByText('We emailed them a link to create a personal card.'),
  ).toBeVisible()

  // Mira claims it from the emailed link, on the agency's host, on a phone.
  const offer = await newestEmailTo(mira.email, 'Keep a personal card')
  const claimUrl = linkIn(offer, '/personal-card/claim?token=')
  expect(new URL(claimUrl).hostname).toBe(agency.host)
  // The agency's offer carries no trace of the platform (the no-trace crawl's rule).
  expect(emailTraces('personal card offer', offer)).toEqual([])
  const person = await browser.newContext()
  const claim = await person.newPage()
  await claim.setViewportSize({ width: 375, height: 812 })
  await claim.goto(claimUrl)
  await expect(claim.getByRole('heading', { name: 'Keep a personal card', level: 1 })).toBeVisible()
  await expect(claim.getByLabel('First name')).toHaveValue('Mira')
  await expectAccessible(claim, 'the personal card claim')
  await waitForHydration(claim)
  await claim.getByLabel('Personal email').fill(personalEmail)
  await claim.getByLabel('Personal phone').fill('+44 20 7946 0101')
  await claim.getByRole('button', { name: 'Create my personal card' }).click()
  await expect(
    claim.getByRole('heading', { name: 'Your personal card is ready', level: 1 }),
  ).toBeVisible()
  const personalUrl = await claim
    .getByRole('link', { name: 'Open my personal card' })
    .getAttribute('href')
  expect(new URL(personalUrl ?? '').hostname).toBe('localhost')
  await person.close()

  // She leaves: the follower is told once, with both cards and the one-click way out.
  await admin.page.getByRole('button', { name: 'Actions for Mira Moving' }).click()
  await admin.page.getByRole('menuitem', { name: 'Deactivate' }).click()
  await expect(admin.page.getByText('User deactivated')).toBeVisible()
  await admin.context.close()
  const moved = await newestEmailTo(follower, 'Mira Moving has moved')
  const personalLink = linkIn(moved, '/p/')
  expect(personalLink).toBe(personalUrl)
  const companyLink = linkIn(moved, `${agency.host}`)
  expect(new URL(companyLink).pathname).toMatch(/^\/(c|card)\//)
  expect(moved.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
  const stop = linkIn(moved, '/follow/unsubscribe?token=')
  expect(moved.headers?.['List-Unsubscribe']).toBe(`<${stop}>`)
  // The agency's email names no platform: only the person's own card is on the root host.
  expect(emailTraces('has moved', moved).filter((trace) => !trace.includes('root domain'))).toEqual(
    [],
  )
  const rootLinks = [
    ...(moved.html ?? '')
      .replaceAll('\u200c', '')
      .matchAll(/(?<![\w.-])localhost(?![\w-])[^"<\s]*/g),
  ]
  expect(rootLinks.map((match) => match[0].replace(/^localhost:\d+/, ''))).toEqual(
    rootLinks.map(() => new URL(personalUrl ?? '').pathname),
  )

  // The personal card opens on the platform's own host, with nothing of the agency's.
  await page.goto(personalLink)
  await expect(page.getByRole('heading', { name: 'Mira Moving', level: 1 })).toBeVisible()
  await expect(page.getByText(personalEmail)).toBeVisible()
  await expect(page.getByText('Moving Agency')).toHaveCount(0)
  await expectAccessible(page, 'a personal card')

  // The agency keeps its link: it opens Sid's card.
  await page.goto(companyLink)
  await expect(page).toHaveURL(/\/c\/sid-staying(\?s=q)?$/)
  await visitor.close()

  // Her card is hers to change (ADR 106): a link to its personal email, then edit and remove.
  const own = await browser.newContext()
  const mine = await own.newPage()
  await mine.setViewportSize({ width: 375, height: 812 })
  await mine.goto(personalLink)
  await waitForHydration(mine)
  await mine.getByRole('link', { name: 'Edit or remove this card' }).click()
  await expect(
    mine.getByRole('heading', { name: 'Edit or remove this card', level: 1 }),
  ).toBeVisible()
  await mine.getByLabel('Personal email').fill(personalEmail)
  await mine.getByRole('button', { name: 'Email me a link' }).click()
  await expect(mine.getByRole('heading', { name: 'Check your email', level: 1 })).toBeVisible()
  const manageEmail = await newestEmailTo(personalEmail, 'Edit or remove your personal card')
  await mine.goto(linkIn(manageEmail, '/personal-card/manage?token='))
  await expect(
    mine.getByRole('heading', { name: 'Edit your personal card', level: 1 }),
  ).toBeVisible()
  await expect(mine.getByLabel('Personal phone')).toHaveValue('+44 20 7946 0101')
  await expectAccessible(mine, 'a personal card’s edit form')
  await waitForHydration(mine)
  await mine.getByLabel('Personal phone').fill('+44 20 7946 0202')
  await mine.getByRole('button', { name: 'Save my card' }).click()
  await expect(mine.getByText('Your personal card is saved.')).toBeVisible()
  await mine.getByRole('button', { name: 'Remove my card' }).click()
  const confirm = mine.getByRole('alertdialog', { name: 'Remove your personal card?' })
  await confirm.getByRole('button', { name: 'Remove my card' }).click()
  await expect(mine.getByText('Your personal card is removed.')).toBeVisible()
  expect((await mine.goto(personalLink))?.status()).toBe(404)
  await own.close()
})
