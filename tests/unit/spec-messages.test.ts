// Every message of the spec's error catalogue (accounts-cards-sharing.md §8, and the team and
// invitation messages of roles-teams-admin.md §8), copied here from the spec (not from the app),
// is somewhere in the app's source. `{first name}`-style
// placeholders match a template literal: the text before the placeholder followed by `${`.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'

const SECTION_8 = {
  'Authentication and profile': [
    'Failed to sign in. Please check your credentials.',
    'Failed to sign in',
    'An account with this email already exists. Please sign in instead.',
    'An account with this email already exists',
    'Failed to create account. Please try again.',
    'Account created successfully! Please check your email to confirm your account.',
    'Signed in successfully!',
    'Signed out successfully',
    'Failed to sign out',
    'Failed to sign out. Please try again.',
    'Failed to update user role',
    'User role updated to {role} successfully',
    'Could not load your profile. Please try again later.',
    'Authentication error: {message}',
    'Failed to send reset link. Please try again.',
    'Password reset link sent! Please check your email.',
    'Failed to reset password. Please try again.',
    'Password has been reset successfully! You can now log in with your new password.',
  ],
  'Settings, contacts, cards': [
    'Failed to load your API settings',
    'Failed to update API settings',
    'API settings updated successfully',
    'You must be logged in to update API settings',
    'You must be logged in to save contacts',
    'Contact saved successfully',
    'Failed to save contact',
    'Failed to load your contacts',
    'This contact is already in your list',
    'Failed to load your digital cards',
    'Failed to create digital card',
    'Digital card created successfully',
    'Card updated successfully',
    'Failed to update digital card',
    'Card deleted successfully',
    'Failed to delete digital card',
    'Default card updated',
    'Failed to set default card',
    'You must be logged in to create a digital card',
    'Invalid API key. Please check and try again.',
    'Failed to validate API key. Please try again.',
    'CRM integration disabled',
    'Please enter an API key',
    'Failed to update profile.',
  ],
  'Public card and connect': [
    'Contact card not found',
    'Error loading contact information',
    'Failed to connect with {first name}',
    'Failed to complete automatic connection',
    'Failed to connect with contact',
    'Successfully connected with {first name}',
    "Couldn't save contact to your device",
    'The contact has been saved to your account only',
    'Contact exported for iOS',
    'Contact exported for mobile device',
    'Contact exported for macOS',
    'Contact exported for Windows',
    'Contact file downloaded',
    'There seems to be an issue connecting to the database. Some features may be unavailable.',
  ],
  'Images, QR, NFC, sharing': [
    'Invalid image file',
    'Failed to process image. Please try again.',
    'Failed to read file',
    'Failed to load image',
    'Could not get canvas context',
    'Failed to load profile image',
    'Failed to generate QR code',
    'Try Again',
    'Failed to generate QR code. Please try again.',
    'NFC is not supported on this device',
    'Failed to write to NFC tag. Please try again.',
    'Unexpected Application Error!',
  ],
} as const

// roles-teams-admin.md §8, the messages of the Team page and the invitation pages (built).
const TEAMS_SECTION_8 = {
  'Teams and members': [
    'Failed to load teams',
    'Failed to create team',
    'Failed to update team',
    'Failed to delete team',
    'Failed to load team members',
    'Failed to add team member',
    'Failed to update team member',
    'Failed to remove team member',
    'Team ID is required',
    'Team created successfully',
    'Team updated successfully',
    'Team deleted successfully',
    'Member removed from team',
    '{email} added to the team',
    'Member role updated',
    'Invitation sent to {email}',
  ],
  'Invitations and plans': [
    'Failed to load invitations',
    'Failed to create invitation',
    'Failed to cancel invitation',
    'Failed to accept invitation',
    'Failed to decline invitation',
    'Invitation has expired',
    'Invitation cancelled',
    'You have joined the team',
    'Invitation declined',
    'Successfully upgraded to {plan} plan',
  ],
} as const

/**
 * Messages of the team catalogue that the built screens say with another of its messages, and
 * why: the other one must be in the app instead.
 */
