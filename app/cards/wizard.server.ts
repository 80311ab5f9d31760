// The onboarding wizard's state lives on the server: a draft in the user's preferences.
// Profile mode also writes every step to the profile (spec: 'Continue' saves the step).
import { z } from 'zod'
import { getUserPreferences, setUserPreference } from '#app/models/user-settings.server'
import { contactDetailsOf, type User, updateProfile } from '#app/models/users.server'
import { createCardUnderTemplate } from '#app/templates/template-locks.server'
import { LINK_KINDS, PHONE_TYPES } from '#app/validation/card-details'
import type { Transaction } from '#drizzle/db.server'
import type { WizardMode } from './wizard'

const DraftSchema = z.object({
  mode: z.enum(['profile', 'card']),
  title: z.string().max(100).default(''),
  firstName: z.string().default(''),
  lastName: z.string().default(''),
  workEmail: z.string().default(''),
  phoneNumber: z.string().default(''),
  company: z.string().default(''),
  jobTitle: z.string().default(''),
  website: z.string().default(''),
  logoMediaId: z.string().nullable().default(null),
  profilePictureMediaId: z.string().nullable().default(null),
  backgroundKind: z.enum(['color', 'gradient', 'image']).default('color'),
  backgroundValue: z.string().default('#ffffff'),
  backgroundMediaId: z.string().nullable().default(null),
  // Issue 28: the card's details (a profile has no columns for them; they go to the card).
  department: z.string().default(''),
  pronouns: z.string().default(''),
  bio: z.string().default(''),
  phoneType: z.enum(PHONE_TYPES).default('mobile'),
  phone2: z.string().default(''),
  phone2Type: z.enum(PHONE_TYPES).default('work'),
  addressStreet: z.string().default(''),
  addressCity: z.string().default(''),
  addressRegion: z.string().default(''),
  addressPostalCode: z.string().default(''),
  addressCountry: z.string().default(''),
  links: z
    .array(z.object({ kind: z.enum(LINK_KINDS), label: z.string(), url: z.string() }))
    .default([]),
})
export type WizardDraft = z.infer<typeof DraftSchema>

const KEY = 'wizardDraft'

/**
 * A new draft: the profile's fields, on the agency's colour (issue 30: a white card on the
 * wizard's white page read as no card at all). `startColor` is the tenant's primary colour,
 * already checked as #rrggbb by the caller.
 */
function draftFromProfile(
  user: User,
  mode: WizardMode,
  title: string,
  startColor: string,
): WizardDraft {
  return DraftSchema.parse({
    mode,
    title,
    backgroundKind: 'color',
    backgroundValue: startColor,
    ...contactDetailsOf(user),
    // The account's address until the person types another (issue 41 point 14): most people's
    // work email is the one they signed up with.
    workEmail: user.workEmail.trim() || user.email,
    logoMediaId: user.logoMediaId,
    profilePictureMediaId: user.profilePictureMediaId,
  })
}

/**
 * The draft for this mode, started from the profile and on `startColor` (the tenant's primary
 * colour) when there is none (or another mode's).
 */
export async function loadDraft(
  tx: Transaction,
  user: User,
  mode: WizardMode,
  title: string | null,
  startColor: string,
): Promise<WizardDraft> {
  const preferences = await getUserPreferences(tx, user.organizationId, user.id)
  const parsed = DraftSchema.safeParse(preferences[KEY])
  if (parsed.success && parsed.data.mode === mode) {
    if (title !== null && title !== parsed.data.title) {
      const draft = { ...parsed.data, title }
      await setUserPreference(tx, user.organizationId, user.id, KEY, draft)
      return draft
    }
    return parsed.data
  }
  const draft = draftFromProfile(user, mode, title ?? '', startColor)
  await setUserPreference(tx, user.organizationId, user.id, KEY, draft)
  return draft
}

export async function saveDraftStep(
  tx: Transaction,
  user: User,
  draft: WizardDraft,
  changes: Partial<WizardDraft>,
  nextStep: number,
) {
  const next = { ...draft, ...changes }
  await setUserPreference(tx, user.organizationId, user.id, KEY, next)
  if (draft.mode === 'profile') {
    await updateProfile(tx, user.organizationId, user.id, {
      firstName: next.firstName,
      lastName: next.lastName,
      workEmail: next.workEmail,
      phoneNumber: next.phoneNumber,
      company: next.company,
      jobTitle: next.jobTitle,
      website: next.website,
      logoMediaId: next.logoMediaId,
      profilePictureMediaId: next.profilePictureMediaId,
      onboardingStep: Math.max(user.onboardingStep, nextStep),
    })
  }
  return next
}

/**
 * Finishes: a card from the draft (the first card is the default) under the template that
 * applies to its owner (ADR 048), the draft cleared.
 */
export async function finishWizard(tx: Transaction, user: User, draft: WizardDraft) {
  const card = await createCardUnderTemplate(
    tx,
    user.organizationId,
    user.id,
    {
      title: draft.title,
      firstName: draft.firstName,
      lastName: draft.lastName,
      email: user.email,
      workEmail: draft.workEmail,
      phoneNumber: draft.phoneNumber,
      company: draft.company,
      jobTitle: draft.jobTitle,
      website: draft.website,
      logoMediaId: draft.logoMediaId,
      profilePictureMediaId: draft.profilePictureMediaId,
      backgroundKind: draft.backgroundKind,
      backgroundValue: draft.backgroundValue,
      backgroundMediaId: draft.backgroundMediaId,
      department: draft.department,
      pronouns: draft.pronouns,
      bio: draft.bio,
      phoneType: draft.phoneType,
      phone2: draft.phone2,
      phone2Type: draft.phone2Type,
      addressStreet: draft.addressStreet,
      addressCity: draft.addressCity,
      addressRegion: draft.addressRegion,
      addressPostalCode: draft.addressPostalCode,
      addressCountry: draft.addressCountry,
    },
    draft.links,
  )
  if (draft.mode === 'profile') {
    await updateProfile(tx, user.organizationId, user.id, { onboardingCompletedAt: new Date() })
  }
  await setUserPreference(tx, user.organizationId, user.id, KEY, undefined)
  return card
}
