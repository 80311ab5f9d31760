// The super admin's End Users and Admin Team screens (roles-teams-admin.md §2.11, §5, §8):
// reached from the sidebar; search and filter; add, edit, deactivate, export and delete an end
// user; add, view, edit and delete a staff member. Other specs share the server and count
// platform users: every row here is this spec's own (unique emails), and no total is asserted.
import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { HOSTS, SUPER_ADMIN, TENANTS, urlFor } from './fixtures'
import { filterList, signInWithSession } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

test.describe.configure({ timeout: 540_000 })

const unique = () => Math.random().toString(36).slice(2, 8)

/** Starts signed in as the super admin (a session made in the database), on their dashboard. */
const signInAsSuperAdmin = (page: Page) =>
  signInWithSession(page, SUPER_ADMIN, '/dashboard/super-admin')

const rowMenu = (page: Page, name: string) =>
  page.getByRole('button', { name: `Actions for ${name}` })

test('End Users: add, search and filter, edit, deactivate, export, delete', async ({ page }) => {
  const mark = unique()
  const email = `end-${mark}@example.test`
  await signInAsSuperAdmin(page)
  await page.getByTestId('sidebar').getByRole('link', { name: 'End Users' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.platform, '/dashboard/super-admin/users'))
  await expect(page.getByRole('heading', { name: 'End Users', level: 1 })).toBeVisible()
  for (const column of ['User', 'Email', 'Agency', 'Status', 'Last Active', 'Actions']) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
  }
  await expect(page.getByRole('link', { name: 'Export Data' })).toBeVisible()
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeVisible()

  // Add User: the spec's messages first, then a real user of Alpha.
  await page.getByRole('button', { name: 'Add User' }).click()
  const add = page.getByRole('dialog', { name: 'Add User' })
  await add.getByLabel('Name').fill('N')
  await add.getByLabel('Email').fill(email)
  await add.getByLabel('Agency').selectOption({ label: TENANTS.alpha.name })
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(add.getByText('Name must be at least 2 characters')).toBeVisible()
  await add.getByLabel('Name').fill(`Erin End${mark}`)
  await expect(add.getByLabel('Active')).toBeChecked()
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(page.getByText('User added', { exact: true })).toBeVisible()

  await filterList(page, mark, { Agency: TENANTS.alpha.name })
  const row = page.getByTestId('end-user-row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText(TENANTS.alpha.name)
  await expect(row.getByTestId('user-status')).toHaveText('Active')
  await expect(row).toContainText('Never')

  // Edit.
  await rowMenu(page, `Erin End${mark}`).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit User' })
  await edit.getByLabel('Name').fill(`Erin Edited${mark}`)
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('User updated', { exact: true })).toBeVisible()
  await expect(row).toContainText(`Erin Edited${mark}`)

  // Deactivate; the status filter finds the row among inactive users only.
  await rowMenu(page, `Erin Edited${mark}`).click()
  await page.getByRole('menuitem', { name: 'Deactivate' }).click()
  await expect(page.getByText('User deactivated', { exact: true })).toBeVisible()
  await expect(row.getByTestId('user-status')).toHaveText('Inactive')
  await filterList(page, mark, { Status: 'Active' })
  await expect(page.getByText('No users match this search or filter.')).toBeVisible()
  await filterList(page, mark, { Status: 'Inactive' })
  await expect(row).toHaveCount(1)

  // Export Data: the filtered list as CSV.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export Data' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('end-users.csv')
  const csv = readFileSync((await download.path()) as string, 'utf8')
  expect(csv).toContain('"Name","Email","Agency","Role","Status","Last Active","Created"')
  expect(csv).toContain(
    `"Erin Edited${mark}","${email}","${TENANTS.alpha.name}","End User","inactive"`,
  )
  expect(csv.trim().split('\r\n')).toHaveLength(2)

  // Activate again, then delete with confirmation.
  await rowMenu(page, `Erin Edited${mark}`).click()
  await page.getByRole('menuitem', { name: 'Activate' }).click()
  await expect(page.getByText('User activated', { exact: true })).toBeVisible()
  await filterList(page, mark, { Status: 'All statuses' })
  await rowMenu(page, `Erin Edited${mark}`).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete User' })
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeVisible()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('User removed', { exact: true })).toBeVisible()
  await expect(row).toHaveCount(0)
})

async function changeRole(page: Page, name: string, role: string) {
  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'Change Role' }).click()
  const dialog = page.getByRole('dialog', { name: 'Change Role' })
  await dialog.getByLabel('Role').selectOption({ label: role })
  await dialog.getByRole('button', { name: 'Update Role' }).click()
  return dialog
}

