// Loader and action shared by /profile and its role variants (spec §5 profile form, roles
// doc §2.4). Every read and write goes through withTenant and the model functions.

import type { SubmissionResult } from '@conform-to/react'
import type { AppLoadContext } from '@remix-run/node'
import type { z } from 'zod'
import { type IntentDone, intentAction, postedUrl } from '#app/actions/intent-action.server'
import { changePassword, checkCurrentPassword } from '#app/auth/accounts.server'
import { queueConfirmationEmailIn } from '#app/auth/email-confirmation.server'
import { requireRole, requireUser, type SignedIn } from '#app/auth/guards.server'
import { invalidateUserSessions } from '#app/auth/session.server'
import { readBrandingSummary } from '#app/branding/branding-route.server'
import { toCardExtras } from '#app/cards/card-extras.server'
import { toCardView } from '#app/cards/card-view.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { resolveImageField } from '#app/media/uploads.server'
import { listAssignedEndUsers } from '#app/models/assigned-users.server'
import { listActivityForUser, recordAccountAudit } from '#app/models/audit.server'
import { listCardScans } from '#app/models/card-views.server'
import { getDefaultCardForOwner } from '#app/models/cards.server'
import { retireEmailConfirmationTokens } from '#app/models/email-confirmations.server'
import { getMediaPath } from '#app/models/media.server'
import { listOrganizationTeams } from '#app/models/teams.server'
import { getUserPreferences } from '#app/models/user-settings.server'
import {
  findUserByEmail,
  normalizeEmail,
  type ProfileFields,
  updateProfile,
} from '#app/models/users.server'
import { dashboardEntries } from '#app/navigation/role-navigation'
import {
  notificationPreferencesOf,
  saveNotificationPreferences,
} from '#app/notifications/preferences.server'
import { activityLabel, relativeTime } from '#app/profile/activity'
import type { ProfileLoadOptions } from '#app/profile/screens'
import { emailChangedEmail } from '#app/services/emails/email-changed.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { IMAGE_REFUSALS, isRefusal, Refusal, type RefusalOf } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import type { NotificationsFormSchema } from '#app/validation/notifications'
import { CHANGE_EMAIL_PASSWORD_MESSAGE, type ProfileSchema } from '#app/validation/profile'
import { ProfileIntentSchema } from '#app/validation/profile-form'
import { type Role, rolePaths } from '#app/validation/roles'
import { StoredPrivacySchema } from '#app/validation/settings'
import { withTenant } from '#drizzle/db.server'

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists'
export const SAVE_FAILED_MESSAGE = 'Failed to update profile.'
export const WRONG_PASSWORD_MESSAGE = 'Current password is incorrect'

/** The image fields of the profile form: form name → image purpose. */
const IMAGE_FIELDS = { logo: 'logo', profilePicture: 'profilePicture' } as const
type ImageFieldName = keyof typeof IMAGE_FIELDS
type ProfileValue = z.output<typeof ProfileSchema>

export type ProfileIntent = 'profile' | 'password' | 'notifications'
/** The one action reply (ADR 035) as the page's forms read it. */
export type ProfileActionData = {
  intent: ProfileIntent | null
  result: SubmissionResult<string[]>
  error: string | null
}

/**
 * The agency screens the profile's tabs link to, taken from the navigation table so a tab never
 * offers a page the role would get 403 on (the agency screens open on an agency's host only).
 */
function agencyScreens(role: Role, tenantKind: string) {
  const entries = tenantKind === 'agency' ? dashboardEntries(role).filter((e) => e.exists) : []
  const path = (id: string) => entries.find((e) => e.id === id)?.to ?? null
  return {
    branding: path('branding'),
    teamMembers: path('team-members'),
    endUsers: path('end-users'),
  }
}

/**
 * Where /profile and any profile path that names no area lead (ADR 078): the signed-in person's
 * one profile screen, with the same query (a `?tab=` in an old link or an email still opens its
 * tab). Signed out, the guard sends them to sign in and back to the path they asked for.
 */
export async function ownProfilePath(request: Request, context: AppLoadContext) {
  const { user } = await requireUser(request, context)
  return `${rolePaths(user.role).profile}${new URL(request.url).search}`
}

