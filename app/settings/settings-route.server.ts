// Loaders and actions of the settings pages (roles-teams-admin.md §2.6): /settings/{area} and
// the dashboards' settings entries share them. Every value is validated by the zod schemas of
// #app/validation/settings before it is written, read back through their `Stored*` twins, and
// every save answers with the spec's toast (§8). A refused form changes nothing.
import type { AppLoadContext } from '@remix-run/node'
import type { z } from 'zod'
import { intentAction, postedUrl } from '#app/actions/intent-action.server'
import { requireRole, requireUser, type SignedIn } from '#app/auth/guards.server'
import {
  type BillingScope,
  checkoutUrl,
  loadBillingSummary,
  portalUrl,
} from '#app/billing/billing-checkout.server'
import {
  AGENCY_PRO,
  AGENCY_PRO_TIER,
  END_USER_LIMITS,
  MEMBER_PLAN_NAMES,
  STAFF_LIMITS,
  TEAM_MEMBER_BASIC,
  TIER_NAMES,
} from '#app/billing/plan-limits'
import { sellsOnline } from '#app/billing/stripe-config.server'
import {
  pendingPlanRequestOf,
  requestPlan,
  withdrawOwnPlanRequest,
} from '#app/billing/upgrade-requests.server'
import { recordAudit } from '#app/models/audit.server'
import {
  getOrganizationPreferences,
  saveOrganizationPreferences,
} from '#app/models/organization-settings.server'
import {
  findContactEmail,
  findSubscriptionTier,
  renameOrganization,
} from '#app/models/organizations.server'
import { getPlatformSettings, savePlatformSettings } from '#app/models/platform-settings.server'
import { setUserPreference } from '#app/models/user-settings.server'
import {
  getNotificationPreferences,
  saveNotificationPreferences,
} from '#app/notifications/preferences.server'
import { saveHostLanguages } from '#app/settings/language-settings.server'
import { readLegalLinks, saveLegalLinks } from '#app/tenancy/legal.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { clearTenantCache } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { AREA_ROLES } from '#app/validation/roles'
import {
  AgencySettingsSchema,
  EndUserSettingsSchema,
  SETTINGS_TOASTS,
  type SettingsIntent,
  StoredAgencyBillingSchema,
  StoredAgencyTeamSchema,
  SuperAdminSettingsSchema,
  TeamMemberSettingsSchema,
} from '#app/validation/settings'
import { type Transaction, withDatabase, withTenant } from '#drizzle/db.server'
import { settingsAreaOfPath } from './settings-areas'
import { readAppearance, readPrivacy } from './user-preferences.server'

const FORBIDDEN = () => new Response('Forbidden', { status: 403, statusText: 'Forbidden' })

/** What a save changed: each field whose value differs, with its value before and after. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { from: unknown; to: unknown }> = {}
  for (const [field, to] of Object.entries(after)) {
    const from = before[field] ?? null
    if (from !== to) changes[field] = { from, to }
  }
  return changes
}

/**
 * The save's audit event, in the save's own transaction: the change and its record commit
 * together or not at all. None of these settings is a secret (API keys live on the API tab's
 * own page and passwords never pass here), so every changed value is recorded.
 */
async function audit(
  tx: Transaction,
  signedIn: SignedIn,
  intent: SettingsIntent,
  changes: Record<string, { from: unknown; to: unknown }>,
) {
  await recordAudit(tx, signedIn.tenant.id, {
    actorUserId: signedIn.user.id,
    action: 'settings.updated',
    entityType: 'settings',
    entityId: signedIn.user.id,
    metadata: { section: intent, changes },
  })
}

// ── End user: Privacy, Appearance, API ────────────────────────────────────────────────

/**
 * Who may open the end-user variant: end users at /settings/end-user; anyone signed in at any
 * other settings path, where the spec (§2.6) makes it the default for every role.
 */
export type EndUserSettingsAudience = 'end-users' | 'anyone'

function guardEndUserSettings(
  request: Request,
  context: AppLoadContext,
  audience: EndUserSettingsAudience,
) {
  return audience === 'anyone'
    ? requireUser(request, context)
    : requireRole(request, context, AREA_ROLES['end-user'])
}

export async function loadEndUserSettings(
  request: Request,
  context: AppLoadContext,
  audience: EndUserSettingsAudience = 'end-users',
) {
  const { tenant, user } = await guardEndUserSettings(request, context, audience)
  return withTenant(tenant.id, async (tx) => ({
    privacy: await readPrivacy(tx, tenant.id, user.id),
    appearance: await readAppearance(tx, tenant.id, user.id),
  }))
}

