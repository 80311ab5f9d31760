// The CRM integration page (/api-settings, accounts-cards-sharing.md §1, §4, §8): its messages,
// exactly as the spec words them, and the form shared by the page and its action.
import { z } from 'zod'

export const API_SETTINGS_MESSAGES = {
  keyRequired: 'Please enter an API key',
  keyInvalid: 'Invalid API key. Please check and try again.',
  validationFailed: 'Failed to validate API key. Please try again.',
  disabled: 'CRM integration disabled',
  updated: 'API settings updated successfully',
  updateFailed: 'Failed to update API settings',
  loadFailed: 'Failed to load your API settings',
  signedOut: 'You must be logged in to update API settings',
} as const

// GoHighLevel keys are a few hundred characters at most; anything far longer is not one.
const apiKey = z
  .string()
  .trim()
  .max(2000, 'That is too long to be an API key')
  .regex(/^[\x21-\x7e]*$/, 'An API key has no spaces or special characters')
  .optional()
  .default('')

// GoHighLevel's v2 API files every contact under a sub-account ("location"): its id, from the
// sub-account's Settings → Business Profile. Optional: a key for a single location may not need it.
const locationId = z
  .string()
  .trim()
  .max(64, 'That is too long to be a location ID')
  .regex(/^[A-Za-z0-9_-]*$/, 'A location ID has only letters and digits')
  .optional()
  .default('')

/**
 * `keepStoredKey` is the page's word that the key field was left alone: the saved key (never
 * sent back to the browser) stays. Typing in the field, or 'Remove key', clears it.
 */
const keepStoredKey = z.enum(['1', '0']).optional().default('0')

export const ApiSettingsSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('validate'), apiKey, keepStoredKey, locationId }),
  z.object({
    intent: z.literal('save'),
    apiKey,
    keepStoredKey,
    locationId,
    enabled: z.boolean({ error: 'Please choose on or off' }).optional().default(false),
  }),
  z.object({ intent: z.literal('retry'), contactId: z.string().trim().uuid('Unknown contact') }),
])
export type ApiSettingsForm = z.output<typeof ApiSettingsSchema>

export type KeyStatus = 'unknown' | 'valid' | 'invalid'
