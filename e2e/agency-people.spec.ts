// The agency's Team Members and End Users screens (roles-teams-admin.md §2.12, §3, §5, §8):
// reached from the sidebar; the columns, search and filter; add (with a password, or emailed a
// link), view, edit and delete a staff member; add an end user assigned to a team member, edit,
// unassign, export and delete (the same End Users screen deactivates and filters by status in
// the super admin's journey; this agency's answers, and the team member's My End Users
// following assignment, are tests/integration/agency-people.test.ts); an agency member reads
// both screens without a single edit control. Other specs share Alpha:
// every row here is this spec's own (unique emails), and no total is asserted. axe audits these
// screens and their Add dialogs in e2e/accessibility.spec.ts (the agency admin's and member's
// crawls, ADR 034).
import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { expectNewToast, filterList, openAs } from './page-helpers'
import { ALPHA_ROLE_USERS, type RoleUser } from './role-users'

test.describe.configure({ timeout: 540_000 })

const admin = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin') as RoleUser
const member = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_member') as RoleUser
const teamMember = ALPHA_ROLE_USERS.find((user) => user.role === 'team_admin') as RoleUser
const teamMemberName = `${teamMember.firstName} ${teamMember.lastName}`

const unique = () => Math.random().toString(36).slice(2, 8)

async function openFromSidebar(page: Page, link: string, path: string, heading: string) {
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: link }).click()
  await expect(page).toHaveURL(urlFor(admin.host, path))
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
}

const rowMenu = (page: Page, name: string) =>
  page.getByRole('button', { name: `Actions for ${name}` })

async function columnsAre(page: Page, columns: string[], absent: string[] = []) {
  for (const column of columns) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
  }
  for (const column of absent) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toHaveCount(0)
  }
}

test('Team Members: add (password or emailed link), view, edit and delete a staff member', async ({
  page,
}) => {
  const mark = unique()
  const email = `staff-${mark}@example.test`
  const name = `Dora Designer${mark}`
  await openAs(page, admin, '/dashboard/agency')
  await openFromSidebar(page, 'Team Members', '/dashboard/agency/team', 'Team Members')
  await columnsAre(page, ['Name', 'Email', 'Role', 'Last Active', 'Actions'])
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Filter' })).toBeVisible()

  // Add: the spec's password message first, then a real staff account.
  await page.getByRole('button', { name: 'Add Team Member' }).click()
  const add = page.getByRole('dialog', { name: 'Add Team Member' })
  await add.getByLabel('Name').fill(name)
  await add.getByLabel('Email').fill(email)
  const titles = await add.getByLabel('Role', { exact: true }).locator('option').allTextContents()
  expect(titles).toEqual([
    'Select a role',
    'Account Manager',
    'Content Creator',
    'Designer',
    'Developer',
    'Marketing Specialist',
  ])
  await add.getByLabel('Role', { exact: true }).selectOption({ label: 'Designer' })
  await add.getByLabel('Access').selectOption({ label: 'Agency Member' })
  await add.getByLabel('Password').fill('short')
  await add.getByRole('button', { name: 'Add Member' }).click()
  await expect(add.getByText('Password must be at least 8 characters')).toBeVisible()
  await add.getByLabel('Password').fill('staff-pass-1')
  await add.getByRole('button', { name: 'Add Member' }).click()
  await expect(page.getByText('Team member added successfully')).toBeVisible()

  await filterList(page, mark, { Access: 'Agency Member' })
  const row = page.getByTestId('staff-row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Designer')
  await expect(row).toContainText('Agency Member')
  await expect(row).toContainText('Never')

  // View.
  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'View Details' }).click()
  const details = page.getByRole('dialog', { name: 'Team Member Details' })
  await expect(details).toContainText(email)
  await expect(details).toContainText('Designer')
  await details.getByRole('button', { name: 'Close' }).click()

  // Edit: the password stays unless typed.
  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Team Member' })
  await expect(edit.getByText('Leave blank to keep the current password.')).toBeVisible()
  await edit.getByLabel('Role', { exact: true }).selectOption({ label: 'Marketing Specialist' })
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Team member updated successfully')).toBeVisible()
  await expect(row).toContainText('Marketing Specialist')

  // Delete asks first (Cancel keeps the row).
  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete Team Member' })
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(row).toHaveCount(1)
  await rowMenu(page, name).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Team member removed')).toBeVisible()
  await expect(row).toHaveCount(0)

  // Without a password the new member is emailed a link to choose one.
  const invited = `invited-${mark}@example.test`
  await page.getByRole('button', { name: 'Add Team Member' }).click()
  await add.getByLabel('Name').fill(`Ivo Invited${mark}`)
  await add.getByLabel('Email').fill(invited)
  await add.getByLabel('Role', { exact: true }).selectOption({ label: 'Developer' })
  await expect(add.getByText(/leave blank to email a link/)).toBeVisible()
  // The first add's toast may still be on screen: only a new one counts.
  await expectNewToast(page, 'Team member added successfully', () =>
    add.getByRole('button', { name: 'Add Member' }).click(),
  )
  await filterList(page, mark)
  await expect(page.getByTestId('staff-row').filter({ hasText: invited })).toHaveCount(1)
})

