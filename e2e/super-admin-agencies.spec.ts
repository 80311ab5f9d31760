// The super admin's Agencies screen (roles-teams-admin.md §2.11, §3-§5, §8; issue 14 point 1):
// every element the spec names, the form's refusals, adding an agency whose owner sets a
// password from the emailed link and signs in on the new subdomain, details, edit, search,
// deactivating (the host says "site unavailable" at once) and activating again, delete.
import { type Browser, expect, type Page, test } from '@playwright/test'
import { SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE } from '#app/validation/search'
import { HOSTS, SUPER_ADMIN, urlFor } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { signedInAs } from './page-helpers'

const PATH = '/dashboard/super-admin/agencies'
const unique = () => Math.random().toString(36).slice(2, 8)

test.describe.configure({ timeout: 720_000 })

async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))
}

/** A context signed in as the super admin (a session made in the database), on their dashboard. */
const signInAsSuperAdmin = (browser: Browser) =>
  signedInAs(browser, SUPER_ADMIN, '/dashboard/super-admin')

const rowOf = (page: Page, name: string) => page.getByTestId('agency-row').filter({ hasText: name })

async function rowAction(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click()
  await page.getByRole('menuitem', { name: item }).click()
}

test('the super admin adds an agency whose owner signs in; deactivate, activate, delete', async ({
  browser,
}) => {
  const { context, page } = await signInAsSuperAdmin(browser)
  // The sidebar's Agencies entry leads here.
  await page.getByRole('link', { name: 'Agencies' }).first().click()
  await expect(page).toHaveURL(urlFor(HOSTS.platform, PATH))
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name: 'Agencies', level: 1 })).toBeVisible()
  await expect(page.getByRole('searchbox', { name: 'Search agencies' })).toBeVisible()
  for (const column of [
    'Agency Name',
    'Status',
    'Owner',
    'Team Size',
    'Subscription',
    'Approval',
    'Actions',
  ]) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
  }

  // The add dialog: the form's fields and its refusals (spec §5).
  await page.getByRole('button', { name: 'Add Agency' }).click()
  const add = page.getByRole('dialog', { name: 'Add Agency' })
  await expect(add.getByLabel('Active')).toBeChecked()
  await expect(add.getByLabel('Subscription')).toHaveValue('')
  const suffix = unique()
  const name = `Nova ${suffix}`
  const slug = `nova-${suffix}`
  const ownerEmail = `nova-owner-${suffix}@example.test`
  await add.getByLabel('Agency name').fill(name)
  await add.getByLabel('Owner name').fill('N')
  await add.getByLabel('Owner email').fill(ownerEmail)
  // The schema's messages, never the browser's tooltips (the form is noValidate).
  await expect(add.locator('form')).toHaveAttribute('novalidate')
  await add.getByRole('button', { name: 'Add Agency' }).click()
  await expect(add.getByText('Owner name must be at least 2 characters')).toBeVisible()
  await expect(add.getByText('Please select a plan')).toBeVisible()
  await add.getByLabel('Owner name').fill('Nora Nova')
  await add.getByLabel('Subscription').selectOption('professional')
  await add.getByRole('button', { name: 'Add Agency' }).click()
  await expect(page.getByText('Agency added')).toBeVisible()
  await expect(add).toBeHidden()
  const row = rowOf(page, name)
  await expect(row).toContainText(`${slug}.localhost`)
  await expect(row).toContainText('Active')
  await expect(row).toContainText('Nora Nova')
  // One name per plan (issue 41 point 15): the tier an agency buys as Agency Pro.
  await expect(row).toContainText('Agency Pro')
  await expect(row).toContainText('Approved')
  await expect(row.getByRole('cell').nth(3)).toHaveText('1')

  // Details.
  await rowAction(page, name, 'View Details')
  const details = page.getByRole('dialog', { name: 'Agency Details' })
  await expect(details).toContainText(ownerEmail)
  await expect(details).toContainText(`${slug}.localhost`)
  await details.getByRole('button', { name: 'Close' }).click()

  // The owner sets their password through the emailed link and signs in on the new host. The
  // super admin's outbox shows the link removed: only its recipient has it (ADR 028).
  const outbox = page.getByTestId('outbox-email').filter({ hasText: ownerEmail }).first()
  await page.goto(urlFor(HOSTS.platform, '/dev/outbox'))
  await expect(outbox).toContainText('Set your password')
  await expect(outbox.getByTestId('outbox-removed-link')).toContainText('/auth/reset-password')
  await expect(outbox.getByRole('link').filter({ hasText: '/auth/reset-password' })).toHaveCount(0)
  const link = linkIn(await newestEmailTo(ownerEmail, 'Set your password'), '/auth/reset-password')
  expect(link).toContain(`//${slug}.localhost:`)
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  await owner.goto(link)
  await waitForHydration(owner)
  await owner.getByLabel('New password').fill('nova-owner-pass-1')
  await owner.getByLabel('Confirm password').fill('nova-owner-pass-1')
  await owner.getByRole('button', { name: 'Reset Password' }).click()
  await expect(owner).toHaveURL(/\/auth\/login/)
  await waitForHydration(owner)
  await owner.getByLabel('Email').fill(ownerEmail)
  await owner.getByLabel('Password').fill('nova-owner-pass-1')
  await owner.getByRole('button', { name: 'Sign In' }).click()
  await expect(owner).toHaveURL(urlFor(`${slug}.localhost`, '/dashboard/agency'), {
    timeout: 60_000,
  })

  // Search by owner, then by address; nothing for a stranger's name.
  await page.goto(urlFor(HOSTS.platform, PATH))
  await waitForHydration(page)
  const search = page.getByRole('searchbox', { name: 'Search agencies' })
  await search.fill('Nora Nova')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByTestId('agency-row')).toHaveCount(1)
  await search.fill(`nobody-${suffix}`)
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByTestId('agencies-empty')).toContainText('No agencies match')
  await search.fill(slug)
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByTestId('agency-row')).toHaveCount(1)

  // A shared link with a query over the limit: the box's own message, what was typed kept,
  // no rows. Back and forward between it and a search that fits show each one's answer.
  const tooLong = slug.padEnd(SEARCH_MAX_LENGTH + 1, 'x')
  await page.goto(urlFor(HOSTS.platform, `${PATH}?q=${tooLong}`))
  await waitForHydration(page)
  await expect(page.getByText(SEARCH_TOO_LONG_MESSAGE)).toBeVisible()
  await expect(search).toHaveValue(tooLong)
  await expect(page.getByTestId('agency-row')).toHaveCount(0)
  await search.fill(slug)
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByTestId('agency-row')).toHaveCount(1)
  await expect(page.getByText(SEARCH_TOO_LONG_MESSAGE)).toHaveCount(0)
  await page.goBack()
  await expect(page.getByText(SEARCH_TOO_LONG_MESSAGE)).toBeVisible()
  await expect(page.getByTestId('agency-row')).toHaveCount(0)
  await page.goForward()
  await expect(page.getByTestId('agency-row')).toHaveCount(1)
  await expect(page.getByText(SEARCH_TOO_LONG_MESSAGE)).toHaveCount(0)

  // Edit.
  await rowAction(page, name, 'Edit')
  const edit = page.getByRole('dialog', { name: 'Edit Agency' })
  await expect(edit.getByLabel('Agency name')).toHaveValue(name)
  await edit.getByLabel('Subscription').selectOption('enterprise')
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Agency updated')).toBeVisible()
  await expect(rowOf(page, name)).toContainText('Enterprise')

  // Deactivate: the agency's host says "site unavailable" at once; activate brings it back.
  await rowAction(page, name, 'Deactivate')
  await expect(page.getByText('Agency deactivated')).toBeVisible()
  await expect(rowOf(page, name)).toContainText('Inactive')
  await owner.goto(urlFor(`${slug}.localhost`, '/auth/login'))
  await expect(owner.getByRole('heading', { name: 'Site unavailable' })).toBeVisible()
  await rowAction(page, name, 'Activate')
  await expect(page.getByText('Agency activated')).toBeVisible()
  // The owner, still signed in there, reaches their dashboard again.
  await owner.goto(urlFor(`${slug}.localhost`, '/dashboard/agency'))
  await expect(owner).toHaveURL(urlFor(`${slug}.localhost`, '/dashboard/agency'))
  await expect(owner.getByRole('heading', { name: 'Site unavailable' })).toHaveCount(0)

  // Reject and approve.
  await rowAction(page, name, 'Reject')
  await expect(page.getByText('Agency rejected')).toBeVisible()
  await expect(rowOf(page, name)).toContainText('Rejected')
  await rowAction(page, name, 'Approve')
  await expect(page.getByText('Agency approved')).toBeVisible()

  // Delete: Cancel keeps it, Delete removes it.
  await rowAction(page, name, 'Delete')
  const confirm = page.getByRole('alertdialog', { name: 'Delete Agency' })
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(rowOf(page, name)).toBeVisible()
  await rowAction(page, name, 'Delete')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Agency removed')).toBeVisible()
  await expect(rowOf(page, name)).toHaveCount(0)
  await owner.goto(urlFor(`${slug}.localhost`, '/auth/login'))
  await expect(owner.getByRole('heading', { name: 'No such site' })).toBeVisible()
  await ownerContext.close()
  await context.close()
})

test('at 375 px the table keeps name, status and actions', async ({ browser }) => {
  const { context, page } = await signInAsSuperAdmin(browser)
  await page.setViewportSize({ width: 375, height: 800 })
  await page.goto(urlFor(HOSTS.platform, PATH))
  await expect(page.getByRole('columnheader', { name: 'Agency Name' })).toBeVisible()
  await expect(page.getByRole('columnheader', { name: 'Team Size' })).toBeHidden()
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  )
  expect(overflow).toBe(false)
  await context.close()
})
