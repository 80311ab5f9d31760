// The agency's Team settings (roles-teams-admin.md §2.6, Agency Settings → Team) as they apply to
// the teams of its users: read here, once per team operation, inside the same transaction. Each
// rule has one home (ADR 015):
// - members may invite → the permission table (`teamPermissions(role, policy)` in ./permissions);
// - default team role → `defaultRoleFor` below, the preselection and the role of a form without one;
// - auto-approve → no longer a rule: adding by email always invites (issue 39 point 3, ADR 058).
import { getOrganizationPreferences } from '#app/models/organization-settings.server'
import { StoredAgencyTeamSchema } from '#app/validation/settings'
import type { TeamRole } from '#app/validation/teams'
import type { Queryable } from '#drizzle/db.server'
import { type TeamPolicy, teamPermissions } from './permissions'

export type { TeamPolicy }

/**
 * The organization's team policy. Settings never saved (or saved before a field existed) read
 * as the defaults, which are the behaviour teams had before the settings applied: member,
 * accounts join directly, managers invite.
 */
export async function readTeamPolicy(db: Queryable, organizationId: string): Promise<TeamPolicy> {
  const stored = StoredAgencyTeamSchema.parse(await getOrganizationPreferences(db, organizationId))
  return {
    defaultRole: stored.defaultTeamRole,
    autoApprove: stored.autoApprove,
    membersMayInvite: stored.membersMayInvite,
  }
}

/**
 * The role a new member gets when the form names none, and the one the Add Member dialog
 * preselects: the agency's default, unless the actor may not grant it (a manager cannot make an
 * admin), then the spec's default, member (§9).
 */
export function defaultRoleFor(policy: TeamPolicy, actorRole: TeamRole): TeamRole {
  if (policy.defaultRole === 'admin' && !teamPermissions(actorRole, policy).grantAdmin) {
    return 'member'
  }
  return policy.defaultRole
}
