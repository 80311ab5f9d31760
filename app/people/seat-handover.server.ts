// Handing a departing person's seat over to a successor (issue 31 point 2, ADR 049): the links
// of the person's cards forward to the successor's card while the person is inactive, and the
// contacts they gathered for the company (every one they did not mark personal) become the
// successor's. The agency's End Users screen calls this; so does account deletion (issue 31
// point 4) before an agency account's rows go. It runs inside the caller's tenant transaction,
// so the successor, the contacts and the audit event are written together or not at all.
import { recordAudit } from '#app/models/audit.server'
import { moveCompanyContacts } from '#app/models/contacts.server'
import { clearSeatSuccessor, setSeatSuccessor } from '#app/models/seat-successors.server'
import { findUserById, type User } from '#app/models/users.server'
import { Refusal } from '#app/utils/action-error'
import {
  NO_SUCCESSOR_TO_CLEAR,
  SUCCESSOR_IS_SELF,
  SUCCESSOR_NOT_ACTIVE,
} from '#app/validation/seat-forwarding'
import type { Transaction } from '#drizzle/db.server'

export type SeatHandOver = {
  /** The tenant transaction both accounts belong to (withTenant of their organization). */
  organizationId: string
  /** The departing account, whose links forward and whose company contacts move. */
  userId: string
  /** Who takes over: an active account of the same organization. */
  successorId: string
  /** Who decided it (the audit event's actor): an admin, the person themselves, or null for the
   * agency's directory (SCIM, ADR 089). */
  actorUserId: string | null
  /** The actor's own organization, when it is another (a super admin acting on the platform). */
  actorOrganizationId?: string
}

export type SeatHandedOver = { successor: User; contactsMoved: number }

/**
 * Hands `userId`'s seat to `successorId`: names the successor (links forward there while the
 * account is inactive), moves the company contacts (a contact the successor already has by email
 * stays), and records `user.seat_handed_over`. Refuses (a Refusal on `successorId`) a successor
 * who is the person, is not in this organization or is not active; the departing account must
 * exist in the organization (404). The departing account's status is the caller's to change.
 */
export async function handOverSeat(tx: Transaction, input: SeatHandOver): Promise<SeatHandedOver> {
  const { organizationId, userId, successorId } = input
  if (userId === successorId)
    throw new Refusal('invalid', SUCCESSOR_IS_SELF, { field: 'successorId' })
  const departing = await findUserById(tx, organizationId, userId)
  if (!departing) throw new Refusal('not_found', 'User not found')
  const successor = await findUserById(tx, organizationId, successorId)
  if (successor?.status !== 'active') {
    throw new Refusal('invalid', SUCCESSOR_NOT_ACTIVE, { field: 'successorId' })
  }
  await setSeatSuccessor(tx, organizationId, userId, successorId, input.actorUserId)
  const contactsMoved = await moveCompanyContacts(tx, organizationId, userId, successorId)
  await recordAudit(tx, organizationId, {
    actorUserId: input.actorUserId,
    action: 'user.seat_handed_over',
    entityType: 'user',
    entityId: userId,
    metadata: {
      successorId,
      contactsMoved,
      ...(input.actorOrganizationId ? { actorOrganizationId: input.actorOrganizationId } : {}),
    },
  })
  return { successor, contactsMoved }
}

/**
 * Clears a seat's successor (the End Users screen's forwarding overview): the person's links
 * answer the agency's default ("When Someone Leaves") again; the contacts already moved stay
 * with the successor (they became the company's). Records `user.seat_successor_cleared` with
 * the former successor. 404 when the account had none (cleared meanwhile, or another's id).
 */
export async function clearSeatHandOver(
  tx: Transaction,
  input: Omit<SeatHandOver, 'successorId'>,
): Promise<{ successorId: string }> {
  const { organizationId, userId } = input
  const cleared = await clearSeatSuccessor(tx, organizationId, userId)
  if (!cleared) throw new Refusal('not_found', NO_SUCCESSOR_TO_CLEAR)
  await recordAudit(tx, organizationId, {
    actorUserId: input.actorUserId,
    action: 'user.seat_successor_cleared',
    entityType: 'user',
    entityId: userId,
    metadata: {
      successorId: cleared.successorId,
      ...(input.actorOrganizationId ? { actorOrganizationId: input.actorOrganizationId } : {}),
    },
  })
  return cleared
}
