// Issue 42 point 2 (ADR 089) on the real server: an agency admin opens Directory Sync from the
// sidebar, makes a token (shown once, copied), and an identity provider's calls, sent from no
// page and with no Origin, create a person and deactivate them; the provisioning log shows each
// call and opens to what came and what changed. At a phone's width the screen does not scroll
// sideways. Then (point 3) the directory takes over a person's account, the admin maps title and
// department, and the person's card editor shows them from the directory, read only.
import http from 'node:http'
import { expect, type Page, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { expectAccessible, signedInAs } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.directory
// The first test finds the screen empty (no tokens, no calls): the second comes after it.
test.describe.configure({ mode: 'serial' })
const PATH = '/dashboard/agency/scim'

/**
 * The provider's calls: server to server, no Origin, no cookie. Node does not resolve
 * *.localhost, so they go to the loopback address with the agency's Host.
 */
function scimClient(baseUrl: string, token: string) {
  const url = new URL(baseUrl)
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; type: string; json: Record<string, unknown> }>(
      (resolve, reject) => {
        const payload = body === undefined ? '' : JSON.stringify(body)
        const request = http.request(
          {
            host: '127.0.0.1',
            port: url.port,
            method,
            path: `${url.pathname}${path}`,
            headers: {
              Host: url.host,
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/scim+json',
              'Content-Length': Buffer.byteLength(payload),
              ...headers,
            },
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
        request.end(payload)
      },
    )
}

/** A new token named `name`, made on the open Directory Sync screen; its secret. */
async function createToken(page: Page, name: string) {
  await page.getByLabel('Token name').fill(name)
  await page.getByRole('button', { name: 'Create token' }).click()
  const secret = page.getByLabel('Secret token')
  await expect(secret).toBeVisible()
  return secret.inputValue()
}

test('a token made once drives SCIM calls the log shows', async ({ browser }) => {
  test.setTimeout(90_000)
  const { context, page } = await signedInAs(browser, agency.owner, '/dashboard/agency')
  await page
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'Directory Sync', exact: true })
    .click()
  await expect(page).toHaveURL(urlFor(agency.host, PATH))
  await expect(page.getByRole('heading', { name: 'Directory Sync', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No tokens yet' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No calls yet' })).toBeVisible()
  const baseUrl = await page.getByLabel('SCIM base URL').inputValue()
  expect(baseUrl).toBe(urlFor(agency.host, '/scim/v2'))

  // Sent empty, the name's message shows next to it; then a token, shown once.
  await page.getByRole('button', { name: 'Create token' }).click()
  await expect(page.getByText('Please name the token')).toBeVisible()
  const token = await createToken(page, 'Microsoft Entra')
  expect(token).toMatch(/^bcscim_/)
  await expect(page.getByRole('cell', { name: 'Microsoft Entra', exact: true })).toBeVisible()

  const call = scimClient(baseUrl, token)
  const created = await call('POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: 'pat.provisioned@directory.test',
    name: { givenName: 'Pat', familyName: 'Provisioned' },
    emails: [{ primary: true, type: 'work', value: 'pat.provisioned@directory.test' }],
    externalId: 'e2e-pat',
    active: true,
  })
  expect(created.status).toBe(201)
  expect(created.type).toContain('application/scim+json')
  const id = created.json.id as string
  const off = await call('PATCH', `/Users/${id}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
  })
  expect(off.status).toBe(200)
  expect(off.json.active).toBe(false)
  // A browser's cross-site write, with an Origin, is still refused.
  const forged = await call('DELETE', `/Users/${id}`, undefined, { Origin: 'https://evil.test' })
  expect(forged.status).toBe(403)

  // The log: newest first, each call opening to what came and what changed.
  await page.reload()
  const calls = page.getByRole('list').filter({ hasText: '/scim/v2/Users' })
  await expect(calls.getByText('201', { exact: true })).toBeVisible()
  await calls.getByText('PATCH', { exact: true }).click()
  await expect(page.getByRole('heading', { name: 'What changed' })).toBeVisible()
  await expect(page.getByText('"inactive"').first()).toBeVisible()
  // Axe (WCAG 2.2 AA) on the screen with a token, its log and an opened call.
  await expectAccessible(page, 'Directory Sync with an opened call')
  await page.getByRole('link', { name: 'Failed' }).click()
  await expect(page.getByRole('heading', { name: 'No calls yet' })).toBeVisible()

  // A phone's width: nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 })
  await page.goto(urlFor(agency.host, PATH))
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)
  // The keyboard reaches the rotate dialog, which opens and closes with Escape.
  await page.getByRole('button', { name: 'Rotate Microsoft Entra' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Rotate Microsoft Entra' })).toBeVisible()
  await expectAccessible(page, 'Directory Sync: rotate dialog at 375 px')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // Rotated, a new token is shown once and the old one keeps working through the overlap;
  // revoked, the old one is refused at once.
  await page.getByRole('button', { name: 'Rotate Microsoft Entra' }).click()
  await page
    .getByRole('dialog', { name: 'Rotate Microsoft Entra' })
    .getByRole('button', { name: 'Rotate token' })
    .click()
  const rotated = page.getByLabel('Secret token')
  await expect(rotated).toHaveValue(/^bcscim_/)
  expect(await rotated.inputValue()).not.toBe(token)
  expect((await call('GET', '/Users?count=1')).status).toBe(200)
  await page
    .getByRole('row')
    .filter({ hasText: 'Working until its overlap ends' })
    .getByRole('button', { name: 'Revoke Microsoft Entra' })
    .click()
  await page
    .getByRole('alertdialog', { name: 'Revoke Microsoft Entra?' })
    .getByRole('button', { name: 'Revoke token' })
    .click()
  await expect(page.getByRole('cell', { name: 'Revoked', exact: true })).toBeVisible()
  expect((await call('GET', '/Users?count=1')).status).toBe(401)
  await context.close()
})

test("the fields the directory holds follow it on the person's card and are read only there", async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const dana = agency.endUsers[0] as NonNullable<(typeof agency.endUsers)[number]>
  const { context, page } = await signedInAs(browser, agency.owner, PATH)
  const call = scimClient(
    await page.getByLabel('SCIM base URL').inputValue(),
    await createToken(page, 'Okta'),
  )
  // The directory takes over Dana's existing account, with her title and department.
  const found = await call(
    'GET',
    `/Users?filter=${encodeURIComponent(`userName eq "${dana.email}"`)}`,
  )
  const [row] = found.json.Resources as { id: string }[]
  const patched = await call('PATCH', `/Users/${row?.id}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [
      { op: 'replace', path: 'externalId', value: 'okta-dana' },
      { op: 'replace', path: 'title', value: 'Head of Research' },
      {
        op: 'replace',
        path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
        value: 'Research',
      },
    ],
  })
  expect(patched.status).toBe(200)

  // The admin maps title and department: Dana's card follows at once.
  await page.reload()
  await page.getByLabel("Job title, from the directory's title").check()
  await page.getByLabel('Department, from the enterprise department').check()
  await page.getByRole('button', { name: 'Save fields' }).click()
  await expect(page.getByText('Saved: 1 card follows the directory now').first()).toBeVisible()

  // Dana's editor shows them read only, with the reason.
  const own = await signedInAs(browser, dana, '/dashboard/end-user/digital-cards')
  await own.page.getByRole('link', { name: /^Edit / }).click()
  const title = own.page.getByLabel('Job title')
  await expect(title).toHaveValue('Head of Research')
  await expect(title).toHaveAttribute('readonly', '')
  await expect(
    own.page.getByText("Job title follows your organization's directory (HR)"),
  ).toBeVisible()
  const department = own.page.getByLabel('Department')
  await expect(department).toHaveValue('Research')
  await expect(department).toHaveAttribute('readonly', '')
  // Her card shows them under her name.
  await expect(own.page.getByTestId('card-display').first()).toContainText(
    'Head of Research · Research',
  )
  await Promise.all([context.close(), own.context.close()])
})