test('End Users: add assigned to a team member, search, edit, assign, export, delete', async ({
  page,
}) => {
  const mark = unique()
  const email = `end-${mark}@example.test`
  await openAs(page, admin, '/dashboard/agency')
  await openFromSidebar(page, 'End Users', '/dashboard/agency/users', 'End Users')
  // Spec §2.12: the super admin's list without the Agency column.
  await columnsAre(page, ['User', 'Email', 'Status', 'Last Active', 'Actions'], ['Agency'])
  await expect(page.getByRole('link', { name: 'Export Data' })).toBeVisible()
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Filter' })).toBeVisible()

  // Add User: the spec's message first, then a user assigned to the team member.
  await page.getByRole('button', { name: 'Add User' }).click()
  const add = page.getByRole('dialog', { name: 'Add User' })
  await expect(add.getByLabel('Agency')).toHaveCount(0)
  await add.getByLabel('Name').fill('N')
  await add.getByLabel('Email').fill(email)
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(add.getByText('Name must be at least 2 characters')).toBeVisible()
  await add.getByLabel('Name').fill(`Erin End${mark}`)
  await expect(add.getByLabel('Active')).toBeChecked()
  await add.getByLabel('Team Member').selectOption({ label: teamMemberName })
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(page.getByText('User added', { exact: true })).toBeVisible()

  await filterList(page, mark, { 'Team Member': teamMemberName })
  const row = page.getByTestId('end-user-row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await expect(row.getByTestId('user-assignee')).toHaveText(teamMemberName)
  await expect(row.getByTestId('user-status')).toHaveText('Active')
  // On and off the team member's My End Users as they are assigned and unassigned: the same
  // loaders in tests/integration/agency-people.test.ts ('add with a team member', 'assign and
  // unassign'); My End Users' own journey is e2e/my-end-users.spec.ts.

  // Edit.
  await rowMenu(page, `Erin End${mark}`).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit User' })
  await edit.getByLabel('Name').fill(`Erin Edited${mark}`)
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('User updated', { exact: true })).toBeVisible()
  await expect(row).toContainText(`Erin Edited${mark}`)

  // Assign to nobody: off the team member's list.
  await rowMenu(page, `Erin Edited${mark}`).click()
  await page.getByRole('menuitem', { name: 'Assign to Team Member' }).click()
  const assign = page.getByRole('dialog', { name: 'Assign to Team Member' })
  await assign.getByLabel('Team Member').selectOption({ label: 'Not assigned' })
  await assign.getByRole('button', { name: 'Assign' }).click()
  await expect(page.getByText('User unassigned', { exact: true })).toBeVisible()
  await filterList(page, mark, { 'Team Member': 'All team members' })
  await expect(row.getByTestId('user-assignee')).toHaveText('Not assigned')

  // Deactivate, Activate and the status filter are the same screen's in the super admin's
  // journey (e2e/super-admin-people.spec.ts); this agency's loaders and actions answer them in
  // tests/integration/agency-people.test.ts ('the status filter lists and exports...', 'edit,
  // deactivate, activate...').

  // Export Data: the filtered list as CSV.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export Data' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('end-users.csv')
  const csv = readFileSync((await download.path()) as string, 'utf8')
  expect(csv).toContain('"Name","Email","Status","Team Member","Last Active","Created"')
  expect(csv).toContain(`"Erin Edited${mark}","${email}","active",""`)
  expect(csv.trim().split('\r\n')).toHaveLength(2)

  // Delete with confirmation.
  await rowMenu(page, `Erin Edited${mark}`).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete User' })
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeVisible()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('User removed', { exact: true })).toBeVisible()
  await expect(row).toHaveCount(0)
})