test('End Users: promote to Team Member and back, the row staying listed; a refused role change toasts', async ({
  page,
}) => {
  const mark = unique()
  const name = `Paula Promote${mark}`
  await signInAsSuperAdmin(page)
  await page.goto(urlFor(HOSTS.platform, '/dashboard/super-admin/users'))
  await page.getByRole('button', { name: 'Add User' }).click()
  const add = page.getByRole('dialog', { name: 'Add User' })
  await add.getByLabel('Name').fill(name)
  await add.getByLabel('Email').fill(`promote-${mark}@example.test`)
  await add.getByLabel('Agency').selectOption({ label: TENANTS.alpha.name })
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(page.getByText('User added', { exact: true })).toBeVisible()
  await filterList(page, mark)
  const row = page.getByTestId('end-user-row').filter({ hasText: name })
  await expect(row.getByTestId('user-role')).toHaveText('End User')

  // Promoted, the team member stays on this list with their new role, and can be changed back.
  await changeRole(page, name, 'Team Member')
  await expect(page.getByText('User role updated to Team Member successfully')).toBeVisible()
  await expect(row.getByTestId('user-role')).toHaveText('Team Member')
  await filterList(page, mark, { Role: 'Team Member' })
  await expect(row).toHaveCount(1)
  await filterList(page, mark, { Role: 'All roles' })
  await changeRole(page, name, 'End User')
  await expect(page.getByText('User role updated to End User successfully')).toBeVisible()
  await expect(row.getByTestId('user-role')).toHaveText('End User')

  // An agency's owner who is its only agency admin (seeded as Add Agency leaves one,
  // e2e/spec-accounts.ts; super-admin-agencies.spec.ts goes through the form): demoting them is
  // refused, with the toast (accounts §8) and the reason beside the role.
  const solo = SPEC_AGENCIES.solo.owner
  const soloName = `${solo.firstName} ${solo.lastName}`
  await filterList(page, 'solo-owner')
  const owner = page.getByTestId('end-user-row').filter({ hasText: soloName })
  await expect(owner.getByTestId('user-role')).toHaveText('Agency Admin')
  const dialog = await changeRole(page, soloName, 'Agency Member')
  await expect(page.getByText('Failed to update user role')).toBeVisible()
  await expect(
    dialog.getByText('An agency must keep at least one active agency admin'),
  ).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(owner.getByTestId('user-role')).toHaveText('Agency Admin')
})

test('Admin Team: add, view, edit, change role and delete a staff member', async ({ page }) => {
  const mark = unique()
  const email = `staff-${mark}@example.test`
  const name = `Stan Staff${mark}`
  await signInAsSuperAdmin(page)
  await page.getByTestId('sidebar').getByRole('link', { name: 'Admin Team' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.platform, '/dashboard/super-admin/team'))
  await expect(page.getByRole('heading', { name: 'Admin Team', level: 1 })).toBeVisible()
  for (const column of ['Name', 'Email', 'Role', 'Last Active', 'Actions']) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
  }

  await page.getByRole('button', { name: 'Add Team Member' }).click()
  const add = page.getByRole('dialog', { name: 'Add Team Member' })
  await add.getByLabel('Name').fill(name)
  await add.getByLabel('Email').fill(email)
  await add.getByLabel('Role', { exact: true }).selectOption({ label: 'Security Officer' })
  await add.getByLabel('Password').fill('short')
  await add.getByRole('button', { name: 'Add Member' }).click()
  await expect(add.getByText('Password must be at least 8 characters')).toBeVisible()
  await add.getByLabel('Password').fill('staff-pass-1')
  await add.getByRole('button', { name: 'Add Member' }).click()
  await expect(page.getByText('Team member added successfully')).toBeVisible()

  await filterList(page, mark)
  const row = page.getByTestId('staff-row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Security Officer')
  await expect(row).toContainText('Super Admin Team')

  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'View Details' }).click()
  const details = page.getByRole('dialog', { name: 'Team Member Details' })
  await expect(details).toContainText(email)
  await expect(details).toContainText('Security Officer')
  await details.getByRole('button', { name: 'Close' }).click()

  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Team Member' })
  await expect(edit.getByText('Leave blank to keep the current password.')).toBeVisible()
  await edit.getByLabel('Role', { exact: true }).selectOption({ label: 'Content Manager' })
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Team member updated successfully')).toBeVisible()
  await expect(row).toContainText('Content Manager')

  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'Change Role' }).click()
  const role = page.getByRole('dialog', { name: 'Change Role' })
  await role.getByLabel('Role').selectOption({ label: 'Super Admin' })
  await role.getByRole('button', { name: 'Update Role' }).click()
  await expect(page.getByText('User role updated to Super Admin successfully')).toBeVisible()
  await filterList(page, mark, { Access: 'Super Admin' })
  await expect(row).toHaveCount(1)

  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  await page
    .getByRole('alertdialog', { name: 'Delete Team Member' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page.getByText('Team member removed')).toBeVisible()
  await expect(row).toHaveCount(0)
})

test('at 375 px both screens fit the width, with the narrow columns folded away', async ({
  page,
}) => {
  await signInAsSuperAdmin(page)
  await page.setViewportSize({ width: 375, height: 740 })
  for (const path of ['/dashboard/super-admin/users', '/dashboard/super-admin/team']) {
    await page.goto(urlFor(HOSTS.platform, path))
    await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'Email', exact: true })).toBeHidden()
    await expect(page.getByRole('columnheader', { name: 'Last Active' })).toBeHidden()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow, path).toBeLessThanOrEqual(0)
  }
})
