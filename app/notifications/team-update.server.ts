// Tells a person what someone else changed about their place in a team: added to it directly, or
// their team role changed (the Team Updates notification, roles-teams-admin.md §2.6). Queued in
// the transaction that made the change, like the invitation email: no email for a change that
// rolled back, and no change whose email was lost.

import { queueEmailIn } from '#app/email/mailer.server'
import { type TeamUpdate, teamUpdateEmail } from '#app/services/emails/team-update-email.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { teamPagePath } from '#app/validation/team-paths'
import type { Transaction } from '#drizzle/db.server'
import { notificationRecipient } from './new-contact.server'

/** Returns whether the email was queued (it goes out once the caller commits). */
export async function queueTeamUpdateEmailIn(
  tx: Transaction,
  tenant: Tenant,
  notice: { userId: string; teamId: string; update: TeamUpdate; actorUserId: string },
) {
  const recipient = await notificationRecipient(tx, tenant, notice.userId, 'teamUpdates')
  if (!recipient) return false
  const { account: member, branding, unsubscribe } = recipient
  await queueEmailIn(
    tx,
    tenant.id,
    {
      ...teamUpdateEmail({
        branding,
        to: member.email,
        firstName: member.firstName,
        update: notice.update,
        teamUrl: `${branding.origin}${teamPagePath(notice.teamId)}`,
        unsubscribeUrl: unsubscribe.url,
      }),
      secrets: [unsubscribe.secret],
    },
    tenant.name,
    { userId: notice.actorUserId },
  )
  return true
}
