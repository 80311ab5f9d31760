// The team page's operations (roles-teams-admin.md §2.9, §2.10, §4, §7). Each runs in one
// transaction that first locks the team, checks the actor's team role there, and throws an
// a Refusal (rolling everything back) when it refuses.

import { checkoutUrl } from '#app/billing/billing-checkout.server'
import { hashToken, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { recordTeamAudit } from '#app/models/audit.server'
import {
  deleteInvitation,
  findPendingInvitationForEmail,
  insertInvitation,
  listPendingInvitations,
} from '#app/models/team-invitations.server'
import {
  countTeamAdmins,
  countTeamSeats,
  createTeamWithAdmin,
  deleteTeam,
  findTeamMember,
  findTeamMemberByEmail,
  findTeamWithPlan,
  isRowId,
  listTeamMembers,
  listTeamsForUser,
  removeTeamMember,
  setTeamMemberRole,
  updateTeam,
} from '#app/models/teams.server'
import { normalizeEmail, type User } from '#app/models/users.server'
import { queueTeamUpdateEmailIn } from '#app/notifications/team-update.server'
import { hitOrRefuseIn, limitKey } from '#app/rate-limits/rate-limit.server'
import { teamInvitationEmail } from '#app/services/emails/team-invitation.server'
import { followTemplateOnJoining } from '#app/templates/template-locks.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import {
  CONFIRM_EMAIL_TO_INVITE,
  hasTeamFeatures,
  invitationCooldownMessage,
  isUpgrade,
  type PaidPlanId,
  PLANS,
  PLANS_GRANTED_BY_ADMINS,
} from '#app/validation/plans'
import type { TeamRole } from '#app/validation/teams'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { canPayOnline } from './payment.server'
import { teamPermissions } from './permissions'
import { assertSeatAvailable } from './seats.server'
import { requireTeamPermission, TEAM_NOT_FOUND } from './team-access.server'
import { defaultRoleFor, readTeamPolicy } from './team-policy.server'

export type TeamSuccess = { toast: string; teamId?: string }

const displayName = (user: Pick<User, 'firstName' | 'lastName' | 'email'>) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email

/** Everything the team page shows for the user: their teams, and the chosen one's people. */
export async function loadTeamPage(tenant: Tenant, user: User, chosenTeamId: string | null) {
  return withTenant(tenant.id, async (tx) => {
    const teams = await listTeamsForUser(tx, tenant.id, user.id)
    const selected = teams.find((team) => team.id === chosenTeamId) ?? teams[0] ?? null
    if (!selected) return { teams, selected: null }
    const team = await findTeamWithPlan(tx, tenant.id, selected.id)
    const members = await listTeamMembers(tx, tenant.id, selected.id)
    const invitations = await listPendingInvitations(tx, tenant.id, selected.id)
    const seats = await countTeamSeats(tx, tenant.id, selected.id)
    const policy = await readTeamPolicy(tx, tenant.id)
    return {
      teams,
      selected: {
        ...selected,
        plan: team?.plan ?? ('free' as const),
        members,
        invitations,
        seats: seats.members + seats.pendingInvitations,
        // What the page needs of the agency's Team settings to show the same rules the action applies.
        policy: {
          membersMayInvite: policy.membersMayInvite,
          autoApprove: policy.autoApprove,
          defaultRole: defaultRoleFor(policy, selected.myRole),
        },
      },
    }
  })
}

export async function createTeam(
  tenant: Tenant,
  user: User,
  fields: { name: string; description: string },
): Promise<TeamSuccess> {
  if (!hasTeamFeatures(user.plan)) {
    throw new Refusal('forbidden', 'Upgrade to a team plan to create a team', { field: 'name' })
  }
  const team = await withTenant(tenant.id, async (tx) => {
    const created = await createTeamWithAdmin(tx, tenant.id, user.id, fields)
    // Its creator joins it: their cards follow the template that applies now (ADR 048).
    const cardsToTemplate = await followTemplateOnJoining(tx, tenant.id, user.id)
    await recordTeamAudit(
      tx,
      tenant.id,
      user.id,
      created.id,
      'team.created',
      cardsToTemplate ? { cardsToTemplate } : undefined,
    )
    return { ...created, cardsToTemplate }
  })
  return { toast: 'Team created successfully', teamId: team.id }
}

export async function renameTeam(
  tenant: Tenant,
  user: User,
  teamId: string,
  fields: { name: string; description: string },
): Promise<TeamSuccess> {
  await withTenant(tenant.id, async (tx) => {
    const { team } = await requireTeamPermission(tx, tenant.id, teamId, user.id, 'editTeam')
    await updateTeam(tx, tenant.id, team.id, fields)
    await recordTeamAudit(tx, tenant.id, user.id, team.id, 'team.updated')
  })
  return { toast: 'Team updated successfully', teamId }
}

