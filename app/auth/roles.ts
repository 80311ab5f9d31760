// Where each role's pages live (spec: header and user menu, role targets). Shared by
// server guards and the user menu.
export const ROLES = [
  'super_admin',
  'super_admin_team',
  'agency_admin',
  'agency_member',
  'team_admin',
  'end_user',
] as const
export type Role = (typeof ROLES)[number]

export type RoleArea = 'super-admin' | 'agency' | 'team-member' | 'end-user'

/** super_admin → super-admin pages; agency roles → agency; team_admin → team-member; else end-user. */
export function roleArea(role: Role): RoleArea {
  switch (role) {
    case 'super_admin':
      return 'super-admin'
    case 'agency_admin':
    case 'agency_member':
      return 'agency'
    case 'team_admin':
      return 'team-member'
    default:
      return 'end-user'
  }
}

export const AREA_ROLES: Record<RoleArea, readonly Role[]> = {
  'super-admin': ['super_admin'],
  agency: ['agency_admin', 'agency_member'],
  'team-member': ['team_admin'],
  'end-user': ['end_user', 'super_admin_team'],
}

export function rolePaths(role: Role) {
  const area = roleArea(role)
  return {
    dashboard: `/dashboard/${area}`,
    profile: `/profile/${area}`,
    settings: `/settings/${area}`,
    // Only end users and team members keep cards under their dashboard.
    digitalCards:
      area === 'team-member'
        ? '/dashboard/team-member/digital-cards'
        : '/dashboard/end-user/digital-cards',
  }
}

/** "agency_admin" → "agency admin" (spec: role in parentheses with underscores as spaces). */
export function roleLabel(role: string) {
  return role.replaceAll('_', ' ')
}
