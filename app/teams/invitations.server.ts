// Answering a team invitation (roles-teams-admin.md §4): the link's token names one pending
// invitation of this tenant; the signed-in account must be the invited address. Opening the
// link only shows a page; accepting or declining is a POST, so mail scanners that follow links
// answer nothing (the lesson of Documenso's decline link).
import { hashToken, LINK_TOKEN } from '#app/email/link-token.server'
import { recordTeamAudit } from '#app/models/audit.server'
import {
  findPendingInvitationByTokenHash,
  setInvitationStatus,
} from '#app/models/team-invitations.server'
import { addTeamMember, findTeamWithPlan } from '#app/models/teams.server'
import { markEmailConfirmed, type User } from '#app/models/users.server'
import { followTemplateOnJoining } from '#app/templates/template-locks.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { withTenant } from '#drizzle/db.server'
import { assertSeatAvailable } from './seats.server'
import { canJoinTeams } from './team-access.server'

export const INVITATION_EXPIRED = 'Invitation has expired'
export const INVITATION_INVALID = 'This invitation is no longer valid'

export type InvitationView = {
  teamName: string
  inviterName: string
  role: string
  email: string
  expiresAt: string
}

export const INVITATION_NOT_YOURS =
  'This invitation was sent to another email address. Sign in with the invited address to answer it.'

export type InvitationLookup =
  | { state: 'pending'; invitation: InvitationView }
  | { state: 'expired' }
  | { state: 'invalid' }

/** What the invitation page shows; reads only (an expired one is marked so when answered). */
export async function lookUpInvitation(tenant: Tenant, token: string): Promise<InvitationLookup> {
  if (!LINK_TOKEN.test(token)) return { state: 'invalid' }
  const row = await withTenant(tenant.id, (tx) =>
    findPendingInvitationByTokenHash(tx, tenant.id, hashToken(token)),
  )
  if (!row) return { state: 'invalid' }
  if (row.expiresAt <= new Date()) return { state: 'expired' }
  const inviterName = `${row.inviterFirstName ?? ''} ${row.inviterLastName ?? ''}`.trim()
  return {
    state: 'pending',
    invitation: {
      teamName: row.teamName,
      inviterName: inviterName || 'A team admin',
      role: row.role,
      email: row.email,
      expiresAt: row.expiresAt.toISOString(),
    },
  }
}

export type InvitationAnswer =
  | { outcome: 'accepted'; teamId: string; cardsToTemplate: number }
  | { outcome: 'declined' }
  | { outcome: 'expired' }

/**
 * Accepts or declines for the signed-in user. Accepting recounts the team inside the same
 * transaction, with the team locked (dub's lesson): past the plan's limit nothing changes and
 * the invitation stays pending. Throws a Refusal for a refusal.
 */
export async function answerInvitation(
  tenant: Tenant,
  user: User,
  token: string,
  answer: 'accept' | 'decline',
): Promise<InvitationAnswer> {
  if (!LINK_TOKEN.test(token)) throw new Refusal('not_found', INVITATION_INVALID)
  return withTenant(tenant.id, async (tx) => {
    const tokenHash = hashToken(token)
    const found = await findPendingInvitationByTokenHash(tx, tenant.id, tokenHash)
    if (!found) throw new Refusal('not_found', INVITATION_INVALID)
    // Locks in the order every team operation takes them, the team before its invitations:
    // the other order deadlocks with an admin cancelling or re-sending this invitation.
    const team = await findTeamWithPlan(tx, tenant.id, found.teamId, { lock: true })
    const invitation = team
      ? await findPendingInvitationByTokenHash(tx, tenant.id, tokenHash, { lock: true })
      : undefined
    if (!team || !invitation) throw new Refusal('not_found', INVITATION_INVALID)
    if (invitation.expiresAt <= new Date()) {
      // Kept: the invitation becomes expired even though the answer is a refusal.
      await setInvitationStatus(tx, tenant.id, invitation.id, 'expired')
      return { outcome: 'expired' as const }
    }
    if (invitation.email !== user.email) {
      throw new Refusal('forbidden', INVITATION_NOT_YOURS)
    }
    if (answer === 'decline') {
      await setInvitationStatus(tx, tenant.id, invitation.id, 'declined')
      await recordTeamAudit(tx, tenant.id, user.id, invitation.teamId, 'team.invitation_declined', {
        invitationId: invitation.id,
      })
      return { outcome: 'declined' as const }
    }
    if (!canJoinTeams(user.role)) {
      throw new Refusal('forbidden', 'This account cannot join teams')
    }
    await assertSeatAvailable(tx, tenant.id, team, { exceptInvitationId: invitation.id })
    await addTeamMember(tx, tenant.id, team.id, user.id, invitation.role)
    // Their cards follow the team's template now (ADR 048), in the membership's transaction.
    const cardsToTemplate = await followTemplateOnJoining(tx, tenant.id, user.id)
    await setInvitationStatus(tx, tenant.id, invitation.id, 'accepted')
    // The link reached this address: that confirms it as well as the sign-up email would.
    if (!user.emailConfirmedAt) await markEmailConfirmed(tx, tenant.id, user.id, user.email)
    await recordTeamAudit(tx, tenant.id, user.id, team.id, 'team.invitation_accepted', {
      invitationId: invitation.id,
      role: invitation.role,
      ...(cardsToTemplate ? { cardsToTemplate } : {}),
    })
    return { outcome: 'accepted' as const, teamId: team.id, cardsToTemplate }
  })
}