export async function removeTeam(tenant: Tenant, user: User, teamId: string): Promise<TeamSuccess> {
  await withTenant(tenant.id, async (tx) => {
    const { team } = await requireTeamPermission(tx, tenant.id, teamId, user.id, 'editTeam')
    await deleteTeam(tx, tenant.id, team.id)
    await recordTeamAudit(tx, tenant.id, user.id, team.id, 'team.deleted', { name: team.name })
  })
  return { toast: 'Team deleted successfully' }
}

/**
 * Adding someone by email (spec §4, amended by issue 39 point 3, ADR 058): always an emailed
 * invitation (stored hashed, valid INVITATION_LIFETIME_DAYS) that the person accepts through
 * /invitations/{token}; only then do they join and their cards follow the team's template. The
 * answer, the email and every other effect are the same whether the address has an account here,
 * in another agency, or none: the form tells the inviter nothing about who has an account. Who may
 * invite and the role when the form names none follow the agency's Team settings (ADR 015).
 */
export async function addMemberByEmail(
  tenant: Tenant,
  user: User,
  input: { teamId: string; email: string; role?: TeamRole | undefined },
): Promise<TeamSuccess> {
  // Invitations go out in the agency's name: an address nobody has shown to be theirs sends none.
  if (!user.emailConfirmedAt) throw new Refusal('forbidden', CONFIRM_EMAIL_TO_INVITE)
  const email = normalizeEmail(input.email)
  const link = newEmailLink('team-invitation')
  const outcome = await withTenant(tenant.id, async (tx) => {
    const { team, membership, policy } = await requireTeamPermission(
      tx,
      tenant.id,
      input.teamId,
      user.id,
      'invite',
    )
    const role = input.role ?? defaultRoleFor(policy, membership.role)
    if (role === 'admin' && !teamPermissions(membership.role, policy).grantAdmin) {
      throw new Refusal('forbidden', 'Only team admins can make someone an admin', {
        field: 'role',
      })
    }
    // The team's own members are on the inviter's screen already: telling them so reveals nothing.
    // Whether an address has an account, or one that may join teams, is never said here: an
    // account that cannot join is refused when it answers the invitation.
    if (await findTeamMemberByEmail(tx, tenant.id, team.id, email)) {
      throw new Refusal('conflict', `${email} is already a member of this team`, { field: 'email' })
    }
    // Inviting the same address again replaces its pending invitation (no new seat is taken),
    // but sends a new email only once the cooldown has passed, cancelled in between or not.
    await hitOrRefuseIn(
      tx,
      'invitationResend',
      limitKey('invitationResend', tenant.id, team.id, email),
      (wait) => invitationCooldownMessage(email, wait),
    )
    const earlier = await findPendingInvitationForEmail(tx, tenant.id, team.id, email)
    await assertSeatAvailable(tx, tenant.id, team, {
      exceptInvitationId: earlier?.id,
      field: 'email',
    })
    const invitation = await insertInvitation(tx, tenant.id, {
      teamId: team.id,
      email,
      role,
      tokenHash: hashToken(link.token),
      invitedByUserId: user.id,
    })
    await recordTeamAudit(tx, tenant.id, user.id, team.id, 'team.invitation_created', {
      invitationId: invitation.id,
      role,
    })
    // The email commits with the invitation: neither exists without the other.
    const branding = tenantEmailBranding(tenant)
    await queueEmailIn(
      tx,
      tenant.id,
      {
        ...teamInvitationEmail({
          branding,
          to: email,
          inviterName: displayName(user),
          teamName: team.name,
          role,
          acceptUrl: `${branding.origin}/invitations/${link.token}`,
          declineUrl: `${branding.origin}/invitations/${link.token}/decline`,
        }),
        secrets: [link.secret],
      },
      tenant.name,
      { userId: user.id },
    )
    return { team, role }
  })
  return { toast: `Invitation sent to ${email}`, teamId: outcome.team.id }
}

/**
 * The team whose members the actor manages, and the member row they act on: another person of
 * that team.
 */
async function requireMemberToManage(
  tx: Transaction,
  organizationId: string,
  actorUserId: string,
  input: { teamId: string; memberId: string },
) {
  const { team } = await requireTeamPermission(
    tx,
    organizationId,
    input.teamId,
    actorUserId,
    'manageMembers',
  )
  const member = isRowId(input.memberId)
    ? await findTeamMember(tx, organizationId, team.id, input.memberId)
    : undefined
  if (!member) throw new Refusal('not_found', 'Team member not found')
  if (member.userId === actorUserId) {
    throw new Refusal('forbidden', 'You cannot change your own membership')
  }
  return { team, member }
}