const SAID_AS: Record<string, { as: string; why: string }> = {
  'Failed to load team members': {
    as: 'Failed to load teams',
    why: 'the Team page loads teams, members and invitations in one request',
  },
  'Failed to load invitations': {
    as: 'Failed to load teams',
    why: 'the Team page loads teams, members and invitations in one request',
  },
  '{email} added to the team': {
    as: 'Invitation sent to {email}',
    why: 'adding by email always invites, whether or not the address has an account (issue 39 point 3, ADR 058)',
  },
  'Failed to create invitation': {
    as: 'Failed to add team member',
    why: 'one Add Member form adds an account or invites an address, known only from the answer',
  },
}

/**
 * Messages of screens that a later issue built, with the route file that brings them: the file
 * must exist (a wrong path fails rather than skipping the check) and the messages be in app/.
 */
const LATER_SCREENS = [
  {
    issue: 15,
    screen: 'CRM integration (/api-settings)',
    routeFile: 'app/routes/api-settings.tsx',
    messages: [
      'Failed to load your API settings',
      'Failed to update API settings',
      'API settings updated successfully',
      'You must be logged in to update API settings',
      'Invalid API key. Please check and try again.',
      'Failed to validate API key. Please try again.',
      'CRM integration disabled',
      'Please enter an API key',
    ],
  },
  {
    issue: 14,
    screen: "changing a user's role (administration)",
    routeFile: 'app/routes/dashboard.super-admin.users._index.tsx',
    messages: ['Failed to update user role', 'User role updated to {role} successfully'],
  },
] as const

function sourceOf(directory: string): string {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n')
}

const appSource = sourceOf('app')

/**
 * The forms a message can take in source: as is, or as a template up to its placeholder, or as
 * a message catalogue's text up to its `{name}` placeholder (ADR 105: the visitor pages' texts).
 */
function inSource(message: string) {
  const placeholder = message.indexOf('{')
  if (placeholder === -1) return appSource.includes(message)
  const before = message.slice(0, placeholder)
  return appSource.includes(`${before}\${`) || appSource.includes(`${before}{`)
}

const later = new Map<string, (typeof LATER_SCREENS)[number]>(
  LATER_SCREENS.flatMap((screen) => screen.messages.map((message) => [message, screen] as const)),
)

describe('spec §8 messages are in the app', () => {
  for (const [group, messages] of Object.entries(SECTION_8)) {
    const now = messages.filter((message) => !later.has(message))
    test.each(now.map((message) => [message]))(`${group}: %s`, (message) => {
      expect(inSource(message), `"${message}" is in no file under app/`).toBe(true)
    })
  }

  test.each(LATER_SCREENS.map((screen) => [screen.screen, screen]))(
    'once %s exists, its messages are in the app',
    (_name, screen) => {
      // A listed screen that is missing is a wrong path (or a removed screen), never a pass:
      // a renamed route once let these messages go unchecked.
      expect(existsSync(screen.routeFile), `${screen.routeFile} does not exist`).toBe(true)
      const missing = screen.messages.filter((message) => !inSource(message))
      expect(missing, `${screen.routeFile} exists but lacks: ${missing.join(' | ')}`).toEqual([])
    },
  )

  for (const [group, messages] of Object.entries(TEAMS_SECTION_8)) {
    test.each(messages.map((message) => [message]))(`roles §8, ${group}: %s`, (message) => {
      const said = SAID_AS[message]
      const expected = said?.as ?? message
      expect(
        inSource(expected),
        `"${expected}" is in no file under app/${said ? ` (it stands for "${message}": ${said.why})` : ''}`,
      ).toBe(true)
    })
  }

  test('what stands for a team message is one of the catalogue', () => {
    const all = new Set<string>(Object.values(TEAMS_SECTION_8).flat())
    for (const [message, { as }] of Object.entries(SAID_AS)) {
      expect(all.has(message), message).toBe(true)
      expect(all.has(as), as).toBe(true)
    }
  })

  test('the later screens hold messages of this section only', () => {
    const all = new Set<string>(Object.values(SECTION_8).flat())
    for (const screen of LATER_SCREENS) {
      for (const message of screen.messages) expect(all.has(message)).toBe(true)
    }
  })
})
