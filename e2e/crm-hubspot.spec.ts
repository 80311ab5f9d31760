// HubSpot through the real UI (issue 43 point 4, ADR 094): the owner chooses HubSpot on the CRM
// integration screen, a refused token is said at its field, a good one is saved (masked after),
// and a visitor's lead on her card reaches the fake HubSpot beside the server (e2e/start-server.ts,
// tests/fake-hubspot.ts) upserted by email with a note naming the card; the screen shows it synced.
// The fake is shared by the server's tests: this spec only adds its own token and reads the
// requests carrying its lead's email.
import { randomUUID } from 'node:crypto'
import { type Browser, expect, test } from '@playwright/test'
import type { HubspotNote, HubspotRequest } from '#tests/fake-hubspot'
import { HOSTS, hubspotPort, urlFor } from './fixtures'
import { openAs, waitForHydration } from './page-helpers'
import { CRM_USERS } from './role-users'

test.describe.configure({ timeout: 180_000 })

type FakeHubspotView = {
  validTokens: string[]
  requests: HubspotRequest[]
  contacts: { id: string; properties: Record<string, string> }[]
  notes: HubspotNote[]
}

async function fakeHubspot(update: { validTokens?: string[] } = {}): Promise<FakeHubspotView> {
  const response = await fetch(`http://127.0.0.1:${hubspotPort()}/__fake/state`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(update),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as FakeHubspotView
}

async function leaveLead(browser: Browser, lead: { name: string; email: string }) {
  const visitor = await browser.newContext()
  const page = await visitor.newPage()
  await page.goto(urlFor(HOSTS.alpha, '/card/hana-hubspot'))
  await waitForHydration(page)
  await page.getByLabel('Your name').fill(lead.name)
  await page.getByLabel('Your email').fill(lead.email)
  await page.getByRole('button', { name: 'Send my details' }).click()
  await expect(page.getByText('Thanks! Hana will be in touch.')).toBeVisible()
  await visitor.close()
}

test('an owner connects HubSpot and a visitor’s lead arrives there with a note', async ({
  page,
  browser,
}) => {
  const user = CRM_USERS.hubspot
  const token = `pat-na1-${randomUUID()}`
  const { validTokens } = await fakeHubspot()
  await fakeHubspot({ validTokens: [...validTokens, token] })

  await openAs(page, user, '/api-settings')
  await waitForHydration(page)
  await page
    .getByRole('navigation', { name: 'Your CRM' })
    .getByRole('link', { name: 'HubSpot' })
    .click()
  await expect(page).toHaveURL(urlFor(user.host, '/api-settings?crm=hubspot'))
  await expect(page.getByRole('heading', { name: 'How to get your HubSpot token' })).toBeVisible()
  const tokenField = page.getByLabel('Private app access token')

  // A token HubSpot refuses: said at the field, nothing saved.
  await tokenField.fill('pat-na1-not-a-token')
  await page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(tokenField).toHaveAccessibleDescription(/HubSpot refused this access token/)
  await expect(tokenField).toHaveAttribute('aria-invalid', 'true')

  // The real one: saved, masked, and HubSpot is the connected CRM.
  await tokenField.fill(token)
  await page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(
    page.locator('[data-sonner-toaster]').getByText('API settings updated successfully'),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: 'HubSpot (connected)' })).toBeVisible()
  await expect(tokenField).toHaveValue('')
  await expect(tokenField).toHaveAttribute(
    'placeholder',
    `Saved token ending in ${token.slice(-4)}`,
  )
  expect(await page.content()).not.toContain(token)

  const lead = { name: 'Holly Hub', email: `holly-${randomUUID().slice(0, 8)}@example.test` }
  await leaveLead(browser, lead)
  const row = page.getByTestId('crm-sync').filter({ hasText: lead.email })
  await expect(async () => {
    await page.reload()
    await expect(row).toContainText('Synced', { timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect(row).toContainText('HubSpot')

  const view = await fakeHubspot()
  const upserts = view.requests.filter(
    (request) =>
      request.path === '/crm/v3/objects/contacts/batch/upsert' &&
      JSON.stringify(request.body).includes(lead.email),
  )
  expect(upserts).toHaveLength(1)
  expect(upserts[0]?.authorization).toBe(`Bearer ${token}`)
  const contact = view.contacts.find((c) => c.properties.email === lead.email)
  expect(contact?.properties).toMatchObject({ firstname: 'Holly', lastname: 'Hub' })
  const notes = view.notes.filter((note) => note.contactIds.includes(contact?.id ?? ''))
  expect(notes).toHaveLength(1)
  expect(notes[0]?.properties.hs_note_body).toContain("&quot;Hana's Card&quot;")
})
