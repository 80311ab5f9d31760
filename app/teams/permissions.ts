// What each team role may do (roles-teams-admin.md §6): one place, read by the server that
// enforces it and by the page that shows or hides the buttons. The agency's Team settings
// (§2.6) narrow it: with "allow members to invite others" off, only team admins invite.
import type { TeamRole } from '#app/validation/teams'

/** The agency's Team settings as they apply to teams (read by team-policy.server.ts). */
export type TeamPolicy = {
  /** The role a new member gets unless the form names another. */
  defaultRole: TeamRole
  /** An account of the organization joins at once; off, it gets an invitation to accept. */
  autoApprove: boolean
  /** Managers may add and invite; off, only team admins may. */
  membersMayInvite: boolean
}

/** What teams did before the agency settings applied, and what an untouched agency gets. */
export const DEFAULT_TEAM_POLICY: TeamPolicy = {
  defaultRole: 'member',
  autoApprove: true,
  membersMayInvite: true,
}

/** Required, not defaulted: a caller that forgot the agency's policy would quietly ignore it. */
export function teamPermissions(
  role: TeamRole | null | undefined,
  policy: Pick<TeamPolicy, 'membersMayInvite'>,
) {
  return {
    /** Add by email or invite, and cancel pending invitations. */
    invite: role === 'admin' || (role === 'manager' && policy.membersMayInvite),
    /** Change roles and remove members (never on their own row). */
    manageMembers: role === 'admin',
    /** Rename or delete the team. */
    editTeam: role === 'admin',
    /** Only an admin may make someone an admin, so a manager cannot raise anyone above themselves. */
    grantAdmin: role === 'admin',
  }
}

/** Why a manager may not invite: the agency's setting, not their team role. */
export const ONLY_ADMINS_INVITE = 'In this agency only team admins can add or invite members'

/**
 * Whether `role` is refused `invite` by the agency's policy alone (a manager with members may
 * invite off), so the refusal can name the agency rule instead of the team role.
 */
export function inviteBlockedByPolicy(
  role: TeamRole | null | undefined,
  policy: Pick<TeamPolicy, 'membersMayInvite'>,
) {
  return teamPermissions(role, DEFAULT_TEAM_POLICY).invite && !teamPermissions(role, policy).invite
}

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  admin: 'Admin',
  manager: 'Manager',
  member: 'Member',
  viewer: 'Viewer',
}
