// The REST API's schemas (issue 43, ADR 092): the key form of the admin screen, and every
// request and answer of /api/v1. The same schemas validate the requests (app/api/) and make the
// OpenAPI document (app/api/openapi.server.ts, through zod's `.meta()`), so the two cannot differ.
import { z } from 'zod'
import {
  BIO_MAX_LENGTH,
  COMPANY_MAX_LENGTH,
  DEPARTMENT_MAX_LENGTH,
  JOB_TITLE_MAX_LENGTH,
  PHONE_MAX_LENGTH,
} from './card-details'
import { CARD_TITLE_MAX_LENGTH } from './cards-list'
import { CONTACT_NOTE_MAX_LENGTH } from './contact-fields'
import { NAME_MAX_LENGTH } from './names'
import { WEBSITE_MAX_LENGTH } from './profile'
import { WEBHOOK_EVENT_TYPES } from './webhooks'

export const API_RESOURCES = ['cards', 'contacts', 'users', 'teams', 'webhooks'] as const
export type ApiResource = (typeof API_RESOURCES)[number]
export const API_SCOPES = API_RESOURCES.flatMap(
  (resource) => [`${resource}:read`, `${resource}:write`] as const,
)
export type ApiScope = `${ApiResource}:${'read' | 'write'}`
export const API_RESOURCE_LABELS: Record<ApiResource, string> = {
  cards: 'Cards and their analytics',
  contacts: 'Contacts and leads',
  users: 'Users',
  teams: 'Teams',
  webhooks: 'Webhooks',
}

/** Keys start with this, so secret scanners and people can tell what they hold. */
export const API_KEY_PREFIX = 'bck_'
/** A key's shape: the prefix, 30 base62 characters, and a 6-character base62 CRC32 of them. */
export const API_KEY_PATTERN = /^bck_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/

export const KEY_NAME_REQUIRED = 'Please name the key'
export const SCOPES_REQUIRED = 'Please choose at least one permission'
export const EXPIRY_IN_PAST = 'Please choose a date after today, or none'

export const createApiKeyForm = z.object({
  intent: z.literal('create-key'),
  name: z.string({ error: KEY_NAME_REQUIRED }).trim().min(1, KEY_NAME_REQUIRED).max(80),
  scopes: z
    .array(z.enum(API_SCOPES as unknown as [ApiScope, ...ApiScope[]]), { error: SCOPES_REQUIRED })
    .min(1, SCOPES_REQUIRED),
  // A date (YYYY-MM-DD) the key stops working at the end of, in UTC; empty: never.
  expiresOn: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a date')
    .optional(),
})

export const revokeApiKeyForm = z.object({
  intent: z.literal('revoke-key'),
  keyId: z.string({ error: 'Please choose a key' }).uuid('Please choose a key'),
})

export const apiKeysForm = z.discriminatedUnion('intent', [createApiKeyForm, revokeApiKeyForm])

// --- Requests and answers of /api/v1 ----------------------------------------------------------

const id = (what: string) => z.uuid().meta({ description: `The ${what}'s id` })
const text = (max: number) => z.string().trim().max(max)
const time = z.string().meta({ format: 'date-time', example: '2026-12-01T09:30:00.000Z' })

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z
      .array(z.object({ pointer: z.string(), detail: z.string() }))
      .optional()
      .meta({ description: 'What was wrong with each invalid field (400 only)' }),
  })
  .meta({ id: 'Problem', description: 'An error, as RFC 9457 problem details' })

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ example: 50 }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'The `next_cursor` of the page before; absent for the first page' }),
  updated_since: z
    .string()
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only rows changed at or after this time (ISO 8601)' }),
})

const pageOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      next_cursor: z.string().nullable().meta({ description: 'Null on the last page' }),
    })
    .meta({ id: `${name}Page` })

export const CardSchema = z
  .object({
    id: z.uuid(),
    owner_id: z.uuid(),
    title: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string(),
    company: z.string(),
    job_title: z.string(),
    department: z.string(),
    website: z.string(),
    bio: z.string(),
    is_default: z.boolean(),
    template_id: z.uuid().nullable(),
    archived_at: time.nullable().meta({
      description:
        'When the card was archived: it then shows nothing on any surface until restored (null: live)',
    }),
    created_at: time,
    updated_at: time,
  })
  .meta({ id: 'Card' })
export const CardPageSchema = pageOf(CardSchema, 'Card')

/** The cards list: a page, optionally only live or only archived cards (ADR 095). */
export const CardListQuery = PageQuery.extend({
  archived: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true: only archived cards; false: only live ones; absent: both' }),
})

const cardFields = {
  title: text(CARD_TITLE_MAX_LENGTH).min(1),
  first_name: text(NAME_MAX_LENGTH.namePart).min(1),
  last_name: text(NAME_MAX_LENGTH.namePart).min(1),
  email: z.union([z.email().max(254), z.literal('')]),
  phone_number: text(PHONE_MAX_LENGTH),
  company: text(COMPANY_MAX_LENGTH),
  job_title: text(JOB_TITLE_MAX_LENGTH),
  department: text(DEPARTMENT_MAX_LENGTH),
  website: z.union([z.url({ protocol: /^https?$/ }).max(WEBSITE_MAX_LENGTH), z.literal('')]),
  bio: text(BIO_MAX_LENGTH),
}

export const CardCreateSchema = z
  .object({
    owner_id: id('card owner').meta({ description: 'The user of this agency who owns the card' }),
    ...cardFields,
    title: cardFields.title.optional(),
  })
  .partial({ email: true, phone_number: true, company: true, job_title: true })
  .partial({ department: true, website: true, bio: true })
  .strict()
  .meta({ id: 'CardCreate' })

