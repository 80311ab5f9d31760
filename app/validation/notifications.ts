// Notification preferences (spec §3: notifications on, marketing emails off by default).
import { z } from 'zod'

const CHOICE_MESSAGE = 'Please choose on or off'
const choice = () => z.boolean({ error: CHOICE_MESSAGE })

/**
 * The stored preferences of a user. A user who never saved any gets the spec's defaults, and a
 * stored value of the wrong type (an older or hand-edited row) falls back to its default too.
 */
export const NotificationPreferencesSchema = z.object({
  notifications: choice().catch(true).default(true),
  marketingEmails: choice().catch(false).default(false),
  // The team member's settings split 'notifications' further (roles-teams-admin §2.6).
  newContactAlerts: choice().catch(true).default(true),
  teamUpdates: choice().catch(true).default(true),
})

export type NotificationPreferences = z.output<typeof NotificationPreferencesSchema>

export const NOTIFICATION_DEFAULTS: NotificationPreferences = NotificationPreferencesSchema.parse(
  {},
)

/**
 * The profile's Notifications form: the same fields as checkboxes. An unchecked box sends
 * nothing, so here a missing field means off (the stored schema's defaults would turn it on);
 * anything but the checkbox's 'on' is refused.
 */
export const NotificationsFormSchema = z.object({
  notifications: choice().optional().default(false),
  marketingEmails: choice().optional().default(false),
})
