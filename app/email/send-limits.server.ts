// The one gate every queued email passes (issue 26 point 7): an email someone can cause to
// reach someone else (an invitation, a confirmation link, a notification, a set-password link,
// an email-change notice) goes out in the tenant's name and from its domain, so it is limited per
// sender, per recipient and per tenant. queueEmailIn calls this inside the transaction that
// queues the email: a refusal rolls that transaction back (nothing queued, nothing counted) and
// the route answers 429 with the message. The numbers are in LIMITS (app/rate-limits/rate-limit.server.ts).
import {
  addressLimitKey,
  hitOrRefuseIn,
  limitKey,
  minutesText,
} from '#app/rate-limits/rate-limit.server'
import type { Transaction } from '#drizzle/db.server'

/** Who caused the email, for the per-sender limit. */
export type EmailCause =
  /** A signed-in account (an admin inviting, a member changing their email). */
  | { userId: string }
  /** Someone not signed in (signing up, a lead form), by client address. */
  | { clientIp: string }
  /**
   * The password-reset email only: limited per address and account when it is requested
   * (resetAccount, resetIp), because that request must answer alike for every address and the
   * email itself is written later, by a job that has nobody to answer a refusal to.
   */
  | 'limited-when-requested'
  /**
   * An agency's announcement (ADR 046): limited when it is sent (ANNOUNCEMENTS_PER_DAY per
   * agency), and fanned out by a job to end users who opted in; the hourly per-tenant ceiling
   * would cut a large list off halfway.
   */
  | 'announcement'
  /**
   * A followed card's digest (ADR 102): limited where it is made, to one per card and follower
   * a day (the follower confirmed it by email first, and each one carries a one-click way out);
   * a card with many followers would otherwise meet the hourly per-tenant ceiling halfway.
   */
  | 'card-digest'

export const SENDER_LIMITED = (wait: number) =>
  `You have caused too many emails in a short time. Please wait ${minutesText(wait)} and try again.`
export const RECIPIENT_LIMITED = (wait: number) =>
  `Too many emails have gone to this address recently. Please wait ${minutesText(wait)} and try again.`
export const TENANT_LIMITED = (wait: number) =>
  `This site has sent too many emails in the last hour. Please wait ${minutesText(wait)} and try again.`

/**
 * Counts the email against its limits, or throws a Refusal coded rate_limited. The tenant's row is taken
 * first: every email transaction of a tenant then locks its rows in the same order (tenant,
 * sender, recipient), so two of them never wait on each other in a cycle.
 */
export async function admitEmailIn(
  tx: Transaction,
  organizationId: string,
  to: string,
  cause: EmailCause,
) {
  if (cause === 'limited-when-requested' || cause === 'announcement' || cause === 'card-digest') {
    return
  }
  await hitOrRefuseIn(tx, 'emailTenant', limitKey('emailTenant', organizationId), TENANT_LIMITED)
  if ('userId' in cause) {
    const key = limitKey('emailSender', organizationId, cause.userId)
    await hitOrRefuseIn(tx, 'emailSender', key, SENDER_LIMITED)
  } else {
    const key = addressLimitKey('emailSenderIp', cause.clientIp)
    await hitOrRefuseIn(tx, 'emailSenderIp', key, SENDER_LIMITED)
  }
  await hitOrRefuseIn(
    tx,
    'emailRecipient',
    limitKey('emailRecipient', organizationId, to.trim().toLowerCase()),
    RECIPIENT_LIMITED,
  )
}
