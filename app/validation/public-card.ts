// The public card page's forms (accounts-cards-sharing.md §8): connect, save and the visitor's
// lead form, shared by the page (conform, when React runs; card-visitor.js shows the server's
// messages otherwise) and the card's action.
import { z } from 'zod'
import { optionalContactCompany, optionalContactPhone } from './contact-fields'
import { NAME_MAX_LENGTH, NAME_MIN_LENGTH, nameTooLong } from './names'
import { isSingleLine, plainText, SINGLE_LINE_MESSAGE } from './text'

const ENTER_NAME = 'Please enter your name'
const ENTER_EMAIL = 'Please enter a valid email address'

export const LEAD_NOTE_MAX_LENGTH = 1000

const LeadFieldsSchema = z.object({
  fullName: z
    .string({ error: ENTER_NAME })
    .trim()
    .min(NAME_MIN_LENGTH, ENTER_NAME)
    .max(NAME_MAX_LENGTH.fullName, nameTooLong('Name', NAME_MAX_LENGTH.fullName))
    .refine(isSingleLine, SINGLE_LINE_MESSAGE),
  email: z
    .string({ error: ENTER_EMAIL })
    .trim()
    .max(254, ENTER_EMAIL)
    .pipe(z.email({ error: ENTER_EMAIL })),
  // One line each (issue 39 point 3): the owner's notification and the receipt show them as
  // quoted data, and a line break would start a line of the visitor's own inside the email.
  phoneNumber: optionalContactPhone,
  company: optionalContactCompany,
  // Several lines are welcome in a note; other control characters are not (plainText).
  note: plainText(LEAD_NOTE_MAX_LENGTH, 'Your note is too long').optional().default(''),
})

/** Next to the consent box of an agency that asks for consent (ADR 050). */
export const CONSENT_REQUIRED = 'Please tick the box to agree before sending your details'

/**
 * The lead form: the visitor's details, the honeypot people leave empty, and, when the agency
 * asks for consent, the version of its text the form showed (`consentTextId`) with the box
 * (`consent`), which must then be ticked. The action also refuses a lead without a version
 * while the agency asks for consent (a form from before, or a bot).
 */
export const LeadSchema = LeadFieldsSchema.extend({
  intent: z.literal('lead'),
  website: z.string().max(500).optional(),
  consentTextId: z.uuid().optional(),
  consent: z.literal('on', { error: CONSENT_REQUIRED }).optional(),
}).refine((lead) => !lead.consentTextId || lead.consent === 'on', {
  message: CONSENT_REQUIRED,
  path: ['consent'],
  // Said with the other fields' messages, not only once they are right.
  when: (payload) => typeof payload.value === 'object' && payload.value !== null,
})

/** "Keep me updated" (ADR 102): the address to confirm, and the honeypot people leave empty. */
export const FollowSchema = z.object({
  intent: z.literal('follow'),
  email: LeadFieldsSchema.shape.email,
  website: z.string().max(500).optional(),
})

export const CardIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('connect') }),
  z.object({ intent: z.literal('save') }),
  LeadSchema,
  FollowSchema,
])
