// The seat check, one home (issue 27 point 4): adding a member, inviting and accepting an
// invitation all refuse here when one more person would not fit the team's plan. The rule
// itself (pending invitations take a seat) is plans.ts's fitsOneMore, which the page shares.
import { countTeamSeats } from '#app/models/teams.server'
import { Refusal } from '#app/utils/action-error'
import type { PlanId } from '#app/validation/plans'
import { fitsOneMore, memberLimitMessage, PLANS } from '#app/validation/plans'
import type { Transaction } from '#drizzle/db.server'

/**
 * Refuses when one more person would not fit the team's plan. `exceptInvitationId`: the
 * invitation being replaced or accepted, whose seat the newcomer takes over.
 */
export async function assertSeatAvailable(
  tx: Transaction,
  organizationId: string,
  team: { id: string; plan: PlanId },
  options: { exceptInvitationId?: string; field?: 'email' } = {},
) {
  const plan = PLANS[team.plan]
  const seats = await countTeamSeats(tx, organizationId, team.id, options.exceptInvitationId)
  if (!fitsOneMore(plan, seats)) {
    throw new Refusal('conflict', memberLimitMessage(plan), { field: options.field })
  }
}
