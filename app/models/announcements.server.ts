// An agency's announcements (ADR 046) and the end users who opted in to them. Every function
// takes the organization and runs inside withTenant.
import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { announcements, userSettings, users } from '#drizzle/schema'
import { tenantJoin } from './tenant-join.server'

export type Announcement = typeof announcements.$inferSelect

/**
 * The agency's customers, who may opt in: its end users and its team members (team_admin, who
 * pay for their own plan and have the same Marketing Communications switch). Never its staff.
 */
export const ANNOUNCEMENT_ROLES = ['end_user', 'team_admin'] as const

/**
 * Who an announcement reaches: the organization's active end users and team members whose Email Notifications
 * (the master switch, on unless stored off) and Marketing Communications (off unless stored on)
 * are both on. Stored values of the wrong type count as their defaults, as
 * NotificationPreferencesSchema reads them.
 */
function optedIn(organizationId: string) {
  return and(
    eq(users.organizationId, organizationId),
    inArray(users.role, ANNOUNCEMENT_ROLES),
    eq(users.status, 'active'),
    sql`${userSettings.preferences} -> 'marketingEmails' = 'true'::jsonb`,
    sql`coalesce(${userSettings.preferences} -> 'notifications' <> 'false'::jsonb, true)`,
  )
}

export async function countAnnouncementRecipients(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(userSettings, tenantJoin(userSettings, users, userSettings.userId, users.id))
    .where(optedIn(organizationId))
  return row?.n ?? 0
}

/** The next `limit` recipients after `afterUserId` (by id): the fan-out's keyset pages. */
export async function listAnnouncementRecipients(
  db: Queryable,
  organizationId: string,
  afterUserId: string | null,
  limit: number,
) {
  return db
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(users)
    .innerJoin(userSettings, tenantJoin(userSettings, users, userSettings.userId, users.id))
    .where(and(optedIn(organizationId), afterUserId ? gt(users.id, afterUserId) : undefined))
    .orderBy(asc(users.id))
    .limit(limit)
}

export async function insertAnnouncement(
  db: Queryable,
  organizationId: string,
  values: { sentByUserId: string; subject: string; body: string },
) {
  const [row] = await db
    .insert(announcements)
    .values({ organizationId, ...values })
    .returning()
  if (!row) throw new Error('announcement insert returned nothing')
  return row
}

export async function findAnnouncement(db: Queryable, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(announcements)
    .where(and(eq(announcements.organizationId, organizationId), eq(announcements.id, id)))
  return row
}

/** The newest first: the history on the Announcements screen. */
export async function listAnnouncements(db: Queryable, organizationId: string, limit = 50) {
  return db
    .select({
      id: announcements.id,
      subject: announcements.subject,
      status: announcements.status,
      recipientCount: announcements.recipientCount,
      createdAt: announcements.createdAt,
    })
    .from(announcements)
    .where(eq(announcements.organizationId, organizationId))
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(limit)
}

/** One batch of the fan-out done: `queued` more emails, up to `cursor`. */
export async function recordAnnouncementProgress(
  db: Queryable,
  organizationId: string,
  id: string,
  progress: { cursor: string; queued: number },
) {
  return db
    .update(announcements)
    .set({
      status: 'sending',
      cursor: progress.cursor,
      recipientCount: sql`${announcements.recipientCount} + ${progress.queued}`,
    })
    .where(and(eq(announcements.organizationId, organizationId), eq(announcements.id, id)))
    .returning({ id: announcements.id })
}

export async function finishAnnouncement(
  db: Queryable,
  organizationId: string,
  id: string,
  status: 'sent' | 'failed',
) {
  return db
    .update(announcements)
    .set({ status, finishedAt: new Date() })
    .where(and(eq(announcements.organizationId, organizationId), eq(announcements.id, id)))
    .returning({ id: announcements.id })
}
