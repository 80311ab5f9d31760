import { and, desc, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { auditEvents } from '#drizzle/schema'

export type AuditInput = {
  actorUserId: string | null
  action: string
  entityType: string
  entityId?: string | null
  metadata?: Record<string, unknown>
}

export async function recordAudit(db: Queryable, organizationId: string, event: AuditInput) {
  await db.insert(auditEvents).values({ organizationId, ...event, metadata: event.metadata ?? {} })
}

/** A user's own recent activity (the profile's Activity tab). */
export async function listActivityForUser(
  db: Queryable,
  organizationId: string,
  userId: string,
  limit = 50,
) {
  return db
    .select({
      id: auditEvents.id,
      action: auditEvents.action,
      entityType: auditEvents.entityType,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.actorUserId, userId)))
    .orderBy(desc(auditEvents.createdAt))
    .limit(limit)
}