/** The signed-in user (any role when `roles` is omitted, else one of them: 403 otherwise). */
function guard(request: Request, context: AppLoadContext, roles?: readonly Role[]) {
  return roles ? requireRole(request, context, roles) : requireUser(request, context)
}

/** What the profile pages show: only the signed-in user's own rows of this tenant. */
export async function loadProfile(
  request: Request,
  context: AppLoadContext,
  roles: readonly Role[] | undefined,
  options: ProfileLoadOptions = {},
) {
  const { tenant, user } = await guard(request, context, roles)
  const now = new Date()
  const data = await withTenant(tenant.id, async (tx) => {
    // Independent reads go out together: postgres.js sends what is queued at once in one write
    // and Postgres answers them in order, one round trip instead of one each (issue 44 point 3).
    const [
      logoUrl,
      profilePictureUrl,
      card,
      stored,
      scans,
      assignedUsers,
      organizationTeams,
      organizationBranding,
    ] = await Promise.all([
      getMediaPath(tx, tenant.id, user.logoMediaId),
      getMediaPath(tx, tenant.id, user.profilePictureMediaId),
      options.card ? getDefaultCardForOwner(tx, tenant.id, user.id) : undefined,
      // The stored preferences are read once for the activity switch and the notifications.
      getUserPreferences(tx, tenant.id, user.id),
      options.scans ? listCardScans(tx, tenant.id, user.id) : [],
      options.assignedUsers ? listAssignedEndUsers(tx, tenant.id, user.id) : [],
      options.organizationTeams ? listOrganizationTeams(tx, tenant.id) : [],
      options.organizationBranding && tenant.kind === 'agency'
        ? readBrandingSummary(tx, tenant.id)
        : null,
    ])
    // Privacy 'Activity tracking' (§2.6): off, the profile keeps no list of what the user did.
    // The audit log an administrator reads is not theirs to turn off, so events are still written.
    const activityTracking = options.activity
      ? StoredPrivacySchema.parse(stored.privacy ?? {}).activityTracking
      : false
    const activity = activityTracking ? await listActivityForUser(tx, tenant.id, user.id) : []
    // Every role's profile has a Notifications tab: every user has preferences (spec §3).
    const notifications = notificationPreferencesOf(stored)
    return {
      logoUrl,
      profilePictureUrl,
      card,
      activity,
      activityTracking,
      notifications,
      scans,
      assignedUsers,
      organizationTeams,
      organizationBranding,
    }
  })
  return {
    role: user.role,
    profile: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      emailConfirmed: Boolean(user.emailConfirmedAt),
      workEmail: user.workEmail,
      phoneNumber: user.phoneNumber,
      company: user.company,
      jobTitle: user.jobTitle,
      website: user.website,
      logoUrl: data.logoUrl,
      profilePictureUrl: data.profilePictureUrl,
    },
    card: data.card ? { ...toCardView(data.card), extras: toCardExtras(data.card) } : null,
    notifications: data.notifications,
    scans: data.scans.map((scan) => ({
      id: scan.id,
      at: scan.viewedAt.toISOString(),
      relative: relativeTime(scan.viewedAt, now),
      cardId: scan.cardId,
      card: scan.cardTitle || `${scan.firstName}'s Card`,
      device: scan.deviceClass,
    })),
    assignedUsers: data.assignedUsers.map((person) => ({
      id: person.id,
      name: `${person.firstName} ${person.lastName}`.trim() || 'Unnamed User',
      email: person.email,
      status: person.status,
    })),
    organizationTeams: data.organizationTeams.map((team) => ({
      id: team.id,
      name: team.name,
      members: team.members,
      created: relativeTime(team.createdAt, now),
    })),
    activityTracking: data.activityTracking,
    organizationBranding: data.organizationBranding,
    agencyScreens:
      options.organizationTeams || options.organizationBranding
        ? agencyScreens(user.role, tenant.kind)
        : null,
    // Labels and relative times are made here, so server and browser render the same text.
    activity: data.activity.map((event) => ({
      id: event.id,
      label: activityLabel(event.action),
      at: event.createdAt.toISOString(),
      relative: relativeTime(event.createdAt, now),
    })),
  }
}

