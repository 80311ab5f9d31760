import { and, eq, ne } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { sessions, users } from '#drizzle/schema'
import { tenantJoin } from './tenant-join.server'

export async function insertSession(
  db: Queryable,
  organizationId: string,
  session: { id: string; userId: string; expiresAt: Date; twoFactorVerified: boolean },
) {
  await db.insert(sessions).values({ ...session, organizationId })
}

/** The session and its user, only within the organization the session was created in. */
export async function findSessionWithUser(
  db: Queryable,
  organizationId: string,
  sessionId: string,
) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, tenantJoin(users, sessions, users.id, sessions.userId))
    .where(and(eq(sessions.organizationId, organizationId), eq(sessions.id, sessionId)))
    .limit(1)
  return row
}

export async function extendSession(
  db: Queryable,
  organizationId: string,
  sessionId: string,
  expiresAt: Date,
) {
  await db
    .update(sessions)
    .set({ expiresAt })
    .where(and(eq(sessions.organizationId, organizationId), eq(sessions.id, sessionId)))
}

export async function deleteSession(db: Queryable, organizationId: string, sessionId: string) {
  await db
    .delete(sessions)
    .where(and(eq(sessions.organizationId, organizationId), eq(sessions.id, sessionId)))
}

/** Ends every session of a user, or every one but `exceptSessionId`. */
export async function deleteUserSessions(
  db: Queryable,
  organizationId: string,
  userId: string,
  exceptSessionId?: string,
) {
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.organizationId, organizationId),
        eq(sessions.userId, userId),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    )
}
