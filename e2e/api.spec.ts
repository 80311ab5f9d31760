// Issue 43 points 1 and 2 (ADR 092) on the production server (Postgres, the app login under
// RLS): an agency admin opens API from the sidebar, makes a key (shown once), and a request with
// it, sent from no page, lists the agency's cards; another agency's key, made the same way, sees
// none of them, and is refused on the first agency's host. The screen and the reference fit a
// phone's width and pass axe.
import http from 'node:http'
import { expect, type Page, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { expectAccessible, signedInAs } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.integrator
const other = SPEC_AGENCIES.bystander
const PATH = '/dashboard/agency/api'

/** A server-to-server GET: no Origin, no cookie; Node does not resolve *.localhost. */
function apiGet(baseUrl: string, key: string, path: string) {
  const url = new URL(baseUrl)
  return new Promise<{ status: number; type: string; json: Record<string, unknown> }>(
    (resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: url.port,
          method: 'GET',
          path: `${url.pathname}${path}`,
          headers: { Host: url.host, Authorization: `Bearer ${key}` },
        },
        (response) => {
          let text = ''
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8')
          })
          response.on('end', () => {
            let json: Record<string, unknown> = {}
            try {
              json = JSON.parse(text) as Record<string, unknown>
            } catch {}
            resolve({
              status: response.statusCode ?? 0,
              type: String(response.headers['content-type'] ?? ''),
              json,
            })
          })
        },
      )
      request.on('error', reject)
      request.end()
    },
  )
}

/** A key named `name` with the cards' read permission, made on the open API screen. */
async function createKey(page: Page, name: string) {
  await page.getByLabel('Key name').fill(name)
  await page.getByRole('checkbox', { name: 'Read Cards and their analytics' }).check()
  await page.getByRole('button', { name: 'Create key' }).click()
  const secret = page.getByLabel('API key', { exact: true })
  await expect(secret).toBeVisible()
  return secret.inputValue()
}

const firstNames = (call: { json: Record<string, unknown> }) =>
  (call.json.data as { first_name: string }[]).map((card) => card.first_name)

test("a key made once lists the agency's cards; another agency's key sees none", async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const { context, page } = await signedInAs(browser, agency.owner, '/dashboard/agency')
  await page
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'API', exact: true })
    .click()
  await expect(page).toHaveURL(urlFor(agency.host, PATH))
  await expect(page.getByRole('heading', { name: 'API', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No keys yet' })).toBeVisible()
  const baseUrl = await page.getByLabel('API base URL').inputValue()
  expect(baseUrl).toBe(urlFor(agency.host, '/api/v1'))

  // Sent without permissions, the message says so; then a key, shown once.
  await page.getByLabel('Key name').fill('Intranet')
  await page.getByRole('button', { name: 'Create key' }).click()
  await expect(page.getByText('Please choose at least one permission')).toBeVisible()
  const key = await createKey(page, 'Intranet')
  expect(key).toMatch(/^bck_[0-9A-Za-z]{36}$/)
  await expect(page.getByRole('cell', { name: 'Intranet cards:read' })).toBeVisible()
  // Shown once: a reload shows only its last four characters.
  await page.reload()
  await expect(page.getByLabel('API key', { exact: true })).toHaveCount(0)
  await expect(page.getByText(key.slice(-4))).toBeVisible()

  const mine = await apiGet(baseUrl, key, '/cards')
  expect(mine.status).toBe(200)
  expect(mine.type).toContain('application/json')
  expect(firstNames(mine)).toContain('Ivy')
  // The screen shows the key's last use and its address.
  await page.reload()
  await expect(page.getByText(/^from /)).toBeVisible()
  await expectAccessible(page, 'API keys with a key')

  // A phone's width: nothing scrolls sideways, here or on the reference.
  await page.setViewportSize({ width: 375, height: 800 })
  for (const path of [PATH, `${PATH}/reference`]) {
    await page.goto(urlFor(agency.host, path))
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow, path).toBeLessThanOrEqual(0)
  }
  await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible()
  await expect(page.getByText('/cards/{cardId}/analytics')).toBeVisible()
  await expectAccessible(page, 'API reference at 375 px')
  await context.close()

  // The other agency's admin makes a key the same way: it lists its own cards, none of these.
  const second = await signedInAs(browser, other.owner, PATH)
  const otherBase = await second.page.getByLabel('API base URL').inputValue()
  const otherKey = await createKey(second.page, 'Elsewhere')
  await second.context.close()
  const theirs = await apiGet(otherBase, otherKey, '/cards')
  expect(theirs.status).toBe(200)
  expect(firstNames(theirs)).toContain('Bo')
  expect(firstNames(theirs)).not.toContain('Ivy')
  const mineIds = (mine.json.data as { id: string }[]).map((card) => card.id)
  const theirIds = (theirs.json.data as { id: string }[]).map((card) => card.id)
  expect(theirIds.some((id) => mineIds.includes(id))).toBe(false)
  // On the first agency's host the other agency's key is unknown.
  const across = await apiGet(baseUrl, otherKey, '/cards')
  expect(across.status).toBe(401)
  expect(across.type).toContain('application/problem+json')
})
