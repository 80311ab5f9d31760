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

/** The CRMs a user can connect, one at a time (ADR 094), with the names the page shows. */
export const CRM_PROVIDERS = ['gohighlevel', 'hubspot', 'salesforce'] as const
export type CrmProviderName = (typeof CRM_PROVIDERS)[number]
export const CRM_PROVIDER_LABELS: Record<CrmProviderName, string> = {
  gohighlevel: 'GoHighLevel',
  hubspot: 'HubSpot',
  salesforce: 'Salesforce',
}

/** The provider a `?crm=` parameter names, or null for anything else. */
export function crmProviderOf(value: string | null | undefined): CrmProviderName | null {
  return CRM_PROVIDERS.find((provider) => provider === value) ?? null
}

/** HubSpot's and Salesforce's messages (ADR 094): said next to the field they are about. */
export const CRM_MESSAGES = {
  hubspotTokenRequired: 'Please enter the private app access token',
  hubspotTokenInvalid:
    "HubSpot refused this access token. Check that it is the private app's token and that the app has the contact scopes.",
  hubspotUnavailable: 'Could not reach HubSpot to check the token. Please try again.',
  hubspotRefusedAtSync: 'HubSpot refused the access token. Check the private app and its scopes.',
  salesforceUrlRequired: 'Please enter your Salesforce My Domain URL',
  salesforceUrlInvalid:
    "Enter your org's My Domain URL on https, such as https://yourcompany.my.salesforce.com",
  salesforceClientIdRequired: "Please enter the connected app's consumer key",
  salesforceSecretRequired: "Please enter the connected app's consumer secret",
  salesforceRefused:
    'Salesforce refused these credentials. Check the consumer key and secret, and that the client credentials flow has a run-as user.',
  salesforceUnavailable: 'Could not reach Salesforce to check the credentials. Please try again.',
  salesforceRefusedAtSync:
    "Salesforce refused the connected app's credentials. Check them and the run-as user.",
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

// A private app's access token (pat-na1-…, a few dozen characters).
const hubspotToken = z
  .string()
  .trim()
  .max(500, 'That is too long to be an access token')
  .regex(/^[\x21-\x7e]*$/, 'An access token has no spaces or special characters')
  .optional()
  .default('')

// The org's My Domain URL; which hosts the server calls is decided on the server (ADR 094).
const salesforceUrl = z
  .string()
  .trim()
  .max(200, 'That is too long to be a My Domain URL')
  .optional()
  .default('')
  .refine((value) => value === '' || /^https?:\/\/[^\s/]+\/?$/i.test(value), {
    message: CRM_MESSAGES.salesforceUrlInvalid,
  })

const salesforceClientId = z
  .string()
  .trim()
  .max(300, 'That is too long to be a consumer key')
  .regex(/^[\x21-\x7e]*$/, 'A consumer key has no spaces or special characters')
  .optional()
  .default('')

const salesforceClientSecret = z
  .string()
  .trim()
  .max(300, 'That is too long to be a consumer secret')
  .regex(/^[\x21-\x7e]*$/, 'A consumer secret has no spaces or special characters')
  .optional()
  .default('')

const enabled = z.boolean({ error: 'Please choose on or off' }).optional().default(false)

export const ApiSettingsSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('validate'), apiKey, keepStoredKey, locationId }),
  z.object({
    intent: z.literal('save'),
    apiKey,
    keepStoredKey,
    locationId,
    enabled,
  }),
  z.object({ intent: z.literal('retry'), contactId: z.string().trim().uuid('Unknown contact') }),
  // HubSpot and Salesforce (ADR 094): saving checks the credentials with one cheap call.
  z.object({
    intent: z.literal('save-hubspot'),
    hubspotToken,
    keepStoredHubspotToken: keepStoredKey,
    enabled,
  }),
  z.object({
    intent: z.literal('save-salesforce'),
    salesforceUrl,
    salesforceClientId,
    salesforceClientSecret,
    keepStoredSalesforceSecret: keepStoredKey,
    enabled,
  }),
])
export type ApiSettingsForm = z.output<typeof ApiSettingsSchema>

export type KeyStatus = 'unknown' | 'valid' | 'invalid'
