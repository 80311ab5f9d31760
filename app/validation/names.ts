// Name lengths, one home (issue 27 point 4): every form that asks for a name takes its field
// from here, on the server (parseWithZod) and in the browser (conform), so the number and the
// message cannot drift apart. The spec gives the minimum of 2 and its messages
// (accounts-cards-sharing.md §5, roles-teams-admin.md §8) and a team name of at most 50
// (§9); the other maxima are ours, wide enough for real names, and never cut a value: an
// over-long one gets the message below (app/components/forms.tsx leaves maxLength out).
import { z } from 'zod'
import { plainText } from './text'

export const NAME_MIN_LENGTH = 2

/** The maximum per kind of name. A full name holds a first and a last name. */
export const NAME_MAX_LENGTH = {
  team: 50,
  namePart: 100,
  fullName: 200,
  organization: 100,
} as const

export const nameTooShort = (label: string) =>
  `${label} must be at least ${NAME_MIN_LENGTH} characters`
export const nameTooLong = (label: string, max: number) =>
  `${label} must be at most ${max} characters`

/**
 * A name of at least two characters after trimming. `label` starts the messages ('Team name'
 * gives 'Team name must be at least 2 characters'); an absent field gets the too-short one.
 */
export function nameField(label: string, max: number) {
  const tooShort = nameTooShort(label)
  return plainText(max, nameTooLong(label, max), tooShort).pipe(
    // conform coerces each side of a pipe: the inner string needs the message too.
    z.string({ error: tooShort }).min(NAME_MIN_LENGTH, tooShort),
  )
}

export const TEAM_NAME_MAX = NAME_MAX_LENGTH.team
export const TEAM_NAME_TOO_SHORT = nameTooShort('Team name')
export const TEAM_NAME_TOO_LONG = nameTooLong('Team name', TEAM_NAME_MAX)

// A person's first and last name. The spec sets a different rule per form, and each is kept:
// at sign-up at least NAME_MIN_LENGTH each ('First name must be at least 2 characters',
// accounts-cards-sharing.md §5 and "names minimum 2 at sign-up"); on the profile and card forms
// required ('First name is required'; roles-teams-admin.md §8 "title, first name and last name
// are required"); in the wizard's first step both non-empty after trimming, one message for the
// pair ('Please enter your first and last name').
export type PersonNameLabel = 'First name' | 'Last name'
export const PERSON_NAME_MAX_LENGTH = NAME_MAX_LENGTH.namePart

export const nameRequired = (label: string) => `${label} is required`
export const BOTH_NAMES_REQUIRED = 'Please enter your first and last name'

/** Sign-up's first or last name: at least NAME_MIN_LENGTH characters. */
export const signUpNameField = (label: PersonNameLabel) => nameField(label, PERSON_NAME_MAX_LENGTH)

/** The profile's and a card's first or last name: required (one character is a name). */
export const requiredNameField = (label: PersonNameLabel) =>
  plainText(PERSON_NAME_MAX_LENGTH, undefined, nameRequired(label)).min(1, nameRequired(label))

/** The wizard's first step: both names, each non-empty after trimming. */
export const hasBothNames = (firstName: string, lastName: string) =>
  firstName.trim() !== '' && lastName.trim() !== ''
