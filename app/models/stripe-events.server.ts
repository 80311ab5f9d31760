// Verified Stripe events (ADR 051), one row per Stripe event id: the key makes a replay a no-op.
import { and, eq, isNull } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { stripeEvents } from '#drizzle/schema'

export type StripeEventRow = typeof stripeEvents.$inferSelect

/** Stores the event; false when an event with its id was stored before (a replay). */
export async function insertStripeEvent(
  db: Queryable,
  organizationId: string,
  event: { id: string; type: string; data: Record<string, string>; occurredAt: Date },
) {
  const rows = await db
    .insert(stripeEvents)
    .values({ organizationId, ...event })
    .onConflictDoNothing({ target: stripeEvents.id })
    .returning({ id: stripeEvents.id })
  return rows.length > 0
}

export async function findUnhandledStripeEvent(db: Queryable, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(stripeEvents)
    .where(
      and(
        eq(stripeEvents.organizationId, organizationId),
        eq(stripeEvents.id, id),
        isNull(stripeEvents.handledAt),
      ),
    )
  return row
}

export async function markStripeEventHandled(db: Queryable, organizationId: string, id: string) {
  await db
    .update(stripeEvents)
    .set({ handledAt: new Date() })
    .where(and(eq(stripeEvents.organizationId, organizationId), eq(stripeEvents.id, id)))
}
