// A card's short link (issue 28 point 3): `/c/{slug}` on its tenant's host. One home for the
// slug's rule, shared by the card editor's conform form, its action and the default made from
// a name (docs/decisions/041-short-links.md says why the length stops at 19).
import { z } from 'zod'
import { slugWords } from './slug-words'

export const SLUG_MIN_LENGTH = 3
/**
 * `HTTPS://` + a host of 20 + `/C/` + 19 = 50 characters, all of QR alphanumeric mode's set:
 * what version 4 at error correction level H holds (app/cards/short-link.ts).
 */
export const SLUG_MAX_LENGTH = 19

/** Paths and words a short link must never look like, on any tenant's host. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin',
  'agency',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'c',
  'card',
  'cards',
  'contact',
  'contacts',
  'dashboard',
  'dev',
  'email',
  'help',
  'icons',
  'invitations',
  'login',
  'logout',
  'manifest',
  'media',
  'new',
  'onboarding',
  'profile',
  'qrcode',
  'register',
  'resources',
  'root',
  'settings',
  'signin',
  'signup',
  'static',
  'support',
  'system',
  'www',
])

export const SLUG_MESSAGES = {
  tooShort: `Short link must be at least ${SLUG_MIN_LENGTH} characters`,
  tooLong: `Short link must be at most ${SLUG_MAX_LENGTH} characters`,
  characters:
    'Use lowercase letters, digits and single hyphens, starting and ending with a letter or digit',
  reserved: 'This short link is reserved. Please choose another one',
  taken: 'This short link is already taken. Please choose another one',
  // A departed account's short link in quarantine (ADR 058): it still forwards for the agency.
  held: 'This short link belonged to someone who has left and still forwards their visitors. Please choose another one',
} as const

const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

export const cardSlugField = z
  .string({ error: SLUG_MESSAGES.tooShort })
  .trim()
  .min(SLUG_MIN_LENGTH, SLUG_MESSAGES.tooShort)
  .max(SLUG_MAX_LENGTH, SLUG_MESSAGES.tooLong)
  .regex(SLUG_SHAPE, SLUG_MESSAGES.characters)
  .refine((slug) => !RESERVED_SLUGS.has(slug), SLUG_MESSAGES.reserved)

/** The card editor's short-link form. */
export const CardSlugSchema = z.object({ slug: cardSlugField })

/**
 * The slug a name suggests: "Ada Lovelace" → "ada-lovelace", accents dropped, cut to 16
 * characters. A name without both parts (one word could be a reserved path, or too short)
 * starts from "my-card". Migration 0015 gave existing cards theirs by the same rule.
 */
export function slugBaseFromName(firstName: string, lastName: string) {
  const base = slugWords(`${firstName} ${lastName}`, SLUG_MAX_LENGTH - 3)
  if (base.length < SLUG_MIN_LENGTH || !base.includes('-')) return 'my-card'
  return base
}

/** The n-th candidate for a base: the base itself, then `{base}-2`, `{base}-3`, … within the limit. */
export function slugCandidate(base: string, n: number) {
  if (n <= 1) return base
  const suffix = `-${n}`
  return `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`
}
