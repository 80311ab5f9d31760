// A user's notification preferences, kept in user_settings.preferences beside other settings.
import { getUserPreferences, setUserPreference } from '#app/models/user-settings.server'
import {
  type NotificationPreferences,
  NotificationPreferencesSchema,
} from '#app/validation/notifications'
import type { Queryable } from '#drizzle/db.server'

export async function getNotificationPreferences(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<NotificationPreferences> {
  return notificationPreferencesOf(await getUserPreferences(db, organizationId, userId))
}

/** The notification preferences among a user's stored preferences (read once by the profile). */
export function notificationPreferencesOf(
  stored: Record<string, unknown>,
): NotificationPreferences {
  return NotificationPreferencesSchema.parse({
    notifications: stored.notifications,
    marketingEmails: stored.marketingEmails,
    newContactAlerts: stored.newContactAlerts,
    teamUpdates: stored.teamUpdates,
  })
}

/** Writes the given preferences; keys left out keep their stored value. */
export async function saveNotificationPreferences(
  db: Queryable,
  organizationId: string,
  userId: string,
  preferences: Partial<NotificationPreferences>,
) {
  for (const [key, value] of Object.entries(preferences)) {
    if (typeof value === 'boolean') await setUserPreference(db, organizationId, userId, key, value)
  }
}