/** A team always keeps an admin: the last one cannot be demoted or removed. */
async function assertNotLastAdmin(
  tx: Transaction,
  organizationId: string,
  teamId: string,
  member: { role: TeamRole },
) {
  if (member.role !== 'admin') return
  if ((await countTeamAdmins(tx, organizationId, teamId)) <= 1) {
    throw new Refusal('conflict', 'A team must keep at least one admin')
  }
}

export async function changeMemberRole(
  tenant: Tenant,
  user: User,
  input: { teamId: string; memberId: string; role: TeamRole },
): Promise<TeamSuccess> {
  await withTenant(tenant.id, async (tx) => {
    const { team, member } = await requireMemberToManage(tx, tenant.id, user.id, input)
    if (member.role === input.role) {
      throw new Refusal(
        'invalid',
        `This member is already ${input.role === 'admin' ? 'an' : 'a'} ${input.role}`,
        { field: 'role' },
      )
    }
    // The owner pays for the team (its plan is theirs): another admin cannot take it over.
    if (member.userId === team.createdByUserId && input.role !== 'admin') {
      throw new Refusal('conflict', "The team's owner stays an admin", { field: 'role' })
    }
    if (input.role !== 'admin') await assertNotLastAdmin(tx, tenant.id, team.id, member)
    await setTeamMemberRole(tx, tenant.id, team.id, member.id, input.role)
    await recordTeamAudit(tx, tenant.id, user.id, team.id, 'team.member_role_changed', {
      userId: member.userId,
      from: member.role,
      to: input.role,
    })
    return queueTeamUpdateEmailIn(tx, tenant, {
      userId: member.userId,
      teamId: team.id,
      update: {
        kind: 'role_changed',
        teamName: team.name,
        from: member.role,
        role: input.role,
        actorName: displayName(user),
      },
      actorUserId: user.id,
    })
  })
  return { toast: 'Member role updated', teamId: input.teamId }
}

export async function removeMember(
  tenant: Tenant,
  user: User,
  input: { teamId: string; memberId: string },
): Promise<TeamSuccess> {
  await withTenant(tenant.id, async (tx) => {
    const { team, member } = await requireMemberToManage(tx, tenant.id, user.id, input)
    if (member.userId === team.createdByUserId) {
      throw new Refusal('conflict', "The team's owner cannot be removed")
    }
    await assertNotLastAdmin(tx, tenant.id, team.id, member)
    await removeTeamMember(tx, tenant.id, team.id, member.id)
    await recordTeamAudit(tx, tenant.id, user.id, team.id, 'team.member_removed', {
      userId: member.userId,
    })
  })
  return { toast: 'Member removed from team', teamId: input.teamId }
}

export async function cancelInvitation(
  tenant: Tenant,
  user: User,
  input: { teamId: string; invitationId: string },
): Promise<TeamSuccess> {
  await withTenant(tenant.id, async (tx) => {
    const { team } = await requireTeamPermission(tx, tenant.id, input.teamId, user.id, 'invite')
    const deleted = isRowId(input.invitationId)
      ? await deleteInvitation(tx, tenant.id, team.id, input.invitationId)
      : undefined
    if (!deleted) throw new Refusal('not_found', 'Invitation not found')
    await recordTeamAudit(tx, tenant.id, user.id, team.id, 'team.invitation_cancelled', {
      invitationId: input.invitationId,
    })
  })
  return { toast: 'Invitation cancelled', teamId: input.teamId }
}

/**
 * Spec §2.9: the upgrade. No paid plan without payment: with Stripe configured the upgrade
 * answers where to pay (Stripe Checkout; the plan changes when its signed webhook arrives, ADR
 * 051); without it the upgrade is refused and the plan is granted by an agency or platform admin
 * instead (app/people/manage-people.server.ts, setAccountPlan).
 */
export async function upgradePlan(
  tenant: Tenant,
  user: User,
  planId: PaidPlanId,
): Promise<{ redirectTo: string }> {
  const plan = PLANS[planId]
  if (!isUpgrade(user.plan, planId)) {
    throw new Refusal(
      'conflict',
      user.plan === planId
        ? `You are already on the ${plan.name} plan`
        : `Your ${PLANS[user.plan].name} plan already includes more than ${plan.name}`,
      { field: 'plan' },
    )
  }
  if (!canPayOnline()) throw new Refusal('forbidden', PLANS_GRANTED_BY_ADMINS, { field: 'plan' })
  return { redirectTo: await checkoutUrl(tenant, user, planId) }
}

export { TEAM_NOT_FOUND }
