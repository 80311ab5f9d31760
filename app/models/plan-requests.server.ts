// Paid plans asked for where nobody pays online (issue 41 point 4, ADR 079). Every function takes
// the organization; the requester's own take the person too, so nobody reads or withdraws
// another's request by its id.
import { and, asc, count, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { planRequests, users } from '#drizzle/schema'

export type PlanRequest = typeof planRequests.$inferSelect
export type RequestedPlan = PlanRequest['plan']

const pendingOf = (organizationId: string) =>
  and(eq(planRequests.organizationId, organizationId), eq(planRequests.status, 'pending'))

/**
 * A new pending request, or undefined when the person has one pending already (the partial
 * unique index decides, so two presses at once make one).
 */
export async function insertPlanRequest(
  db: Queryable,
  organizationId: string,
  userId: string,
  plan: RequestedPlan,
) {
  const [row] = await db
    .insert(planRequests)
    .values({ organizationId, userId, plan })
    .onConflictDoNothing()
    .returning()
  return row
}

/** The person's pending request, if any: what their upgrade page says is waiting. */
export async function findPendingPlanRequest(
  db: Queryable,
  organizationId: string,
  userId: string,
) {
  const [row] = await db
    .select()
    .from(planRequests)
    .where(and(pendingOf(organizationId), eq(planRequests.userId, userId)))
    .limit(1)
  return row
}

/** The organization's pending requests, oldest first, with who asked: the admins' list. */
export function listPendingPlanRequests(db: Queryable, organizationId: string) {
  return db
    .select({
      id: planRequests.id,
      plan: planRequests.plan,
      createdAt: planRequests.createdAt,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
    })
    .from(planRequests)
    .innerJoin(
      users,
      and(eq(users.organizationId, planRequests.organizationId), eq(users.id, planRequests.userId)),
    )
    .where(pendingOf(organizationId))
    .orderBy(asc(planRequests.createdAt))
}

/** How many requests wait for the organization's admins: the End Users badge. */
export async function countPendingPlanRequests(db: Queryable, organizationId: string) {
  const [row] = await db.select({ n: count() }).from(planRequests).where(pendingOf(organizationId))
  return row?.n ?? 0
}

/**
 * Grants or declines a pending request, once: undefined when it is not pending any more (another
 * admin decided first, or the person withdrew it), so two clicks cannot both apply.
 */
export async function decidePlanRequest(
  db: Queryable,
  organizationId: string,
  requestId: string,
  decision: 'granted' | 'declined',
  decidedBy: string,
) {
  const [row] = await db
    .update(planRequests)
    .set({ status: decision, decidedAt: new Date(), decidedBy })
    .where(and(pendingOf(organizationId), eq(planRequests.id, requestId)))
    .returning()
  return row
}

/** The person takes their pending request back; undefined when there was none. */
export async function withdrawPlanRequest(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .update(planRequests)
    .set({ status: 'withdrawn', decidedAt: new Date(), decidedBy: userId })
    .where(and(pendingOf(organizationId), eq(planRequests.userId, userId)))
    .returning()
  return row
}
