// Cards that outlive a seat (issue 31 point 2, ADR 049): what the links of a departed person's
// cards answer, as the agency chose it on its End Users screen, and the hand-over of a seat to a
// successor. Shared by the dialogs, the actions and the card gate.
import { z } from 'zod'
import { LEGAL_URL_MESSAGE, legalUrlField } from './legal'

/** What a departed person's card links answer when no successor with a card takes them. */
export const FORWARDING_KINDS = ['message', 'contact_page'] as const
export type ForwardingKind = (typeof FORWARDING_KINDS)[number]

export const FORWARDING_MESSAGE_MAX = 500
export const DEFAULT_FORWARDING_MESSAGE =
  'This person is no longer with us. Please get in touch with our team.'
export const FORWARDING_MESSAGE_REQUIRED = 'Please enter the message visitors see'
export const FORWARDING_MESSAGE_TOO_LONG = `The message must be at most ${FORWARDING_MESSAGE_MAX} characters`
export const CHOOSE_SUCCESSOR = 'Please choose who takes over'
export const SUCCESSOR_IS_SELF =
  'Please choose someone else: a person cannot take over their own seat'
export const SUCCESSOR_NOT_ACTIVE = 'Please choose an active account of this agency'
export const NO_SUCCESSOR_TO_CLEAR = 'This person has no successor any more'

/** The agency's default, stored in its organization preferences under `seatForwarding`. */
export type SeatForwarding = {
  kind: ForwardingKind
  message: string
  contactPageUrl: string
}

export const DEFAULT_SEAT_FORWARDING: SeatForwarding = {
  kind: 'message',
  message: DEFAULT_FORWARDING_MESSAGE,
  contactPageUrl: '',
}

const message = z
  .string()
  .trim()
  .max(FORWARDING_MESSAGE_MAX, FORWARDING_MESSAGE_TOO_LONG)
  .optional()
  .transform((value) => value ?? '')

/** The "When someone leaves" form: a message, or the agency's own contact page. */
export const SetForwardingSchema = z
  .object({
    intent: z.literal('set-forwarding'),
    kind: z.enum(FORWARDING_KINDS, { error: 'Please choose what visitors see' }),
    message,
    contactPageUrl: legalUrlField,
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'message' && !value.message) {
      ctx.addIssue({ code: 'custom', path: ['message'], message: FORWARDING_MESSAGE_REQUIRED })
    }
    if (value.kind === 'contact_page' && !value.contactPageUrl) {
      ctx.addIssue({ code: 'custom', path: ['contactPageUrl'], message: LEGAL_URL_MESSAGE })
    }
  })

const uuid = (error: string) =>
  z
    .string({ error })
    .trim()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, error)
    .transform((id) => id.toLowerCase())

/**
 * The Hand Over dialog: whose seat, who takes it over, and whether the person is offered a
 * personal card on the platform's host (ADR 103; a checkbox, absent when not ticked).
 */
export const HandOverSchema = z.object({
  intent: z.literal('hand-over'),
  userId: uuid('User ID is required'),
  successorId: uuid(CHOOSE_SUCCESSOR),
  offerPersonalCard: z
    .enum(['on', 'true'])
    .optional()
    .transform((value) => value !== undefined),
})

/** The forwarding overview's Clear: the person's links answer the agency's default again. */
export const ClearSuccessorSchema = z.object({
  intent: z.literal('clear-successor'),
  userId: uuid('User ID is required'),
})

/** A stored default read back: anything unreadable is the default message. */
export function readSeatForwarding(stored: unknown): SeatForwarding {
  const parsed = SetForwardingSchema.safeParse({
    intent: 'set-forwarding',
    ...(typeof stored === 'object' && stored ? stored : {}),
  })
  if (!parsed.success) return DEFAULT_SEAT_FORWARDING
  const { kind, message: text, contactPageUrl: url } = parsed.data
  return { kind, message: text, contactPageUrl: url }
}

/** The end user's Contacts: mark a contact as personal (kept on hand-over) or the company's. */
export const ContactPersonalSchema = z.object({
  intent: z.literal('set-personal'),
  contactId: uuid('Contact ID is required'),
  personal: z.enum(['true', 'false']).transform((value) => value === 'true'),
})
