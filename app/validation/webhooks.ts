// Webhooks (issue 43 point 3, ADR 093): the event types an agency can subscribe to, the retry
// schedule's numbers, and the schemas of the admin screen's forms. The same endpoint schema
// serves the screen and the REST API (`webhookEndpointInput`), so both refuse alike.
import { z } from 'zod'

export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'contact.created',
  'contact.deleted',
  'card.updated',
  'card.viewed',
  'user.deactivated',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'lead.created': 'lead.created: a visitor left their details on a card',
  'contact.created': 'contact.created: any new contact (saved, connected or a lead)',
  'contact.deleted': 'contact.deleted: a lead deleted their data through their receipt',
  'card.updated': 'card.updated: a card was edited (by its owner, a template or the directory)',
  'card.viewed': 'card.viewed: views per card, one digest an hour',
  'user.deactivated': 'user.deactivated: a person was deactivated (by an admin or the directory)',
}

/** How long a delivery is retried after its message was made, and what fails an endpoint. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60_000
/** An endpoint whose every attempt failed for this long is disabled and its admins emailed. */
export const WEBHOOK_DISABLE_AFTER_MS = WEBHOOK_RETRY_WINDOW_MS
/** The longest wait between two attempts. */
export const WEBHOOK_MAX_DELAY_MS = 12 * 60 * 60_000

/**
 * The wait before attempt `attempt + 1` after `attempt` failed: the base quadrupled per attempt
 * (30 s, 2 min, 8 min, 32 min, ~2 h, ~8.5 h, then 12 h), each spread ±25% at random (jitter), so
 * endpoints that failed together are not all retried in the same second.
 */
export function webhookRetryDelayMs(attempt: number, baseMs: number, random = Math.random) {
  const delay = Math.min(baseMs * 4 ** Math.max(0, attempt - 1), WEBHOOK_MAX_DELAY_MS)
  return Math.round(delay * (0.75 + random() * 0.5))
}

/** How long a rotated secret keeps signing beside its successor. */
export const WEBHOOK_ROTATION_HOURS = [0, 1, 24, 72] as const
export const WEBHOOK_ROTATION_LABELS: Record<(typeof WEBHOOK_ROTATION_HOURS)[number], string> = {
  0: 'Stop at once',
  1: '1 hour',
  24: '24 hours',
  72: '3 days',
}

/** Secrets start with this (the Standard Webhooks convention): base64 of 32 random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

export const WEBHOOK_URL_REQUIRED = 'Please enter the endpoint’s URL (https://…)'
export const WEBHOOK_URL_INVALID = 'Please enter a URL starting with https://'
export const WEBHOOK_URL_CREDENTIALS = 'Please leave the user name and password out of the URL'
export const WEBHOOK_EVENTS_REQUIRED = 'Please choose at least one event'
export const WEBHOOK_URL_PRIVATE =
  'This address is in a private network (or this server’s own): webhooks only go to public addresses'

/** The URL, or null (URL.parse is too new for some browsers the form's check runs in). */
function parseUrl(value: string) {
  try {
    return new URL(value)
  } catch {
    return null
  }
}

const url = z
  .string({ error: WEBHOOK_URL_REQUIRED })
  .trim()
  .min(1, WEBHOOK_URL_REQUIRED)
  .max(2000, 'Please enter a shorter URL')
  // zod runs every refinement even after one fails: each parses on its own.
  .refine((value) => {
    const parsed = parseUrl(value)
    return parsed !== null && ['https:', 'http:'].includes(parsed.protocol)
  }, WEBHOOK_URL_INVALID)
  .refine((value) => {
    const parsed = parseUrl(value)
    return !parsed?.username && !parsed?.password
  }, WEBHOOK_URL_CREDENTIALS)

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: WEBHOOK_EVENTS_REQUIRED }), {
    error: WEBHOOK_EVENTS_REQUIRED,
  })
  .min(1, WEBHOOK_EVENTS_REQUIRED)
  .transform((types) => [...new Set(types)])

/** An endpoint as the screen and the API create or edit it. */
export const webhookEndpointInput = z.object({
  url,
  description: z
    .string()
    .trim()
    .max(200, 'Please keep the description under 200 characters')
    .default(''),
  eventTypes,
})
export type WebhookEndpointInput = z.output<typeof webhookEndpointInput>

const endpointId = z
  .string({ error: 'Please choose an endpoint' })
  .uuid('Please choose an endpoint')

export const createEndpointForm = webhookEndpointInput.extend({
  intent: z.literal('create-endpoint'),
})
export const editEndpointForm = webhookEndpointInput.extend({
  intent: z.literal('edit-endpoint'),
  endpointId,
})
export const deleteEndpointForm = z.object({ intent: z.literal('delete-endpoint'), endpointId })
export const enableEndpointForm = z.object({ intent: z.literal('enable-endpoint'), endpointId })
export const rotateSecretForm = z.object({
  intent: z.literal('rotate-secret'),
  endpointId,
  overlapHours: z.coerce
    .number({ error: 'Please choose how long the old secret keeps signing' })
    .int()
    .refine((hours) => (WEBHOOK_ROTATION_HOURS as readonly number[]).includes(hours), {
      message: 'Please choose how long the old secret keeps signing',
    }),
})
export const resendDeliveryForm = z.object({
  intent: z.literal('resend'),
  deliveryId: z.string({ error: 'Please choose a delivery' }).uuid('Please choose a delivery'),
})

/** Every form of the Webhooks screen, by intent. */
export const webhooksForm = z.discriminatedUnion('intent', [
  createEndpointForm,
  editEndpointForm,
  deleteEndpointForm,
  enableEndpointForm,
  rotateSecretForm,
  resendDeliveryForm,
])

export const WEBHOOK_LOG_PAGE_SIZE = 25

export const webhookLogQuery = z.object({
  endpoint: z.string().uuid().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1000).catch(1).default(1),
})
