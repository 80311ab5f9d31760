// Who may do what to a team, checked inside the transaction that does it.

import { findMembership, findTeamWithPlan } from '#app/models/teams.server'
import { Refusal } from '#app/utils/action-error'
import { AREA_ROLES, type Role } from '#app/validation/roles'
import type { Transaction } from '#drizzle/db.server'
import { inviteBlockedByPolicy, ONLY_ADMINS_INVITE, teamPermissions } from './permissions'
import { readTeamPolicy } from './team-policy.server'

/** The roles whose area has the team page (spec §2.2: the end-user area's "Team"). */
export const TEAM_PAGE_ROLES: readonly Role[] = AREA_ROLES['end-user']

export const canJoinTeams = (role: Role) => TEAM_PAGE_ROLES.includes(role)

export const TEAM_NOT_FOUND = 'Team not found'

const REFUSALS = {
  invite: 'Only team admins and managers can add or invite members',
  manageMembers: 'Only team admins can change roles or remove members',
  editTeam: 'Only team admins can change or delete the team',
  grantAdmin: 'Only team admins can make someone an admin',
} as const

/**
 * The team, locked, the acting user's membership, if that membership allows `permission`, and
 * the organization's team policy (agency Team settings) the permission was judged with.
 * Someone outside the team (or another tenant's team) learns nothing: the team is "not found".
 */
export async function requireTeamPermission(
  tx: Transaction,
  organizationId: string,
  teamId: string,
  userId: string,
  permission: keyof typeof REFUSALS,
) {
  const team = await findTeamWithPlan(tx, organizationId, teamId, { lock: true })
  const membership = team ? await findMembership(tx, organizationId, team.id, userId) : undefined
  if (!team || !membership) throw new Refusal('not_found', TEAM_NOT_FOUND)
  const policy = await readTeamPolicy(tx, organizationId)
  if (!teamPermissions(membership.role, policy)[permission]) {
    const refusal =
      permission === 'invite' && inviteBlockedByPolicy(membership.role, policy)
        ? ONLY_ADMINS_INVITE
        : REFUSALS[permission]
    throw new Refusal('forbidden', refusal)
  }
  return { team, membership, policy }
}