export async function endUserSettingsAction(
  request: Request,
  context: AppLoadContext,
  audience: EndUserSettingsAudience = 'end-users',
) {
  return intentAction(request, {
    guard: () => guardEndUserSettings(request, context, audience),
    schema: EndUserSettingsSchema,
    intents: { privacy: saveEndUserPreference, appearance: saveEndUserPreference },
    redirectTo: postedUrl(request),
  })
}

/** Privacy and Appearance are each one stored preference, merged over what is stored. */
async function saveEndUserPreference(
  value: z.output<typeof EndUserSettingsSchema>,
  signedIn: SignedIn,
) {
  const { tenant, user } = signedIn
  await withTenant(tenant.id, async (tx) => {
    const { intent, ...fields } = value
    const current =
      intent === 'privacy'
        ? await readPrivacy(tx, tenant.id, user.id)
        : await readAppearance(tx, tenant.id, user.id)
    await setUserPreference(tx, tenant.id, user.id, intent, { ...current, ...fields })
    await audit(tx, signedIn, intent, changedFields(current, fields))
  })
  return SETTINGS_TOASTS[value.intent]
}

// ── Billing tabs (ADR 051): Agency Pro for the agency, Team Member Basic for a team member ──

export const TEAM_MEMBER_BILLING: BillingScope = {
  payer: 'own',
  returnPath: '/settings/team-member?tab=billing',
}
export const AGENCY_BILLING: BillingScope = {
  payer: 'agency',
  returnPath: '/settings/agency?tab=billing',
}

/** Who grants the plan when it is not sold online here. */
export const AGENCY_PRO_GRANTED =
  "Online payment is not available for Agency Pro here: the platform administrator sets your agency's plan. Ask them to change it."
export const TEAM_MEMBER_BASIC_GRANTED =
  "Online payment is not available for Team Member Basic here: your agency's administrators grant it. Send them a request and you will get an email with their answer."

const ALREADY = (name: string) => `You already have the ${name} plan`

// ── Team member: Notifications, Privacy, Billing, API ─────────────────────────────────

export async function loadTeamMemberSettings(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES['team-member'])
  const prefs = await withTenant(tenant.id, async (tx) => ({
    notifications: await getNotificationPreferences(tx, tenant.id, user.id),
    privacy: await readPrivacy(tx, tenant.id, user.id),
  }))
  const planName = MEMBER_PLAN_NAMES[user.memberPlan]
  return {
    ...prefs,
    plan: {
      id: user.memberPlan,
      name: planName,
      sells: TEAM_MEMBER_BASIC.name,
      price: TEAM_MEMBER_BASIC.price,
      includes: `Up to ${END_USER_LIMITS[user.memberPlan]} end users`,
      offers: `Up to ${TEAM_MEMBER_BASIC.endUserLimit} end users`,
      current: user.memberPlan === TEAM_MEMBER_BASIC.id,
      canPayOnline: sellsOnline(TEAM_MEMBER_BASIC.id),
      grantedBy: TEAM_MEMBER_BASIC_GRANTED,
      // Without Stripe, asked of the agency's admins (ADR 079).
      request: { pending: await pendingPlanRequestOf(tenant, user) },
    },
    billing: await loadBillingSummary(tenant, user, { ...TEAM_MEMBER_BILLING, planName }),
    checkout: new URL(request.url).searchParams.get('checkout'),
  }
}

export async function teamMemberSettingsAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => requireRole(request, context, AREA_ROLES['team-member']),
    schema: TeamMemberSettingsSchema,
    intents: {
      notifications: async (value, signedIn) => {
        const { tenant, user } = signedIn
        await withTenant(tenant.id, async (tx) => {
          // The same preferences the profile and the unsubscribe link edit: one source of truth.
          const { intent, ...preferences } = value
          const current = await getNotificationPreferences(tx, tenant.id, user.id)
          await saveNotificationPreferences(tx, tenant.id, user.id, preferences)
          await audit(tx, signedIn, intent, changedFields(current, preferences))
        })
        return SETTINGS_TOASTS[value.intent]
      },
      privacy: async (value, signedIn) => {
        const { tenant, user } = signedIn
        await withTenant(tenant.id, async (tx) => {
          const { intent, ...privacy } = value
          const current = await readPrivacy(tx, tenant.id, user.id)
          await setUserPreference(tx, tenant.id, user.id, 'privacy', privacy)
          await audit(tx, signedIn, intent, changedFields(current, privacy))
        })
        return SETTINGS_TOASTS[value.intent]
      },
      upgrade: async (_value, { tenant, user }) => {
        if (user.memberPlan === TEAM_MEMBER_BASIC.id) {
          throw new Refusal('conflict', ALREADY(TEAM_MEMBER_BASIC.name))
        }
        if (!sellsOnline(TEAM_MEMBER_BASIC.id)) {
          throw new Refusal('forbidden', TEAM_MEMBER_BASIC_GRANTED)
        }
        return {
          redirectTo: await checkoutUrl(tenant, user, TEAM_MEMBER_BASIC.id, TEAM_MEMBER_BILLING),
        }
      },
      'billing-portal': async (_value, { tenant, user }) => ({
        redirectTo: await portalUrl(tenant, user, TEAM_MEMBER_BILLING),
      }),
      'request-plan': async (_value, { tenant, user }) => ({
        toast: await requestPlan(tenant, user, TEAM_MEMBER_BASIC.id),
        redirectTo: TEAM_MEMBER_BILLING.returnPath,
      }),
      'withdraw-plan-request': async (_value, { tenant, user }) => ({
        toast: await withdrawOwnPlanRequest(tenant, user),
        redirectTo: TEAM_MEMBER_BILLING.returnPath,
      }),
    },
    redirectTo: postedUrl(request),
  })
}

