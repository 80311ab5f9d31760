// The team member's 'My End Users' (roles-teams-admin.md §2.13): the assigned users with a
// Generate QR button per row and in the details view, Add User and Export Data.
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE } from '#app/validation/search'
import { HOSTS, urlFor } from './fixtures'
import { expectAccessible, openAs } from './page-helpers'
import { ALPHA_ROLE_USERS, type RoleUser } from './role-users'

const tia = ALPHA_ROLE_USERS.find((user) => user.role === 'team_admin') as RoleUser
const alice = ALPHA_ROLE_USERS.find((user) => user.role === 'end_user') as RoleUser
const unique = () => Math.random().toString(36).slice(2, 8)

test.describe.configure({ timeout: 360_000 })

async function decodeQr(bytes: Buffer) {
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null
}

test('My End Users: the assigned users, their QR codes, Add User and Export Data', async ({
  page,
}) => {
  await openAs(page, tia, '/dashboard/team-member')
  await page
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'End Users' })
    .click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/team-member/users'))
  await expect(page.getByRole('heading', { name: 'My End Users' })).toBeVisible()
  for (const header of ['User', 'Status', 'Last Active']) {
    await expect(page.getByRole('columnheader', { name: header })).toBeVisible()
  }
  const row = page.getByTestId('end-user-row').filter({ hasText: alice.email })
  await expect(row).toContainText(`${alice.firstName} ${alice.lastName}`)
  await expect(row).toContainText('Active')

  // Generate QR: the QR of the user's card, which decodes to its public link.
  await row.getByRole('button', { name: /^Generate QR/ }).click()
  await expect(page.getByText('QR Code Generated')).toBeVisible()
  const dialog = page.getByRole('dialog', {
    name: `QR code of ${alice.firstName} ${alice.lastName}`,
  })
  const qr = dialog.getByRole('img', { name: /QR code linking to/ })
  await expect(qr).toBeVisible()
  const src = (await qr.getAttribute('src')) ?? ''
  // Fetched by the page (Node cannot resolve *.localhost; the browser maps it to loopback).
  const bytes = await page.evaluate(async (url) => {
    const response = await fetch(url)
    return response.ok ? [...new Uint8Array(await response.arrayBuffer())] : []
  }, src)
  expect(bytes.length).toBeGreaterThan(0)
  // The card's short link (ADR 041), which the code carries in capitals (counted as a scan).
  const link = (await decodeQr(Buffer.from(bytes)))?.toLowerCase() ?? ''
  expect(link).toMatch(new RegExp(`^${urlFor(HOSTS.alpha, '/c/')}[a-z0-9-]+$`))
  await expect(dialog).toContainText(link)
  await expectAccessible(page, 'QR dialog')
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The details view has its own Generate QR.
  await row.getByRole('button', { name: /^View/ }).click()
  const details = page.getByRole('dialog', { name: `${alice.firstName} ${alice.lastName}` })
  await expect(details).toContainText('Digital cards')
  await expect(details.getByRole('button', { name: /^Generate QR/ })).toBeEnabled()
  await details.getByRole('button', { name: 'Close' }).click()

  // Add User: the spec's message for a short name, then a new end user assigned to Tia.
  const email = `gina-${unique()}@example.test`
  await page.getByRole('button', { name: 'Add User' }).click()
  const add = page.getByRole('dialog', { name: 'Add User' })
  await add.getByLabel('Name').fill('G')
  await add.getByLabel('Email').fill(email)
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(add.getByText('Name must be at least 2 characters')).toBeVisible()
  await add.getByLabel('Name').fill('Gina Generated')
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(page.getByText('User added')).toBeVisible()
  const gina = page.getByTestId('end-user-row').filter({ hasText: email })
  await expect(gina).toContainText('Gina Generated')
  // No card yet: nothing to generate.
  await expect(gina.getByRole('button', { name: /^Generate QR/ })).toBeDisabled()

  // An over-long search is answered next to the box, not cut to the limit without a word.
  await page.getByLabel('Search end users').fill('g'.repeat(SEARCH_MAX_LENGTH + 1))
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByText(SEARCH_TOO_LONG_MESSAGE)).toBeVisible()
  await expect(page).not.toHaveURL(/[?&]q=/)
  // The same query in a shared link: the loader's answer, the same message next to the box,
  // what was typed kept in it, and no rows (never the list searched for its first 100).
  const tooLong = 'g'.repeat(SEARCH_MAX_LENGTH + 1)
  await page.goto(urlFor(HOSTS.alpha, `/dashboard/team-member/users?q=${tooLong}`))
  await expect(page.getByText(SEARCH_TOO_LONG_MESSAGE)).toBeVisible()
  await expect(page.getByLabel('Search end users')).toHaveValue(tooLong)
  await expect(page.getByLabel('Search end users')).toHaveAccessibleDescription(
    SEARCH_TOO_LONG_MESSAGE,
  )
  await expect(page.getByTestId('end-user-row')).toHaveCount(0)

  // Search narrows the list.
  await page.getByLabel('Search end users').fill('gina')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByTestId('end-user-row')).toHaveCount(1)

  // Export Data downloads the (searched) list as CSV.
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export Data' }).click()
  const download = await downloading
  const csv = await readFile((await download.path()) ?? '', 'utf8')
  expect(csv).toContain('"First name","Last name","Email"')
  expect(csv).toContain(email)
  expect(csv).not.toContain(alice.email)

  // Phone width: the table keeps name, status and actions.
  await page.setViewportSize({ width: 375, height: 800 })
  await expect(gina.getByRole('button', { name: /^Generate QR/ })).toBeVisible()
})
