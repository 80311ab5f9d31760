// The onboarding wizard's state lives on the server: a draft in the user's preferences.
// Profile mode also writes every step to the profile (spec: 'Continue' saves the step).
import { z } from 'zod'
import { createCard } from '#app/models/cards.server'
import { getUserPreferences, setUserPreference } from '#app/models/user-settings.server'
import { type User, updateProfile } from '#app/models/users.server'
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
})
export type WizardDraft = z.infer<typeof DraftSchema>

const KEY = 'wizardDraft'

function draftFromProfile(user: User, mode: WizardMode, title: string): WizardDraft {
  return DraftSchema.parse({
    mode,
    title,
    firstName: user.firstName,
    lastName: user.lastName,
    workEmail: user.workEmail,
    phoneNumber: user.phoneNumber,
    company: user.company,
    jobTitle: user.jobTitle,
    website: user.website,
    logoMediaId: user.logoMediaId,
    profilePictureMediaId: user.profilePictureMediaId,
  })
}

/** The draft for this mode, started from the profile when there is none (or another mode's). */
export async function loadDraft(
  tx: Transaction,
  user: User,
  mode: WizardMode,
  title: string | null,
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
  const draft = draftFromProfile(user, mode, title ?? '')
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
    const { mode, title, backgroundKind, backgroundValue, backgroundMediaId, ...profile } = next
    await updateProfile(tx, user.organizationId, user.id, {
      ...profile,
      onboardingStep: Math.max(user.onboardingStep, nextStep),
    })
  }
  return next
}

/** Finishes: a card from the draft (the first card is the default), the draft cleared. */
export async function finishWizard(tx: Transaction, user: User, draft: WizardDraft) {
  const card = await createCard(tx, user.organizationId, user.id, {
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
  })
  if (draft.mode === 'profile') {
    await updateProfile(tx, user.organizationId, user.id, { onboardingCompletedAt: new Date() })
  }
  await setUserPreference(tx, user.organizationId, user.id, KEY, undefined)
  return card
}