// ── Agency: Team, Billing, API (agency_admin edits, agency_member reads) ──────────────

export async function loadAgencySettings(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES.agency)
  const stored = await withTenant(tenant.id, (tx) => getOrganizationPreferences(tx, tenant.id))
  const { plan, contactEmail } = await withDatabase(async (tx) => ({
    plan: await findSubscriptionTier(tx, tenant.id),
    contactEmail: await findContactEmail(tx, tenant.id),
  }))
  const billing = StoredAgencyBillingSchema.parse(stored)
  const canEdit = user.role === 'agency_admin'
  const planName = TIER_NAMES[plan]
  const limit = STAFF_LIMITS[plan]
  return {
    canEdit,
    team: StoredAgencyTeamSchema.parse(stored),
    // The organization's own address, never the reader's: the saved billing email, else the
    // contact email the agency was created with (empty when it has none, for the admin to fill).
    billing: { billingEmail: billing.billingEmail || contactEmail || '' },
    plan,
    agencyPlan: {
      id: plan,
      name: planName,
      sells: AGENCY_PRO.name,
      price: AGENCY_PRO.price,
      includes: limit === null ? 'No team member limit' : `Up to ${limit} team members`,
      offers: `Up to ${AGENCY_PRO.staffLimit} team members`,
      // Agency Pro, or Enterprise above it: nothing to buy.
      current: plan === AGENCY_PRO_TIER || plan === 'enterprise',
      canPayOnline: sellsOnline(AGENCY_PRO.id),
      grantedBy: AGENCY_PRO_GRANTED,
    },
    // The card and invoices are the admins' (who pay); a member sees the plan only.
    stripe: canEdit
      ? await loadBillingSummary(tenant, user, { ...AGENCY_BILLING, planName })
      : null,
    checkout: new URL(request.url).searchParams.get('checkout'),
  }
}

export async function agencySettingsAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => requireRole(request, context, ['agency_admin']),
    schema: AgencySettingsSchema,
    intents: {
      team: saveAgencyPreferences,
      billing: saveAgencyPreferences,
      upgrade: async (_value, { tenant, user }) => {
        const tier = await withDatabase((tx) => findSubscriptionTier(tx, tenant.id))
        if (tier === AGENCY_PRO_TIER || tier === 'enterprise') {
          throw new Refusal('conflict', `Your agency already has the ${TIER_NAMES[tier]} plan`)
        }
        if (!sellsOnline(AGENCY_PRO.id)) throw new Refusal('forbidden', AGENCY_PRO_GRANTED)
        return { redirectTo: await checkoutUrl(tenant, user, AGENCY_PRO.id, AGENCY_BILLING) }
      },
      'billing-portal': async (_value, { tenant, user }) => ({
        redirectTo: await portalUrl(tenant, user, AGENCY_BILLING),
      }),
    },
    redirectTo: postedUrl(request),
  })
}

/** Team and Billing are fields of the organization's one preferences record. */
async function saveAgencyPreferences(
  value: Extract<z.output<typeof AgencySettingsSchema>, { intent: 'team' | 'billing' }>,
  signedIn: SignedIn,
) {
  const { tenant } = signedIn
  await withTenant(tenant.id, async (tx) => {
    const { intent, ...fields } = value
    const stored = await getOrganizationPreferences(tx, tenant.id)
    // Compared with what the page showed (the spec's defaults until a first save).
    const current =
      intent === 'team'
        ? StoredAgencyTeamSchema.parse(stored)
        : StoredAgencyBillingSchema.parse(stored)
    await saveOrganizationPreferences(tx, tenant.id, fields)
    await audit(tx, signedIn, intent, changedFields(current, fields))
  })
  return SETTINGS_TOASTS[value.intent]
}

