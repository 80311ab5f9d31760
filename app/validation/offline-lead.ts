// A lead captured at an event, maybe without a network (issue 45 point 4, ADR 104): the owner
// types it on "My cards offline", it waits in the browser's queue and is sent when the network
// returns. One schema for the page's form (checked before it is queued, so most mistakes show
// while still offline) and the endpoint that receives it; the key makes a resend harmless.
import { z } from 'zod'
import { typedContactFields } from './contact-fields'

export const BAD_IDEMPOTENCY_KEY = 'This lead has no valid key; please capture it again'

/** The lead's fields as the owner types them; only the name is required. */
export const OfflineLeadFieldsSchema = z.object(typedContactFields)

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
