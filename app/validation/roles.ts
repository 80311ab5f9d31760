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

/** Cards live in the team-member area for team admins and in the end-user area for everyone else. */
export type CardArea = 'end-user' | 'team-member'
export function cardArea(role: Role): CardArea {
  return roleArea(role) === 'team-member' ? 'team-member' : 'end-user'
}

/**
 * Who may open each card area's list and editor: every role whose Digital Cards entry points
 * there, so the entry never leads to a 403 (ADR 007: every signed-in person keeps their own cards).
 */
export const CARD_AREA_ROLES: Record<CardArea, readonly Role[]> = {
  'end-user': ROLES.filter((role) => cardArea(role) === 'end-user'),
  'team-member': ROLES.filter((role) => cardArea(role) === 'team-member'),
}

export function rolePaths(role: Role) {
  const area = roleArea(role)
  return {
    dashboard: `/dashboard/${area}`,
    profile: `/profile/${area}`,
    settings: `/settings/${area}`,
    digitalCards: `/dashboard/${cardArea(role)}/digital-cards`,
  }
}

/** Where the menu's Settings entry leads: the role's settings page (spec §2.2, §2.6). */
export function settingsMenuPath(role: Role) {
  return rolePaths(role).settings
}

/**
 * Each role's name, as the spec names it (roles-teams-admin §1: "Team Member (role
 * team_admin)"): the sidebar's badge, the people lists' badges and filters, the user menu. One
 * map, so a role reads the same on every screen (issue 41 point 15).
 */
export const ROLE_NAMES: Record<Role, string> = {
  super_admin: 'Super Admin',
  super_admin_team: 'Super Admin Team',
  agency_admin: 'Agency Admin',
  agency_member: 'Agency Member',
  team_admin: 'Team Member',
  end_user: 'End User',
}

/**
 * The role in running text and the user menu's parentheses ("end user", "team member"): its
 * name in lower case. An unknown role (an old row) reads as its code with spaces.
 */
export function roleLabel(role: string) {
  return (ROLE_NAMES[role as Role] ?? role.replaceAll('_', ' ')).toLowerCase()
}
