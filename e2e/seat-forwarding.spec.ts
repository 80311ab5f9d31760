// Issue 31 point 2 (ADR 049), on the production project: Dora's short link is served (and kept
// by the page cache), the agency admin hands her seat over to Sam and deactivates her, and from
// then on her short link, her name link and the capitals her QR code carries all open Sam's
// card (the change feed dropped the cached page); Sam owns the contact Dora gathered. The
// forwarding overview lists Dora → Sam; clearing it (confirmed) brings the agency's message back.
import { expect, test } from '@playwright/test'
import { DEFAULT_FORWARDING_MESSAGE } from '#app/validation/seat-forwarding'
import { urlFor } from './fixtures'
import { expectAccessible, signedInAs } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.handover
const [, sam] = agency.endUsers

test("a departed user's links open the successor's card, who owns her contacts", async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const visitor = await browser.newContext()
  const page = await visitor.newPage()
  // Active: her card, answered (and stored) by the page cache.
  await page.goto(urlFor(agency.host, '/c/dora-departing'))
  await expect(page.getByText('Dora Departing').first()).toBeVisible()

  const { context: adminContext, page: admin } = await signedInAs(
    browser,
    agency.owner,
    '/dashboard/agency/users',
  )
  await admin.getByRole('button', { name: 'Actions for Dora Departing' }).click()
  await admin.getByRole('menuitem', { name: 'Hand Over' }).click()
  const dialog = admin.getByRole('dialog', { name: 'Hand Over' })
  await dialog.getByLabel('Successor').selectOption({ label: 'Sam Successor' })
  await dialog.getByRole('button', { name: 'Hand Over' }).click()
  await expect(
    admin.getByText("Dora Departing's seat handed over to Sam Successor (1 contact moved)"),
  ).toBeVisible()
  await admin.getByRole('button', { name: 'Actions for Dora Departing' }).click()
  await admin.getByRole('menuitem', { name: 'Deactivate' }).click()
  await expect(admin.getByText('User deactivated')).toBeVisible()
  // The forwarding overview says who forwards to whom.
  await expect(admin.getByTestId('forwarding-row')).toHaveText(
    /Dora Departing forwards to Sam Successor/,
  )
  await expectAccessible(admin, 'forwarding overview')

  // Her short link, her name link and what her QR code carries: Sam's card.
  for (const path of ['/c/dora-departing', '/card/dora-departing', '/C/DORA-DEPARTING']) {
    await page.goto(urlFor(agency.host, path))
    await expect(page, path).toHaveURL(/\/c\/sam-successor(\?s=q)?$/)
    await expect(page.getByText('Sam Successor').first(), path).toBeVisible()
    await expect(page.getByText('Dora Departing'), path).toHaveCount(0)
  }

  // Clearing the successor (confirmed) sends her links back to the agency's default message.
  await admin.getByRole('button', { name: 'Clear the successor of Dora Departing' }).click()
  const confirm = admin.getByRole('alertdialog', { name: 'Clear Successor' })
  await confirm.getByRole('button', { name: 'Clear Successor' }).click()
  await expect(
    admin.getByText("Dora Departing's links now answer your agency's default"),
  ).toBeVisible()
  await expect(admin.getByTestId('forwarding-row')).toHaveCount(0)
  await adminContext.close()
  await page.goto(urlFor(agency.host, '/c/dora-departing'))
  await expect(page.getByText(DEFAULT_FORWARDING_MESSAGE)).toBeVisible()
  await visitor.close()

  const { context: samContext, page: samPage } = await signedInAs(browser, sam, '/contacts')
  await expect(samPage.getByTestId('contact-row').filter({ hasText: 'Carla Client' })).toHaveCount(
    1,
  )
  await samContext.close()
})