export type LoadedProfile = Awaited<ReturnType<typeof loadProfile>>

/** An image field's name in the form, from the field an unreadable upload names. */
function imageFieldOf(field: string) {
  const name = field.replace(/(File|MediaId)$/, '')
  return name in IMAGE_FIELDS ? name : ''
}

type SaveOutcome =
  | { status: 'saved'; emailChangedFrom?: string }
  | { status: 'duplicate' }
  | { status: 'password'; message: string }
  | { status: 'image'; field: string; message: string }
  | { status: 'limited'; message: string; retryAfterSeconds: number; field?: 'currentPassword' }

const limited = (error: RefusalOf<'rate_limited'>, field?: 'currentPassword'): SaveOutcome => ({
  status: 'limited',
  message: error.message,
  retryAfterSeconds: error.retryAfterSeconds,
  field,
})

/** Checks the email, stores new images and writes the row; the caller turns the outcome into a reply. */
async function writeProfile(
  signedIn: SignedIn,
  formData: FormData,
  value: ProfileValue,
  clientIp: string,
): Promise<SaveOutcome> {
  const { tenant, user } = signedIn
  // A new sign-in email needs the current password: a session left open must not be enough
  // to take the account over.
  const emailChanges = normalizeEmail(value.email) !== user.email
  if (emailChanges) {
    if (!value.currentPassword)
      return { status: 'password', message: CHANGE_EMAIL_PASSWORD_MESSAGE }
    try {
      if (!(await checkCurrentPassword(tenant, user, value.currentPassword, clientIp))) {
        return { status: 'password', message: WRONG_PASSWORD_MESSAGE }
      }
    } catch (error) {
      if (isRefusal(error, 'rate_limited')) return limited(error, 'currentPassword')
      throw error
    }
    const other = await withTenant(tenant.id, (tx) => findUserByEmail(tx, tenant.id, value.email))
    if (other && other.id !== user.id) return { status: 'duplicate' }
  }
  // Only the schema's fields are written: ids, roles or organizations sent along are ignored.
  const fields: ProfileFields = {
    firstName: value.firstName,
    lastName: value.lastName,
    email: value.email,
    workEmail: value.workEmail,
    phoneNumber: value.phoneNumber,
    company: value.company,
    jobTitle: value.jobTitle,
    website: value.website,
    // A new address is unconfirmed until its own link is followed.
    ...(emailChanges ? { emailConfirmedAt: null } : {}),
  }
  try {
    // Images are stored in the update's transaction: a refused field or email stores none.
    await withTenant(tenant.id, async (tx) => {
      for (const name of Object.keys(IMAGE_FIELDS) as ImageFieldName[]) {
        const mediaId = await resolveImageField(
          { tenant, user },
          formData,
          name,
          IMAGE_FIELDS[name],
          tx,
        )
        if (mediaId !== undefined) fields[`${name}MediaId`] = mediaId
      }
      const updated = await updateProfile(tx, tenant.id, user.id, fields)
      if (!updated) throw new Error('profile update matched no row')
      await recordAccountAudit(tx, tenant.id, user.id, 'profile.updated')
      if (emailChanges) {
        await retireEmailConfirmationTokens(tx, tenant.id, user.id)
        await recordAccountAudit(tx, tenant.id, user.id, 'email.changed')
        // The old address hears of the change and the new one gets its link, queued with the
        // change: past the send limits the change is refused rather than made in silence.
        const branding = tenantEmailBranding(tenant)
        const cause = { userId: user.id }
        await queueEmailIn(
          tx,
          tenant.id,
          emailChangedEmail({
            branding,
            to: user.email,
            firstName: user.firstName,
            newEmail: normalizeEmail(value.email),
            signInUrl: `${branding.origin}/auth/login`,
          }),
          tenant.name,
          cause,
        )
        await queueConfirmationEmailIn(
          tx,
          tenant,
          { id: user.id, email: normalizeEmail(value.email), firstName: value.firstName },
          cause,
        )
      }
    })
  } catch (error) {
    // The error says why: not an image, or past a quota (ADR 029).
    if (isRefusal(error, ...IMAGE_REFUSALS)) {
      return { status: 'image', field: error.field, message: error.message }
    }
    if (isRefusal(error, 'rate_limited')) return limited(error)
    // Two accounts racing for one email: the unique index decides.
    if (isUniqueViolation(error)) return { status: 'duplicate' }
    throw error
  }
  if (!emailChanges) return { status: 'saved' }
  // Every other session ends; the emails queued with the change go out.
  await invalidateUserSessions(tenant.id, user.id, signedIn.session.sessionId)
  return { status: 'saved', emailChangedFrom: user.email }
}

