import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { NotificationsFormSchema } from '#app/validation/notifications'
import { ChangePasswordSchema, ProfileSchema } from '#app/validation/profile'

/**
 * The profile form as the browser and the server both read it. Without auto-coercion an
 * emptied name stays '' and gets the schema's own message ('First name is required')
 * instead of zod's generic one for a missing value.
 */
export function parseProfileForm(formData: FormData) {
  return parseWithZod(formData, { schema: ProfileSchema, disableAutoCoercion: true })
}

/**
 * The profile page's forms as its one action reads them, by `intent`. The server parses
 * with conform's coercion, which turns an emptied field into a missing one: the schema's
 * missing-value messages are the same as its empty-value ones, so both sides say the same.
 */
export const ProfileIntentSchema = z.discriminatedUnion('intent', [
  ProfileSchema.extend({ intent: z.literal('profile') }),
  // safeExtend keeps the passwords' match check.
  ChangePasswordSchema.safeExtend({ intent: z.literal('password') }),
  NotificationsFormSchema.extend({ intent: z.literal('notifications') }),
])
