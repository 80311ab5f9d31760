// Tokens of emailed links (password reset, set password, email confirmation, team invitation):
// 32 bytes in base32 in the link, only their SHA-256 in the database, so a leaked table opens no
// account. An emailed token is not random on its own: it is an HMAC, under APP_SECRET, of a
// random seed the outbox row keeps, so the email can be rendered at delivery (and, in the demo,
// on the outbox page) while no table, job or backup ever holds the token itself (ADR 028).
import { createHmac, randomBytes } from 'node:crypto'
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'
import { getEnv } from '#app/env.server'

/** The shape of every link token: anything else is refused without a query. */
export const LINK_TOKEN = /^[a-z2-7]{52}$/

/** What an emailed link token opens; the outbox page asks the matching table if it still does. */
export const LINK_PURPOSES = [
  'password-reset',
  'email-confirmation',
  'team-invitation',
  // A lead's receipt: see or delete their data (ADR 050).
  'lead-data',
  // Lets the session that asked enrol the account's first second factor at sign-in (ADR 054).
  'two-factor-enrolment',
  // A card follower's double opt-in: the link confirms "Keep me updated" (ADR 102).
  'card-follow',
  // A departing person's offer of a personal card on the platform's host (ADR 103).
  'personal-card-claim',
  // Editing or removing that personal card, sent to its personal email on request (ADR 106).
  'personal-card-manage',
] as const
export type LinkPurpose = (typeof LINK_PURPOSES)[number]

/** How the mailer re-derives an emailed link's token; this, never the token, is stored. */
export type EmailLinkSecret = { kind: 'link'; purpose: LinkPurpose; seed: string }

export function newLinkToken() {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

export function hashToken(token: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)))
}

/** The token a seed stands for: only a holder of APP_SECRET can compute it. */
export function linkTokenOf(seed: string) {
  const mac = createHmac('sha256', getEnv().APP_SECRET)
    // Its own label, so no other signature made with APP_SECRET is ever a link token.
    .update(`email-link:v1:${seed}`)
    .digest()
  return encodeBase32LowerCaseNoPadding(new Uint8Array(mac))
}

/**
 * A token for a link that goes out by email: the token to put in the link (and whose hash the
 * caller stores), and the secret to hand to the mailer with the email, which keeps the seed in
 * its place.
 */
export function newEmailLink(purpose: LinkPurpose) {
  const seed = randomBytes(24).toString('base64url')
  return { token: linkTokenOf(seed), secret: { kind: 'link', purpose, seed } as EmailLinkSecret }
}
