// The Branding screen's sending domain forms (issue 17, ADR 026), shared by the page and its action.
import { z } from 'zod'
import { INVALID_DOMAIN, isDomainName } from './domain'

export const SENDER_LOCAL_PART_INVALID =
  'Use letters, digits, dots, hyphens or underscores, such as hello'

export const SendingDomainSchema = z.object({
  intent: z.literal('add-sending-domain'),
  sendingDomain: z
    .string({ error: INVALID_DOMAIN })
    .trim()
    .toLowerCase()
    .transform((value) => value.replace(/^https?:\/\//, '').replace(/[/.]+$/, ''))
    .refine(isDomainName, INVALID_DOMAIN),
  senderLocalPart: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value) => value || 'hello')
    .pipe(
      z
        .string()
        .max(64, SENDER_LOCAL_PART_INVALID)
        .regex(/^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/, SENDER_LOCAL_PART_INVALID)
        .refine((value) => !value.includes('..'), SENDER_LOCAL_PART_INVALID),
    ),
})

export const CheckSendingDomainSchema = z.object({ intent: z.literal('check-sending-domain') })
export const RemoveSendingDomainSchema = z.object({ intent: z.literal('remove-sending-domain') })
