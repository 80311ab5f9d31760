// The agency's Branding form (spec §2.12, §3 branding settings), shared by the page and its action.
import { z } from 'zod'
import { hexColorSchema } from './color'
import { ConsentTextSchema } from './consent-text'
import { customDomainField } from './domain'
import { LanguageSettingsFormSchema } from './languages'
import { getYourOwnCardUrlField, LegalFields } from './legal'
import {
  CheckSendingDomainSchema,
  RemoveSendingDomainSchema,
  SendingDomainSchema,
} from './sending-domain'
import { plainText } from './text'

export const BRANDING_DEFAULTS = { primaryColor: '#3b82f6', secondaryColor: '#10b981' } as const

export const COMPANY_NAME_REQUIRED = 'Company name is required'

export const BrandingSchema = z.object({
  intent: z.literal('save'),
  companyName: plainText(
    100,
    'Company name must be at most 100 characters',
    COMPANY_NAME_REQUIRED,
  ).min(1, COMPANY_NAME_REQUIRED),
  primaryColor: hexColorSchema,
  secondaryColor: hexColorSchema,
  customDomain: customDomainField,
  whiteLabelActive: z.boolean({ error: 'Please choose on or off' }).optional().default(false),
  ...LegalFields,
  getYourOwnCardUrl: getYourOwnCardUrlField,
})
export type BrandingValues = z.output<typeof BrandingSchema>

export const VerifyDomainSchema = z.object({ intent: z.literal('verify-domain') })

export const BrandingActionSchema = z.discriminatedUnion('intent', [
  BrandingSchema,
  VerifyDomainSchema,
  SendingDomainSchema,
  CheckSendingDomainSchema,
  RemoveSendingDomainSchema,
  ConsentTextSchema,
  LanguageSettingsFormSchema,
])
