// The limits of app/billing/plan-limits.ts enforced, in the transaction that would go above them
// (ADR 051): every path that adds an agency staff account or assigns an end user to a team member
// asks here first. What is already above a limit (a plan that lapsed) stays; only growth is refused.
// A transaction-scoped advisory lock per agency (staff) or per team member (end users) makes two
// adds at once count one after the other, as the media quota does.
import { sql } from 'drizzle-orm'
import { countAssignedEndUsers } from '#app/models/assigned-users.server'
import { findSubscriptionTier } from '#app/models/organizations.server'
import { countUsersWithRoles, type User } from '#app/models/users.server'
import { Refusal } from '#app/utils/action-error'
import { AGENCY_STAFF_ACCESS } from '#app/validation/people'
import type { Transaction } from '#drizzle/db.server'
import { endUserLimitMessage, fitsEndUser, fitsStaff, staffLimitMessage } from './plan-limits'

/** One more staff account (agency admin, agency member or team member) in this agency. */
export async function assertStaffSeat(tx: Transaction, organizationId: string, field?: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`staff-seats:${organizationId}`}))`)
  const tier = await findSubscriptionTier(tx, organizationId)
  const staff = await countUsersWithRoles(tx, organizationId, AGENCY_STAFF_ACCESS)
  if (!fitsStaff(tier, staff)) throw new Refusal('conflict', staffLimitMessage(tier), { field })
}

/** One more end user assigned to this team member. */
export async function assertEndUserSeat(
  tx: Transaction,
  organizationId: string,
  teamMember: User,
  field?: string,
) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`end-user-seats:${teamMember.id}`}))`,
  )
  const assigned = await countAssignedEndUsers(tx, organizationId, teamMember.id)
  if (!fitsEndUser(teamMember.memberPlan, assigned)) {
    const name = `${teamMember.firstName} ${teamMember.lastName}`.trim() || teamMember.email
    throw new Refusal('conflict', endUserLimitMessage(teamMember.memberPlan, name), {
      field: field,
    })
  }
}
