// Issue 41 point 15: one name per role, the spec's, on every screen that names a role.
import { expect, test } from 'vitest'
import { roleBadge } from '#app/navigation/role-navigation'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import { ROLE_NAMES, ROLES, roleLabel } from '#app/validation/roles'

test('the sidebar badge, the people badges and the user menu name each role alike', () => {
  for (const role of ROLES) {
    expect(roleBadge(role)).toBe(ROLE_NAMES[role])
    expect(ROLE_BADGES[role].label).toBe(ROLE_NAMES[role])
    expect(roleLabel(role)).toBe(ROLE_NAMES[role].toLowerCase())
  }
  // The spec's words: "Team Member (role team_admin)".
  expect(roleLabel('team_admin')).toBe('team member')
  expect(roleLabel('end_user')).toBe('end user')
  // A role no longer in the list still reads as words.
  expect(roleLabel('retired_role')).toBe('retired role')
})
