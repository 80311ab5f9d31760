// A lead captured at an event, maybe without a network (issue 45 point 4, ADR 104): the owner
// types it on "My cards offline", it waits in the browser's queue and is sent when the network
// returns. One schema for the page's form (checked before it is queued, so most mistakes show
// while still offline) and the endpoint that receives it; the key makes a resend harmless.
import { z } from 'zod'
import { NAME_MAX_LENGTH, NAME_MIN_LENGTH, nameTooLong } from './names'
import { isSingleLine, plainText, SINGLE_LINE_MESSAGE, singleLineText } from './text'

export const ENTER_LEAD_NAME = "Please enter the person's name"
const ENTER_EMAIL = 'Please enter a valid email address'
export const LEAD_NOTE_MAX_LENGTH = 2000
export const BAD_IDEMPOTENCY_KEY = 'This lead has no valid key; please capture it again'

/** The lead's fields as the owner types them; only the name is required. */
export const OfflineLeadFieldsSchema = z.object({
  fullName: z
    .string({ error: ENTER_LEAD_NAME })
    .trim()
    .min(NAME_MIN_LENGTH, ENTER_LEAD_NAME)
    .max(NAME_MAX_LENGTH.fullName, nameTooLong('Name', NAME_MAX_LENGTH.fullName))
    .refine(isSingleLine, SINGLE_LINE_MESSAGE),
  company: singleLineText(200, 'Company must be at most 200 characters').optional().default(''),
  email: z
    .union([
      z.literal(''),
      z
        .string()
        .trim()
        .max(254, ENTER_EMAIL)
        .pipe(z.email({ error: ENTER_EMAIL })),
    ])
    .optional()
    .default(''),
  phoneNumber: singleLineText(50, 'Phone must be at most 50 characters').optional().default(''),
  note: plainText(LEAD_NOTE_MAX_LENGTH, 'The note is too long').optional().default(''),
})

export type OfflineLeadFields = z.output<typeof OfflineLeadFieldsSchema>

/** What the queue sends: the fields and the key the browser made when the lead was captured. */
export const OfflineLeadSchema = OfflineLeadFieldsSchema.extend({
  idempotencyKey: z.uuid({ error: BAD_IDEMPOTENCY_KEY }),
})

/** The endpoint's answers the page shows. */
export const LEAD_SENT = 'Lead sent'
export const LEAD_ALREADY_IN_CONTACTS = 'Already in your contacts'
export const LEAD_KEY_REUSED = 'This lead was already sent with other details'
export const LEAD_SEND_IN_PROGRESS =
  'This lead is being sent by another tab; it will be checked again'
