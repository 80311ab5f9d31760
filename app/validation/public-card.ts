// The public card page's forms (accounts-cards-sharing.md §8): connect, save and the visitor's
// lead form, shared by the page (conform, when React runs; card-visitor.js shows the server's
// messages otherwise) and the card's action.
import { z } from 'zod'
import { NAME_MAX_LENGTH, NAME_MIN_LENGTH, nameTooLong } from './names'
import { plainText } from './text'

const ENTER_NAME = 'Please enter your name'
const ENTER_EMAIL = 'Please enter a valid email address'

export const LEAD_NOTE_MAX_LENGTH = 1000

const LeadFieldsSchema = z.object({
  fullName: z
    .string({ error: ENTER_NAME })
    .trim()
    .min(NAME_MIN_LENGTH, ENTER_NAME)
    .max(NAME_MAX_LENGTH.fullName, nameTooLong('Name', NAME_MAX_LENGTH.fullName)),
  email: z
    .string({ error: ENTER_EMAIL })
    .trim()
    .max(254, ENTER_EMAIL)
    .pipe(z.email({ error: ENTER_EMAIL })),
  phoneNumber: plainText(50, 'Phone must be at most 50 characters').optional().default(''),
  company: plainText(200, 'Company must be at most 200 characters').optional().default(''),
  note: plainText(LEAD_NOTE_MAX_LENGTH, 'Your note is too long').optional().default(''),
})

/** The lead form: the visitor's details, and the honeypot people leave empty. */
export const LeadSchema = LeadFieldsSchema.extend({
  intent: z.literal('lead'),
  website: z.string().max(500).optional(),
})

export const CardIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('connect') }),
  z.object({ intent: z.literal('save') }),
  LeadSchema,
])
