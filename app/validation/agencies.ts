// The super admin's Agencies form (roles-teams-admin.md §3, §5), shared by conform and the action.
import { z } from 'zod'
import { agencySlugField } from './agency-slug'
import { emailField } from './auth'
import { NAME_MAX_LENGTH, nameField } from './names'

export const SUBSCRIPTIONS = ['free', 'starter', 'professional', 'enterprise'] as const
export type Subscription = (typeof SUBSCRIPTIONS)[number]

export const AgencyFieldsSchema = z.object({
  name: nameField('Name', NAME_MAX_LENGTH.organization),
  slug: agencySlugField.optional(),
  ownerName: nameField('Owner name', NAME_MAX_LENGTH.fullName),
  email: emailField(),
  subscription: z.enum(SUBSCRIPTIONS, { error: 'Please select a plan' }),
  // A checkbox: present means on. The add form starts checked (spec §5: default true).
  active: z
    .literal('on')
    .optional()
    .transform((value) => value === 'on'),
})

const agencyId = z.string({ error: 'Agency ID is required' }).trim().uuid('Agency ID is required')

/** The Add Agency dialog's form (a member of the action's AgencyIntentSchema). */
export const CreateAgencySchema = AgencyFieldsSchema.extend({ intent: z.literal('create') })
/** The Edit Agency dialog's form. */
export const UpdateAgencySchema = AgencyFieldsSchema.extend({
  intent: z.literal('update'),
  agencyId,
})

export const AgencyIntentSchema = z.discriminatedUnion('intent', [
  CreateAgencySchema,
  UpdateAgencySchema,
  z.object({ intent: z.literal('delete'), agencyId }),
  z.object({ intent: z.literal('activate'), agencyId }),
  z.object({ intent: z.literal('deactivate'), agencyId }),
  z.object({ intent: z.literal('approve'), agencyId }),
  z.object({ intent: z.literal('reject'), agencyId }),
])
export type AgencyIntent = z.infer<typeof AgencyIntentSchema>
