// Issue 31 point 3 (ADR 050) in one journey, on the production project: an agency admin sets
// the lead forms' consent text on Branding; a visitor's lead without the box ticked is refused
// with the message next to the box; with it, the lead gets a receipt email, opens its link,
// sees what is kept and deletes it; the card owner's CRM (the fake GoHighLevel) got the consent
// with the contact and sees the deletion, through the job queue.
import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'
import type { CrmRequest } from '#tests/fake-crm'
import { crmPort, urlFor } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.consenting
const [cleo] = agency.endUsers
const CONSENT = 'I agree that Cleo keeps my details to follow up on our conversation.'

type FakeCrmView = { validKeys: string[]; requests: CrmRequest[] }

/** The fake CRM's record; with keys, adds them to the valid ones (other specs share it). */
async function fakeCrm(addKeys: string[] = []): Promise<FakeCrmView> {
  const read = async (update: object) => {
    const response = await fetch(`http://127.0.0.1:${crmPort()}/__fake/state`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(update),
    })
    return (await response.json()) as FakeCrmView
  }
  const view = await read({})
  return addKeys.length ? read({ validKeys: [...view.validKeys, ...addKeys] }) : view
}

test('a lead is refused without consent; with it, gets a receipt and deletes itself, and the CRM hears both', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  if (!cleo) throw new Error('no card owner in the consenting agency')
  const key = `pit-consent-${randomUUID()}`
  const leadEmail = `lead-${randomUUID().slice(0, 8)}@example.test`

  // The agency admin sets the consent text (Branding, Domain Settings tab).
  const admin = await signedInAs(browser, agency.owner, '/dashboard/agency/branding?tab=domain')
  await admin.page.getByLabel('Consent text').fill(CONSENT)
  await admin.page.getByRole('button', { name: 'Save consent text' }).click()
  await expect(
    admin.page.getByText('Consent text saved: your lead forms show it from now on'),
  ).toBeVisible()
  await expect(admin.page.getByTestId('consent-version')).toContainText('Version 1')
  await admin.context.close()

  // Cleo forwards her contacts to GoHighLevel.
  await fakeCrm([key])
  const owner = await signedInAs(browser, cleo, '/api-settings')
  await waitForHydration(owner.page)
  await owner.page.getByLabel('API Key', { exact: true }).fill(key)
  await owner.page.getByRole('button', { name: 'Validate API Key' }).click()
  await expect(owner.page.getByText('API key is valid', { exact: true })).toBeVisible()
  await owner.page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(owner.page.getByText('API settings updated successfully').first()).toBeVisible()
  await owner.context.close()

  // A visitor (no session: the card page without React, ADR 022) leaves the box unticked.
  const visitor = await browser.newContext()
  const page = await visitor.newPage()
  await page.goto(urlFor(agency.host, '/card/cleo-leads'))
  await waitForHydration(page)
  const box = page.getByRole('checkbox', { name: CONSENT })
  await expect(box).not.toBeChecked()
  await page.getByLabel('Your name').fill('Lena Lead')
  await page.getByLabel('Your email').fill(leadEmail)
  await page.getByRole('button', { name: 'Send my details' }).click()
  await expect(box).toHaveAccessibleDescription(
    'Please tick the box to agree before sending your details',
  )
  await expect(box).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Thanks! Cleo will be in touch.')).toHaveCount(0)

  // Ticked, the lead is taken.
  await box.check()
  await page.getByRole('button', { name: 'Send my details' }).click()
  await expect(page.getByText('Thanks! Cleo will be in touch.')).toBeVisible()

  // The receipt, through the queue and the agency's host, with the words agreed to.
  const receipt = await newestEmailTo(leadEmail, 'Your details were shared with Cleo Leads')
  expect(receipt.text).toContain(CONSENT)
  const link = linkIn(receipt, '/lead-data?token=')
  expect(new URL(link).hostname).toBe(agency.host)

  // The CRM got the contact with its consent.
  await expect
    .poll(async () =>
      (await fakeCrm()).requests.find(
        (request) => request.path === '/contacts/upsert' && request.body?.email === leadEmail,
      ),
    )
    .toMatchObject({
      authorization: `Bearer ${key}`,
      body: { tags: expect.arrayContaining(['consent-given']) },
    })

  // Cleo sees the lead's consent in her contacts (version and time).
  const ownerAgain = await signedInAs(browser, cleo, '/contacts')
  const leadRow = ownerAgain.page.getByTestId('contact-row').filter({ hasText: leadEmail })
  await expect(leadRow.getByTestId('contact-consent')).toContainText('Consent v1')
  await expect(leadRow.getByTestId('contact-consent')).toContainText('given')
  await expectAccessible(ownerAgain.page, 'contacts with a consent badge')
  await ownerAgain.context.close()

  // The link shows what is kept, and deletes it.
  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Your data', level: 1 })).toBeVisible()
  await expect(page.getByText(leadEmail)).toBeVisible()
  await expect(page.getByText(CONSENT)).toBeVisible()
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Delete my data' }).click()
  await expect(
    page.getByRole('heading', { name: 'Your data has been deleted', level: 1 }),
  ).toBeVisible()

  // The CRM is told, through the job queue (the worker polls each second).
  await expect
    .poll(async () => (await fakeCrm()).requests.filter((request) => request.method === 'DELETE'), {
      timeout: 60_000,
    })
    .toContainEqual(expect.objectContaining({ authorization: `Bearer ${key}` }))

  // The link opens nothing any more.
  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Nothing to show', level: 1 })).toBeVisible()
  await visitor.close()
})
