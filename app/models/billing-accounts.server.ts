// An account's Stripe customer and subscription (ADR 051). Written by the checkout (the
// customer) and the webhook jobs (the subscription, its plan and its payment state).
import { and, desc, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { billingAccounts, users } from '#drizzle/schema'

export type BillingAccount = typeof billingAccounts.$inferSelect

export async function findBillingAccount(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(
      and(eq(billingAccounts.organizationId, organizationId), eq(billingAccounts.userId, userId)),
    )
  return row
}

/**
 * The agency's billing account (Agency Pro): the row of whichever agency admin bought it, every
 * admin of the agency seeing and managing the same one; the latest changed when there are more.
 */
export async function findAgencyBillingAccount(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({ account: billingAccounts })
    .from(billingAccounts)
    .innerJoin(
      users,
      and(
        eq(users.organizationId, billingAccounts.organizationId),
        eq(users.id, billingAccounts.userId),
      ),
    )
    .where(and(eq(billingAccounts.organizationId, organizationId), eq(users.role, 'agency_admin')))
    .orderBy(desc(billingAccounts.updatedAt))
    .limit(1)
  return row?.account
}

/** The account's row with this customer and subscription, made or brought up to date. */
export async function saveBillingSubscription(
  db: Queryable,
  organizationId: string,
  userId: string,
  values: {
    stripeCustomerId: string
    stripeSubscriptionId: string | null
    plan: BillingAccount['plan']
    status: BillingAccount['status']
    graceEndsAt: Date | null
  },
) {
  const [row] = await db
    .insert(billingAccounts)
    .values({ organizationId, userId, ...values })
    .onConflictDoUpdate({
      target: [billingAccounts.organizationId, billingAccounts.userId],
      set: { ...values, updatedAt: new Date() },
    })
    .returning()
  return row
}

/** The account's customer, kept before Checkout so a second purchase reuses it. */
export async function saveBillingCustomer(
  db: Queryable,
  organizationId: string,
  userId: string,
  stripeCustomerId: string,
) {
  const [row] = await db
    .insert(billingAccounts)
    .values({ organizationId, userId, stripeCustomerId, status: 'canceled' })
    .onConflictDoNothing()
    .returning()
  return row ?? (await findBillingAccount(db, organizationId, userId))
}
