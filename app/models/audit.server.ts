import { and, desc, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Queryable } from '#drizzle/db.server'
import { auditEvents, organizations, users } from '#drizzle/schema'
import { containsPattern } from './search.server'

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

/** An event its holder caused on their own account (a password, a second factor, a profile). */
export function recordAccountAudit(
  db: Queryable,
  organizationId: string,
  userId: string,
  action: string,
  metadata?: Record<string, unknown>,
) {
  return recordAudit(db, organizationId, {
    actorUserId: userId,
    action,
    entityType: 'user',
    entityId: userId,
    metadata,
  })
}

/** An event of the organization itself (its domains, branding, settings), by `actorUserId`. */
export function recordOrganizationAudit(
  db: Queryable,
  organizationId: string,
  actorUserId: string | null,
  action: string,
  metadata?: Record<string, unknown>,
) {
  return recordAudit(db, organizationId, {
    actorUserId,
    action,
    entityType: 'organization',
    entityId: organizationId,
    metadata,
  })
}

/** An event its owner caused on one of their cards (made, changed, made the default, deleted). */
export function recordCardAudit(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  action: string,
  metadata?: Record<string, unknown>,
) {
  return recordAudit(db, organizationId, {
    actorUserId: userId,
    action,
    entityType: 'digital_card',
    entityId: cardId,
    metadata,
  })
}

/** An event a person caused on a team (made it, changed its people, answered an invitation). */
export function recordTeamAudit(
  db: Queryable,
  organizationId: string,
  userId: string,
  teamId: string,
  action: string,
  metadata?: Record<string, unknown>,
) {
  return recordAudit(db, organizationId, {
    actorUserId: userId,
    action,
    entityType: 'team',
    entityId: teamId,
    metadata,
  })
}

/** The events the user caused in the organization. */
const causedBy = (organizationId: string, userId: string) =>
  and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.actorUserId, userId))

/** How many of a user's own events the profile's Activity tab shows. */
const ACTIVITY_TAB_EVENTS = 50

/** A user's own recent activity (the profile's Activity tab). */
export async function listActivityForUser(db: Queryable, organizationId: string, userId: string) {
  return db
    .select({
      id: auditEvents.id,
      action: auditEvents.action,
      entityType: auditEvents.entityType,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .where(causedBy(organizationId, userId))
    .orderBy(desc(auditEvents.createdAt))
    .limit(ACTIVITY_TAB_EVENTS)
}

/** Every event the user caused, oldest first, with its details (the data export, ADR 052). */
export async function listAuditEventsOfActor(
  db: Queryable,
  organizationId: string,
  userId: string,
  limit = 100_000,
) {
  return db
    .select({
      action: auditEvents.action,
      entityType: auditEvents.entityType,
      entityId: auditEvents.entityId,
      metadata: auditEvents.metadata,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .where(causedBy(organizationId, userId))
    .orderBy(auditEvents.createdAt, auditEvents.id)
    .limit(limit)
}

// The audit log page (issue 14 point 6): events newest first, filtered by kind of action and by
// who did it. Platform reads ('platform.read', written by every cross-tenant read) are left out
// unless asked for, so the changes are not buried under them.
export type AuditFilter = {
  /** The action's prefix, e.g. 'team' for team.created, team.member_added, … */
  category: string
  /** Part of the actor's email or name. */
  actor: string
  includeReads: boolean
  limit: number
  offset: number
}

const actors = alias(users, 'actors')

function auditConditions(filter: AuditFilter): SQL[] {
  const conditions: SQL[] = []
  if (filter.category) conditions.push(sql`${auditEvents.action} like ${`${filter.category}.%`}`)
  if (!filter.includeReads) conditions.push(ne(auditEvents.action, 'platform.read'))
  const term = filter.actor.trim()
  if (term) {
    const pattern = containsPattern(term)
    const match = or(
      ilike(actors.email, pattern),
      sql`(${actors.firstName} || ' ' || ${actors.lastName}) ilike ${pattern}`,
    )
    if (match) conditions.push(match)
  }
  return conditions
}

function selectAuditEvents(db: Queryable, where: SQL | undefined, filter: AuditFilter) {
  return (
    db
      .select({
        id: auditEvents.id,
        action: auditEvents.action,
        entityType: auditEvents.entityType,
        entityId: auditEvents.entityId,
        actorUserId: auditEvents.actorUserId,
        metadata: auditEvents.metadata,
        createdAt: auditEvents.createdAt,
        organizationName: organizations.name,
        actorEmail: actors.email,
        actorFirstName: actors.firstName,
        actorLastName: actors.lastName,
      })
      .from(auditEvents)
      .innerJoin(organizations, eq(organizations.id, auditEvents.organizationId))
      // By id alone: a super admin acts in the account's organization from the platform's. Under
      // row-level security an agency never sees that actor's row, only that there was one.
      .leftJoin(actors, eq(actors.id, auditEvents.actorUserId))
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(filter.limit)
      .offset(filter.offset)
  )
}

/** One organization's events (an agency admin's log), inside withTenant. */
export function listAuditEvents(db: Queryable, organizationId: string, filter: AuditFilter) {
  return selectAuditEvents(
    db,
    and(eq(auditEvents.organizationId, organizationId), ...auditConditions(filter)),
    filter,
  )
}

/** Every organization's events: inside withPlatformScope only (the super admin's log). */
export function listAuditEventsForPlatform(db: Queryable, filter: AuditFilter) {
  return selectAuditEvents(db, and(...auditConditions(filter)), filter)
}

export type AuditEventRow = Awaited<ReturnType<typeof listAuditEventsForPlatform>>[number]
