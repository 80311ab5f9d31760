import { parseWithZod } from '@conform-to/zod/v4'
import { ProfileSchema } from '#app/validation/profile'

/**
 * The profile form as the browser and the server both read it. Without auto-coercion an
 * emptied name stays '' and gets the schema's own message ('First name is required')
 * instead of zod's generic one for a missing value.
 */
export function parseProfileForm(formData: FormData) {
  return parseWithZod(formData, { schema: ProfileSchema, disableAutoCoercion: true })
}