/** The profile form: the outcome of the write as the reply's refusal, else its toast. */
async function saveProfile(
  value: ProfileValue,
  signedIn: SignedIn,
  formData: FormData,
  clientIp: string,
): Promise<IntentDone> {
  let outcome: SaveOutcome
  try {
    outcome = await writeProfile(signedIn, formData, value, clientIp)
  } catch (error) {
    // Spec §8: any other failure of the save is 'Failed to update profile.'
    console.error('profile update failed', error)
    throw new Refusal('unprocessable', SAVE_FAILED_MESSAGE)
  }
  switch (outcome.status) {
    case 'duplicate':
      throw new Refusal('invalid', DUPLICATE_EMAIL_MESSAGE, { field: 'email' })
    case 'password':
      throw new Refusal('invalid', outcome.message, { field: 'currentPassword' })
    case 'image':
      throw new Refusal('invalid', outcome.message, { field: outcome.field })
    case 'limited':
      throw new Refusal('rate_limited', outcome.message, {
        field: outcome.field,
        retryAfterSeconds: outcome.retryAfterSeconds,
      })
    case 'saved':
      return 'Profile updated successfully'
  }
}

async function savePassword(
  value: { currentPassword: string; newPassword: string },
  signedIn: SignedIn,
  clientIp: string,
): Promise<IntentDone> {
  const { tenant, user, session } = signedIn
  let changed: boolean
  try {
    changed = await changePassword(tenant, user, session.sessionId, value, clientIp)
  } catch (error) {
    if (!isRefusal(error, 'rate_limited')) throw error
    // The limit is the password check's: said next to the current password.
    throw new Refusal('rate_limited', error.message, {
      field: 'currentPassword',
      retryAfterSeconds: error.retryAfterSeconds,
    })
  }
  if (!changed) throw new Refusal('invalid', WRONG_PASSWORD_MESSAGE, { field: 'currentPassword' })
  await withTenant(tenant.id, (tx) =>
    recordAccountAudit(tx, tenant.id, user.id, 'password.changed'),
  )
  return 'Password updated successfully'
}

async function saveNotifications(
  preferences: z.output<typeof NotificationsFormSchema>,
  { tenant, user }: SignedIn,
): Promise<IntentDone> {
  await withTenant(tenant.id, async (tx) => {
    await saveNotificationPreferences(tx, tenant.id, user.id, preferences)
    await recordAccountAudit(tx, tenant.id, user.id, 'notifications.updated', preferences)
  })
  return 'Notification preferences saved'
}

/**
 * The action of every profile page: `intent` picks the personal info, password or notifications
 * form. The card's details are the card editor's (ADR 078).
 */
export async function profileAction(
  request: Request,
  context: AppLoadContext,
  roles?: readonly Role[],
) {
  const clientIp = context.clientIp ?? 'unknown'
  return intentAction(request, {
    guard: () => guard(request, context, roles),
    schema: ProfileIntentSchema,
    // The personal info form's logo and picture.
    multipart: { uploadField: imageFieldOf, intent: 'profile' },
    // Typed passwords never come back (the profile form's is the email change's).
    hideFields: ['currentPassword', 'newPassword', 'confirmPassword'],
    redirectTo: postedUrl(request),
    intents: {
      profile: ({ intent, ...value }, signedIn, formData) =>
        saveProfile(value, signedIn, formData, clientIp),
      password: ({ intent, ...value }, signedIn) => savePassword(value, signedIn, clientIp),
      notifications: ({ intent, ...preferences }, signedIn) =>
        saveNotifications(preferences, signedIn),
    },
  })
}