export const CardUpdateSchema = z
  .object(cardFields)
  .partial()
  .strict()
  .refine((value) => Object.keys(value).length > 0, 'Send at least one field')
  .meta({ id: 'CardUpdate' })

export const CardWrittenSchema = z
  .object({
    card: CardSchema,
    locked_fields_kept: z.array(z.string()).meta({
      description: "Fields the card's template locks: the template's values were kept",
    }),
  })
  .meta({ id: 'CardWritten' })

export const CardIdParams = z.object({ cardId: id('card') })

export const AnalyticsQuery = z.object({
  from: z.iso.date().optional().meta({ description: 'First UTC day; 30 days ago by default' }),
  to: z.iso.date().optional().meta({ description: 'Last UTC day; today by default' }),
})

export const AnalyticsSchema = z
  .object({
    card_id: z.uuid(),
    from: z.string(),
    to: z.string(),
    days: z.array(
      z.object({
        day: z.string().meta({ example: '2026-12-01' }),
        source: z.string().meta({ example: 'qr' }),
        kind: z.string().meta({ description: 'view, save, exchange or link', example: 'view' }),
        count: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'CardAnalytics' })

export const CONTACT_SOURCES = ['connect', 'lead', 'saved', 'manual', 'scan'] as const

export const ContactSchema = z
  .object({
    id: z.uuid(),
    owner_id: z.uuid(),
    full_name: z.string(),
    email: z.string(),
    phone_number: z.string(),
    company: z.string(),
    job_title: z.string(),
    note: z.string(),
    source: z.enum(CONTACT_SOURCES),
    source_card_id: z.uuid().nullable(),
    personal: z.boolean(),
    consent: z
      .object({ given_at: time, page: z.string().nullable(), text_version: z.number().nullable() })
      .nullable()
      .meta({ description: "A lead's consent: when, on which page, to which text version" }),
    created_at: time,
    updated_at: time,
  })
  .meta({ id: 'Contact' })
export const ContactPageSchema = pageOf(ContactSchema, 'Contact')

export const ContactListQuery = PageQuery.extend({
  source: z
    .enum(CONTACT_SOURCES)
    .optional()
    .meta({ description: 'Only contacts that came this way; `lead` lists the leads' }),
})

export const ContactCreateSchema = z
  .object({
    owner_id: id('owner').meta({ description: 'The user of this agency whose list it joins' }),
    full_name: text(NAME_MAX_LENGTH.fullName).min(1),
    email: z.union([z.email().max(254), z.literal('')]).optional(),
    phone_number: text(PHONE_MAX_LENGTH).optional(),
    company: text(COMPANY_MAX_LENGTH).optional(),
    job_title: text(JOB_TITLE_MAX_LENGTH).optional(),
    note: text(CONTACT_NOTE_MAX_LENGTH).optional(),
  })
  .strict()
  .meta({ id: 'ContactCreate' })

export const ContactIdParams = z.object({ contactId: id('contact') })

export const UserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    role: z.string().meta({ example: 'end_user' }),
    status: z.enum(['active', 'inactive']),
    created_at: time,
    updated_at: time,
  })
  .meta({ id: 'User' })
export const UserPageSchema = pageOf(UserSchema, 'User')

export const UserInviteSchema = z
  .object({
    email: z.email().max(254),
    first_name: text(NAME_MAX_LENGTH.namePart).min(1),
    last_name: text(NAME_MAX_LENGTH.namePart).default(''),
  })
  .strict()
  .meta({ id: 'UserInvite', description: 'An end user, emailed a link to choose a password' })

export const UserIdParams = z.object({ userId: id('user') })

export const UserDeactivateSchema = z
  .object({
    successor_id: z.uuid().optional().meta({
      description:
        "Who takes over the seat: the person's links forward to their card and the company contacts move to them",
    }),
  })
  .strict()
  .meta({ id: 'UserDeactivate' })

export const TeamSchema = z
  .object({ id: z.uuid(), name: z.string(), members: z.number().int(), created_at: time })
  .meta({ id: 'Team' })
export const TeamPageSchema = pageOf(TeamSchema, 'Team')

/**
 * Teams are paged in the order they were made, so there is no `updated_since`: a member joining
 * changes a team's count, not its row.
 */
export const TeamListQuery = PageQuery.omit({ updated_since: true })

export const TeamDetailSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    created_at: time,
    members: z.array(z.object({ user_id: z.uuid(), role: z.string(), email: z.string() })),
  })
  .meta({ id: 'TeamDetail' })

export const TeamIdParams = z.object({ teamId: id('team') })

// Webhook endpoints through the API (ADR 093): the screen's rules, the API's snake_case names.
export const WebhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    failing_since: time.nullable(),
    last_success_at: time.nullable(),
    created_at: time,
  })
  .meta({ id: 'WebhookEndpoint' })
export const WebhookEndpointListSchema = z
  .object({ data: z.array(WebhookEndpointSchema) })
  .meta({ id: 'WebhookEndpointList' })
export const WebhookEndpointCreatedSchema = WebhookEndpointSchema.extend({
  secret: z.string().nullable().meta({
    description:
      'The signing secret (whsec_…), shown this once; null when an Idempotency-Key replays the answer',
  }),
}).meta({ id: 'WebhookEndpointCreated' })
export const WebhookEndpointWriteSchema = z
  .object({
    url: z.string().max(2000).meta({ description: 'https:// on a public address' }),
    description: z.string().max(200).default(''),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
  })
  .strict()
  .meta({ id: 'WebhookEndpointWrite' })
export const WebhookEndpointIdParams = z.object({ endpointId: id('webhook endpoint') })
