// What each team role may do (roles-teams-admin.md §6): one place, read by the server that
// enforces it and by the page that shows or hides the buttons.
import type { TeamRole } from '#app/validation/teams'

export function teamPermissions(role: TeamRole | null | undefined) {
  return {
    /** Add by email or invite, and cancel pending invitations. */
    invite: role === 'admin' || role === 'manager',
    /** Change roles and remove members (never on their own row). */
    manageMembers: role === 'admin',
    /** Rename or delete the team. */
    editTeam: role === 'admin',
    /** Only an admin may make someone an admin, so a manager cannot raise anyone above themselves. */
    grantAdmin: role === 'admin',
  }
}

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  admin: 'Admin',
  manager: 'Manager',
  member: 'Member',
  viewer: 'Viewer',
}
