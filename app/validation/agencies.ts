// The super admin's Agencies form (roles-teams-admin.md §3, §5), shared by conform and the action.
import { z } from 'zod'
import { isValidAgencySlug } from '#app/tenancy/host'
import { emailField } from './auth'
import { plainText } from './text'

export const SUBSCRIPTIONS = ['free', 'starter', 'professional', 'enterprise'] as const
export type Subscription = (typeof SUBSCRIPTIONS)[number]
export const SUBSCRIPTION_LABELS: Record<Subscription, string> = {
  free: 'Free',
  starter: 'Starter',
  professional: 'Professional',
  enterprise: 'Enterprise',
}

const NAME_TOO_SHORT = 'Name must be at least 2 characters'
const OWNER_TOO_SHORT = 'Owner name must be at least 2 characters'
export const SLUG_INVALID =
  'Use 2 to 40 lower-case letters, digits or hyphens, not starting or ending with a hyphen'

const atLeastTwo = (max: number, message: string) =>
  plainText(max, `Must be at most ${max} characters`, message).pipe(
    z.string({ error: message }).min(2, message),
  )

/** The address label an agency is reached at: from the name unless one is typed (§2.11). */
export function slugFromName(name: string) {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '')
}

export const AgencyFieldsSchema = z.object({
  name: atLeastTwo(100, NAME_TOO_SHORT),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .max(40, SLUG_INVALID)
    .refine((slug) => isValidAgencySlug(slug), SLUG_INVALID)
    .optional(),
  ownerName: atLeastTwo(100, OWNER_TOO_SHORT),
  email: emailField(),
  subscription: z.enum(SUBSCRIPTIONS, { error: 'Please select a plan' }),
  // A checkbox: present means on. The add form starts checked (spec §5: default true).
  active: z
    .literal('on')
    .optional()
    .transform((value) => value === 'on'),
})

const agencyId = z.string({ error: 'Agency ID is required' }).trim().uuid('Agency ID is required')

export const AgencyIntentSchema = z.discriminatedUnion('intent', [
  AgencyFieldsSchema.extend({ intent: z.literal('create') }),
  AgencyFieldsSchema.extend({ intent: z.literal('update'), agencyId }),
  z.object({ intent: z.literal('delete'), agencyId }),
  z.object({ intent: z.literal('activate'), agencyId }),
  z.object({ intent: z.literal('deactivate'), agencyId }),
  z.object({ intent: z.literal('approve'), agencyId }),
  z.object({ intent: z.literal('reject'), agencyId }),
])
export type AgencyIntent = z.infer<typeof AgencyIntentSchema>