// ── Super admin: General, Security, API (platform host only) ─────────────────────────

async function requireSuperAdmin(request: Request, context: AppLoadContext) {
  const signedIn = await requireRole(request, context, AREA_ROLES['super-admin'])
  if (signedIn.tenant.kind !== 'platform') throw FORBIDDEN()
  return signedIn
}

export async function loadSuperAdminSettings(request: Request, context: AppLoadContext) {
  const { tenant } = await requireSuperAdmin(request, context)
  const settings = await withDatabase((tx) => getPlatformSettings(tx))
  const legal = await withTenant(tenant.id, (tx) => readLegalLinks(tx, tenant.id))
  // Until one is saved, the platform's URL is the address it answers on.
  return {
    ...settings,
    ...legal,
    platformName: tenant.name,
    platformUrl: settings.platformUrl || tenantOrigin(tenant),
    languages: tenant.languages,
  }
}

export async function superAdminSettingsAction(request: Request, context: AppLoadContext) {
  // platform_settings and organizations carry no organization column to isolate: the platform
  // organization's transaction writes them and the audit event together.
  return intentAction(request, {
    guard: () => requireSuperAdmin(request, context),
    schema: SuperAdminSettingsSchema,
    intents: {
      general: async (value, signedIn) => {
        const { tenant } = signedIn
        await withTenant(tenant.id, async (tx) => {
          const current = await getPlatformSettings(tx)
          const {
            intent,
            platformName,
            privacyPolicyUrl,
            termsOfServiceUrl,
            supportEmail,
            accessibilityEmail,
            ...fields
          } = value
          const legal = { privacyPolicyUrl, termsOfServiceUrl, supportEmail, accessibilityEmail }
          const legalBefore = await readLegalLinks(tx, tenant.id)
          await renameOrganization(tx, tenant.id, platformName)
          await savePlatformSettings(tx, fields)
          await saveLegalLinks(tx, tenant.id, legal)
          await audit(tx, signedIn, intent, {
            ...changedFields({ platformName: tenant.name }, { platformName }),
            ...changedFields(current, fields),
            ...changedFields(legalBefore, legal),
          })
        })
        // The platform's name and links also show on agency hosts (white labeling off, or links
        // an agency left empty): every cached tenant goes, not only the platform's.
        clearTenantCache()
        invalidatePlatformSettings()
        return SETTINGS_TOASTS[value.intent]
      },
      // The platform's languages (ADR 105), every agency's that chose none.
      languages: (value, signedIn) => saveHostLanguages(signedIn, value),
      security: async (value, signedIn) => {
        const { tenant } = signedIn
        await withTenant(tenant.id, async (tx) => {
          const current = await getPlatformSettings(tx)
          const { intent, ...fields } = value
          await savePlatformSettings(tx, fields)
          await audit(tx, signedIn, intent, changedFields(current, fields))
        })
        invalidatePlatformSettings()
        return SETTINGS_TOASTS[value.intent]
      },
    },
    redirectTo: postedUrl(request),
  })
}

// ── Every settings path: the area's screen, from the path ─────────────────────────────

const areaOf = (request: Request) => settingsAreaOfPath(new URL(request.url).pathname)

/**
 * The settings of the path's area (settingsAreaOfPath), named by `area`; any other settings path
 * loads the end user's for anyone signed in.
 */
export async function settingsLoader(request: Request, context: AppLoadContext) {
  const area = areaOf(request)
  if (area === 'team-member') return { ...(await loadTeamMemberSettings(request, context)), area }
  if (area === 'agency') return { ...(await loadAgencySettings(request, context)), area }
  if (area === 'super-admin') return { ...(await loadSuperAdminSettings(request, context)), area }
  const settings = await loadEndUserSettings(request, context, area ? 'end-users' : 'anyone')
  return { ...settings, area: 'end-user' as const }
}

/** The save of the path's area's settings, as settingsLoader picks them. */
export async function settingsAction(request: Request, context: AppLoadContext) {
  const area = areaOf(request)
  if (area === 'team-member') return teamMemberSettingsAction(request, context)
  if (area === 'agency') return agencySettingsAction(request, context)
  if (area === 'super-admin') return superAdminSettingsAction(request, context)
  return endUserSettingsAction(request, context, area ? 'end-users' : 'anyone')
}
