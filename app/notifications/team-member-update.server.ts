// Tells a team member (team_admin) what someone else changed about their place in the agency:
// an end user assigned to them or taken off their list, an assigned end user deleted, their
// role, their account deactivated or activated again (the team member's Team Updates, issue 30
// point 2, ADR 046). Queued in the transaction that made the change, like the end user's team
// update: no email for a change that rolled back.

import { queueEmailIn } from '#app/email/mailer.server'
import {
  type TeamMemberUpdate,
  teamMemberUpdateEmail,
} from '#app/services/emails/team-member-update-email.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { isRefusal } from '#app/utils/action-error'
import type { Transaction } from '#drizzle/db.server'
import { notificationRecipient } from './new-contact.server'

export type { TeamMemberUpdate }

/**
 * Queues the email when the person is a team member (or, for a role change, was one) who wants
 * it: Email Notifications (the master switch) and Team Updates both on. Returns whether it was
 * queued (it goes out once the caller commits). `tenant` undefined (an organization that could
 * not be resolved): nothing is sent.
 */
export async function queueTeamMemberUpdateIn(
  tx: Transaction,
  tenant: Tenant | undefined,
  notice: { userId: string; update: TeamMemberUpdate; actor: { id: string; name: string } },
) {
  if (!tenant) return false
  // Nobody is told what they did themselves.
  if (notice.userId === notice.actor.id) return false
  const recipient = await notificationRecipient(tx, tenant, notice.userId, 'teamUpdates')
  if (!recipient) return false
  const { account: member, branding, unsubscribe } = recipient
  if (member.role !== 'team_admin' && notice.update.kind !== 'role_changed') return false
  try {
    await queueEmailIn(
      tx,
      tenant.id,
      {
        ...teamMemberUpdateEmail({
          branding,
          to: member.email,
          firstName: member.firstName,
          actorName: notice.actor.name,
          update: notice.update,
          unsubscribeUrl: unsubscribe.url,
        }),
        secrets: [unsubscribe.secret],
      },
      tenant.name,
      { userId: notice.actor.id },
    )
  } catch (error) {
    // Past a send limit (an admin reassigning a long list in one sitting): the change stands
    // without its notice; a notice must never be what refuses the change.
    if (isRefusal(error, 'rate_limited')) return false
    throw error
  }
  return true
}
