// The settings pages' forms (roles-teams-admin.md §2.6, §3 settings values, §9 defaults), shared
// by conform on the page and parseWithZod in the action. Stored values are read back through the
// `Stored*` schemas, so a row written before a field existed (or edited by hand) falls back to the
// spec's default instead of breaking the page.
import { z } from 'zod'
import { emailField } from './auth'
import { LanguageSettingsFormSchema } from './languages'
import { LegalFields } from './legal'
import { NAME_MAX_LENGTH, nameField } from './names'
import { TEAM_ROLES } from './teams'

const CHOICE_MESSAGE = 'Please choose on or off'
/** A checkbox: 'on' when ticked, absent (off) when not; anything else is refused. */
const checkbox = () => z.boolean({ error: CHOICE_MESSAGE }).optional().default(false)
/** A stored toggle: the default when missing or of the wrong type. */
const stored = (fallback: boolean) => z.boolean().catch(fallback).default(fallback)

// End users choose among three visibilities, team members also 'team' (§2.6).
export const END_USER_VISIBILITIES = ['public', 'contacts', 'private'] as const
export const VISIBILITIES = ['public', 'contacts', 'team', 'private'] as const
export type Visibility = (typeof VISIBILITIES)[number]

export const StoredPrivacySchema = z.object({
  visibility: z.enum(VISIBILITIES).catch('public').default('public'),
  showEmail: stored(true),
  showPhone: stored(true),
  activityTracking: stored(true),
})
export type PrivacySettings = z.output<typeof StoredPrivacySchema>

export const THEMES = ['light', 'dark', 'system'] as const
export const FONT_SIZES = ['small', 'medium', 'large'] as const
// The device's light or dark until the person picks one (issue 30 point 4; the spec names no
// default): a stored choice always wins, an unreadable one falls back to the device too.
export const StoredAppearanceSchema = z.object({
  theme: z.enum(THEMES).catch('system').default('system'),
  fontSize: z.enum(FONT_SIZES).catch('medium').default('medium'),
  animations: stored(true),
})
export type AppearanceSettings = z.output<typeof StoredAppearanceSchema>

// These apply to the agency's teams (app/teams/team-policy.server.ts, ADR 015). Auto-approve is
// stored and shown as before, but no longer adds anyone without an invitation (ADR 058).
export const StoredAgencyTeamSchema = z.object({
  defaultTeamRole: z.enum(TEAM_ROLES).catch('member').default('member'),
  autoApprove: stored(true),
  membersMayInvite: stored(true),
  // The agency's own staff (agency admins and members) must sign in with two factors (ADR 045).
  requireStaffTwoFactor: stored(false),
})
export type AgencyTeamSettings = z.output<typeof StoredAgencyTeamSchema>

export const StoredAgencyBillingSchema = z.object({
  billingEmail: z.string().catch('').default(''),
})

const visibility = (values: readonly [Visibility, ...Visibility[]]) =>
  z.enum(values, { error: 'Please choose who can see your profile' })

export const EndUserPrivacySchema = z.object({
  intent: z.literal('privacy'),
  visibility: visibility(END_USER_VISIBILITIES),
  showEmail: checkbox(),
  showPhone: checkbox(),
})

export const TeamMemberPrivacySchema = EndUserPrivacySchema.extend({
  visibility: visibility(VISIBILITIES),
  activityTracking: checkbox(),
})

export const AppearanceSchema = z.object({
  intent: z.literal('appearance'),
  theme: z.enum(THEMES, { error: 'Please choose a theme' }),
  fontSize: z.enum(FONT_SIZES, { error: 'Please choose a font size' }),
  animations: checkbox(),
})

export const TeamMemberNotificationsSchema = z.object({
  intent: z.literal('notifications'),
  notifications: checkbox(),
  newContactAlerts: checkbox(),
  teamUpdates: checkbox(),
  marketingEmails: checkbox(),
})

export const AgencyTeamSchema = z.object({
  intent: z.literal('team'),
  defaultTeamRole: z.enum(TEAM_ROLES, { error: 'Please select a role' }),
  autoApprove: checkbox(),
  membersMayInvite: checkbox(),
  requireStaffTwoFactor: checkbox(),
})

export const AgencyBillingSchema = z.object({
  intent: z.literal('billing'),
  billingEmail: emailField(),
})

export const SESSION_TIMEOUT_MESSAGE = 'Session timeout must be between 5 and 43200 minutes'

export const GeneralSettingsSchema = z.object({
  intent: z.literal('general'),
  platformName: nameField('Platform name', NAME_MAX_LENGTH.organization),
  platformUrl: z
    .string({ error: 'Please enter a valid URL' })
    .trim()
    .max(300, 'Please enter a valid URL')
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid URL' })),
  maintenanceMode: checkbox(),
  // The platform's own links, and the defaults of every agency that sets none (issue 17 §5).
  ...LegalFields,
})

export const SecuritySettingsSchema = z.object({
  intent: z.literal('security'),
  sessionTimeoutMinutes: z.coerce
    .number({ error: SESSION_TIMEOUT_MESSAGE })
    .int(SESSION_TIMEOUT_MESSAGE)
    .min(5, SESSION_TIMEOUT_MESSAGE)
    .max(43200, SESSION_TIMEOUT_MESSAGE),
  requireTwoFactorForAdmins: checkbox(),
  passwordRotation: checkbox(),
})

export const EndUserSettingsSchema = z.discriminatedUnion('intent', [
  EndUserPrivacySchema,
  AppearanceSchema,
])
/**
 * The Billing tabs' buttons (ADR 051): buy the screen's plan through Stripe Checkout, or open
 * Stripe's customer portal (Update Billing Info, View Invoices). Nothing else is posted.
 */
export const BillingUpgradeSchema = z.object({ intent: z.literal('upgrade') })
export const BillingPortalSchema = z.object({ intent: z.literal('billing-portal') })

export const TeamMemberSettingsSchema = z.discriminatedUnion('intent', [
  TeamMemberNotificationsSchema,
  TeamMemberPrivacySchema,
  BillingUpgradeSchema,
  BillingPortalSchema,
  // Without a payment provider Team Member Basic is asked of the agency's admins (ADR 079).
  z.object({ intent: z.literal('request-plan') }),
  z.object({ intent: z.literal('withdraw-plan-request') }),
])
export const AgencySettingsSchema = z.discriminatedUnion('intent', [
  AgencyTeamSchema,
  AgencyBillingSchema,
  BillingUpgradeSchema,
  BillingPortalSchema,
])
export const SuperAdminSettingsSchema = z.discriminatedUnion('intent', [
  GeneralSettingsSchema,
  SecuritySettingsSchema,
  LanguageSettingsFormSchema,
])

/** Spec §8: the success toast of each tab's save. */
export const SETTINGS_TOASTS = {
  general: 'General settings saved successfully',
  security: 'Security settings saved successfully',
  team: 'Team settings saved successfully',
  billing: 'Billing settings saved successfully',
  notifications: 'Notification settings saved successfully',
  privacy: 'Privacy settings saved successfully',
  appearance: 'Appearance settings saved successfully',
} as const
export type SettingsIntent = keyof typeof SETTINGS_TOASTS
