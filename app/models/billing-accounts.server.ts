// Billing accounts (ADR 051, ADR 055): a Stripe customer and its subscription, held by the
// organization (user_id null: Agency Pro) or by a seat (the account whose own plan it pays for).
// Written by the checkout (the customer) and the webhook jobs (the subscription, its plan and its
// payment state); the jobs find an account by the event's customer, never by who clicked.
import { and, eq, inArray, isNull, ne } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { billingAccounts } from '#drizzle/schema'

export type BillingAccount = typeof billingAccounts.$inferSelect

/** Who holds a billing account: the organization, or the seat of this account. */
export type BillingHolder = { organization: true } | { seatUserId: string }

const heldBy = (organizationId: string, holder: BillingHolder) =>
  and(
    eq(billingAccounts.organizationId, organizationId),
    'seatUserId' in holder
      ? eq(billingAccounts.userId, holder.seatUserId)
      : isNull(billingAccounts.userId),
  )

/** A seat's own billing account (a team plan, Team Member Basic). */
export async function findBillingAccount(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(heldBy(organizationId, { seatUserId: userId }))
  return row
}

/**
 * The agency's own billing account (Agency Pro): every admin sees and manages the same one, and
 * it stays when the admin who bought it leaves, is demoted or is deleted.
 */
export async function findAgencyBillingAccount(db: Queryable, organizationId: string) {
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(heldBy(organizationId, { organization: true }))
  return row
}

/**
 * Whether another account of the organization than `exceptId` still pays for Agency Pro (active,
 * or past due in its grace period): an admin's own account kept from before ADR 055 beside the
 * agency's, whose end must not take the tier the other still pays for.
 */
export async function hasOtherLiveAgencyPro(
  db: Queryable,
  organizationId: string,
  exceptId: string,
) {
  const rows = await db
    .select({ id: billingAccounts.id })
    .from(billingAccounts)
    .where(
      and(
        eq(billingAccounts.organizationId, organizationId),
        ne(billingAccounts.id, exceptId),
        eq(billingAccounts.plan, 'agency_pro'),
        inArray(billingAccounts.status, ['active', 'past_due']),
      ),
    )
    .limit(1)
  return rows.length > 0
}

/** The account by its id (the grace period's jobs), locked until the transaction ends. */
export async function lockBillingAccount(db: Queryable, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(and(eq(billingAccounts.organizationId, organizationId), eq(billingAccounts.id, id)))
    .for('update')
  return row
}

/**
 * The account of a Stripe customer, locked until the transaction ends: two events of the same
 * account are applied one after the other, each with the subscription as Stripe has it then.
 */
export async function lockBillingAccountOfCustomer(
  db: Queryable,
  organizationId: string,
  stripeCustomerId: string,
) {
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(
      and(
        eq(billingAccounts.organizationId, organizationId),
        eq(billingAccounts.stripeCustomerId, stripeCustomerId),
      ),
    )
    .for('update')
  return row
}

/** The account's subscription, plan and payment state brought up to date. */
export async function saveBillingSubscription(
  db: Queryable,
  organizationId: string,
  accountId: string,
  values: {
    stripeSubscriptionId: string | null
    plan: BillingAccount['plan']
    status: BillingAccount['status']
    graceEndsAt: Date | null
  },
) {
  const [row] = await db
    .update(billingAccounts)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(eq(billingAccounts.organizationId, organizationId), eq(billingAccounts.id, accountId)),
    )
    .returning()
  return row
}

/** The moment of the Stripe read the account now follows (see `subscriptionReadAt`). */
export async function markSubscriptionRead(
  db: Queryable,
  organizationId: string,
  accountId: string,
  readAt: Date,
) {
  await db
    .update(billingAccounts)
    .set({ subscriptionReadAt: readAt })
    .where(
      and(eq(billingAccounts.organizationId, organizationId), eq(billingAccounts.id, accountId)),
    )
}

/** The holder's customer, kept before Checkout so a second purchase reuses it. */
export async function saveBillingCustomer(
  db: Queryable,
  organizationId: string,
  holder: BillingHolder,
  stripeCustomerId: string,
) {
  const [row] = await db
    .insert(billingAccounts)
    .values({
      organizationId,
      userId: 'seatUserId' in holder ? holder.seatUserId : null,
      stripeCustomerId,
      status: 'canceled',
    })
    .onConflictDoNothing()
    .returning()
  if (row) return row
  const [kept] = await db.select().from(billingAccounts).where(heldBy(organizationId, holder))
  return kept
}
