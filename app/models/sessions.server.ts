import { and, eq, ne } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import {
  accountDeletions,
  media,
  sessions,
  userDataVersions,
  userSettings,
  users,
} from '#drizzle/schema'
import { tenantJoin } from './tenant-join.server'

export async function insertSession(
  db: Queryable,
  organizationId: string,
  session: { id: string; userId: string; expiresAt: Date; twoFactorVerified: boolean },
) {
  await db.insert(sessions).values({ ...session, organizationId })
}

/**
 * The session and its user, only within the organization the session was created in, with what
 * every signed-in page's frame shows of that user: the avatar's file, the stored preferences
 * (appearance) and a scheduled account deletion. One statement, where the root loader used to
 * open a transaction of its own for the last three (issue 44 point 3).
 */
export async function findSessionWithUser(
  db: Queryable,
  organizationId: string,
  sessionId: string,
) {
  const [row] = await db
    .select({
      session: sessions,
      user: users,
      avatarHash: media.hash,
      avatarExt: media.ext,
      preferences: userSettings.preferences,
      deletionScheduledFor: accountDeletions.scheduledFor,
      dataVersion: userDataVersions.version,
    })
    .from(sessions)
    .innerJoin(users, tenantJoin(users, sessions, users.id, sessions.userId))
    .leftJoin(media, tenantJoin(media, users, media.id, users.profilePictureMediaId))
    .leftJoin(userSettings, tenantJoin(userSettings, users, userSettings.userId, users.id))
    .leftJoin(
      accountDeletions,
      tenantJoin(accountDeletions, users, accountDeletions.userId, users.id),
    )
    .leftJoin(
      userDataVersions,
      tenantJoin(userDataVersions, users, userDataVersions.userId, users.id),
    )
    .where(and(eq(sessions.organizationId, organizationId), eq(sessions.id, sessionId)))
    .limit(1)
  if (!row) return undefined
  const { avatarHash, avatarExt, preferences, deletionScheduledFor, dataVersion, ...found } = row
  return {
    ...found,
    frame: {
      avatarUrl: avatarHash && avatarExt ? `/media/${avatarHash}.${avatarExt}` : null,
      preferences: preferences ?? {},
      deletionScheduledFor,
      // What the person's pages show changes with it (ADR 109): 0 until the first write.
      dataVersion: dataVersion ?? 0,
    },
  }
}

export type SessionFrame = NonNullable<Awaited<ReturnType<typeof findSessionWithUser>>>['frame']

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