test('an agency member reads both screens with no edit controls', async ({ page }) => {
  await openAs(page, member, '/dashboard/agency')
  await openFromSidebar(page, 'Team Members', '/dashboard/agency/team', 'Team Members')
  await columnsAre(page, ['Name', 'Email', 'Role', 'Last Active', 'Actions'])
  await expect(page.getByRole('button', { name: 'Add Team Member' })).toHaveCount(0)
  const adminRow = page.getByTestId('staff-row').filter({ hasText: admin.email })
  await adminRow.getByRole('button', { name: /^Actions for/ }).click()
  await expect(page.getByRole('menuitem', { name: 'View Details' })).toBeVisible()
  for (const item of ['Edit', 'Change Role', 'Delete']) {
    await expect(page.getByRole('menuitem', { name: item })).toHaveCount(0)
  }
  await page.keyboard.press('Escape')

  await openFromSidebar(page, 'End Users', '/dashboard/agency/users', 'End Users')
  await columnsAre(page, ['User', 'Email', 'Status', 'Last Active'], ['Agency', 'Actions'])
  await expect(page.getByRole('link', { name: 'Export Data' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0)
})

test('an end user promoted to Team Member moves to Team Members, where they are changed back', async ({
  page,
}) => {
  const mark = unique()
  const name = `Tom Round${mark}`
  const changeRole = async (role: string) => {
    await rowMenu(page, name).click()
    await page.getByRole('menuitem', { name: 'Change Role' }).click()
    const dialog = page.getByRole('dialog', { name: 'Change Role' })
    await dialog.getByLabel('Role').selectOption({ label: role })
    await dialog.getByRole('button', { name: 'Update Role' }).click()
  }
  await openAs(page, admin, '/dashboard/agency')
  await openFromSidebar(page, 'End Users', '/dashboard/agency/users', 'End Users')
  await page.getByRole('button', { name: 'Add User' }).click()
  const add = page.getByRole('dialog', { name: 'Add User' })
  await add.getByLabel('Name').fill(name)
  await add.getByLabel('Email').fill(`round-${mark}@example.test`)
  await add.getByRole('button', { name: 'Add User' }).click()
  await expect(page.getByText('User added', { exact: true })).toBeVisible()
  await filterList(page, mark)
  const endUserRow = page.getByTestId('end-user-row').filter({ hasText: name })
  await expect(endUserRow).toHaveCount(1)

  await changeRole('Team Member')
  await expect(page.getByText('User role updated to Team Member successfully')).toBeVisible()
  await expect(endUserRow).toHaveCount(0)

  await openFromSidebar(page, 'Team Members', '/dashboard/agency/team', 'Team Members')
  await filterList(page, mark, { Access: 'Team Member' })
  const staffRow = page.getByTestId('staff-row').filter({ hasText: name })
  await expect(staffRow).toHaveCount(1)
  await expect(staffRow).toContainText('Team Member')
  await changeRole('End User')
  await expect(page.getByText('User role updated to End User successfully')).toBeVisible()
  await expect(staffRow).toHaveCount(0)

  await page.goto(urlFor(admin.host, `/dashboard/agency/users?q=${mark}`))
  await expect(endUserRow).toHaveCount(1)
})
