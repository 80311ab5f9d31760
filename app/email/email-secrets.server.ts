// The tokens an email's links carry never rest in the outbox (ADR 028): when an email is queued,
// each token in its subject, bodies and headers is replaced by a marker, and the row keeps only
// how to derive the token again (a seed for a link token, the signed statement for an
// unsubscribe token), which takes APP_SECRET, never in the database or a backup. Delivery, and
// the demo's outbox page while a link still works, put the tokens back.
import {
  type EmailLinkSecret,
  hashToken,
  type LinkPurpose,
  linkTokenOf,
} from '#app/email/link-token.server'
import {
  createFollowerStopToken,
  createUnsubscribeToken,
  type UnsubscribePurpose,
} from '#app/email/unsubscribe-token.server'
import { findFollowerById, findPendingFollowerByToken } from '#app/models/card-followers.server'
import { findLeadByDataToken } from '#app/models/contacts.server'
import { findUsableConfirmationToken } from '#app/models/email-confirmations.server'
import type { OutboxEmail } from '#app/models/outbox.server'
import { enrolmentLinkChallenge, isSessionChallengeLive } from '#app/models/passkeys.server'
import { findUsableResetToken } from '#app/models/password-resets.server'
import { findOfferByToken, findPersonalCardByManageToken } from '#app/models/personal-cards.server'
import { findPendingInvitationByTokenHash } from '#app/models/team-invitations.server'
import { findUserById } from '#app/models/users.server'
import type { Queryable } from '#drizzle/db.server'
import type { OutboxSecret } from '#drizzle/schema'

export type UnsubscribeSecret = { kind: 'unsubscribe'; userId: string; purpose: UnsubscribePurpose }
/** A card follower's one-click stop link (ADR 102). */
export type FollowerStopSecret = { kind: 'follow-stop'; followerId: string }
export type EmailSecret = EmailLinkSecret | UnsubscribeSecret | FollowerStopSecret

/** An email as a template renders it, with the secrets its links carry. */
export type SecretEmail = OutboxEmail & { secrets?: EmailSecret[] }

/** What stands in a stored email where a token was: says so to whoever reads the table. */
const markerFor = (index: number) => `{removed-secret-${index}}`

/** The token a secret stands for (the unsubscribe token names the email's organization). */
export function tokenOf(organizationId: string, secret: EmailSecret | OutboxSecret) {
  if (secret.kind === 'link') return linkTokenOf(secret.seed)
  if (secret.kind === 'follow-stop')
    return createFollowerStopToken(organizationId, secret.followerId)
  return createUnsubscribeToken({
    organizationId,
    userId: secret.userId,
    purpose: secret.purpose as UnsubscribePurpose,
  })
}

function replaceIn(email: OutboxEmail, from: string, to: string): OutboxEmail {
  return {
    ...email,
    subject: email.subject.replaceAll(from, to),
    html: email.html.replaceAll(from, to),
    text: email.text.replaceAll(from, to),
    ...(email.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(email.headers).map(([name, value]) => [
              name,
              value.replaceAll(from, to),
            ]),
          ),
        }
      : {}),
  }
}

/** The email as it may be stored: every token replaced by its marker, and how to derive each. */
export function redactEmail(organizationId: string, email: SecretEmail) {
  const { secrets = [], ...rest } = email
  let redacted: OutboxEmail = rest
  const stored: OutboxSecret[] = secrets.map((secret, index) => {
    const marker = markerFor(index)
    redacted = replaceIn(redacted, tokenOf(organizationId, secret), marker)
    return { ...secret, marker }
  })
  return { email: redacted, secrets: stored }
}

/** The stored email with these secrets' tokens put back. */
export function revealEmail(
  organizationId: string,
  email: OutboxEmail,
  secrets: readonly OutboxSecret[],
): OutboxEmail {
  let revealed = email
  for (const secret of secrets) {
    revealed = replaceIn(revealed, secret.marker, tokenOf(organizationId, secret))
  }
  return revealed
}

/**
 * Whether the secret's link would still be accepted: an unused, unexpired reset or confirmation
 * token, a pending invitation, a lead's data that is still stored, an unsubscribe link of a user who still exists. The outbox page
 * shows a link only while this holds.
 */
export async function isSecretLive(db: Queryable, organizationId: string, secret: OutboxSecret) {
  const hash = () => hashToken(tokenOf(organizationId, secret))
  if (secret.kind === 'follow-stop') {
    const follower = await findFollowerById(db, organizationId, secret.followerId)
    return follower?.state === 'confirmed'
  }
  if (secret.kind === 'unsubscribe') {
    return Boolean(await findUserById(db, organizationId, secret.userId))
  }
  switch (secret.purpose as LinkPurpose) {
    case 'password-reset':
      return Boolean(await findUsableResetToken(db, organizationId, hash()))
    case 'email-confirmation':
      return Boolean(await findUsableConfirmationToken(db, organizationId, hash()))
    case 'team-invitation': {
      const invitation = await findPendingInvitationByTokenHash(db, organizationId, hash())
      return Boolean(invitation && invitation.expiresAt > new Date())
    }
    case 'lead-data':
      return Boolean(await findLeadByDataToken(db, organizationId, hash()))
    case 'card-follow':
      return Boolean(await findPendingFollowerByToken(db, organizationId, hash()))
    case 'personal-card-claim':
      return Boolean(await findOfferByToken(db, organizationId, hash()))
    case 'personal-card-manage':
      return Boolean(await findPersonalCardByManageToken(db, organizationId, hash()))
    case 'two-factor-enrolment':
      return isSessionChallengeLive(db, organizationId, enrolmentLinkChallenge(hash()))
    default:
      return false
  }
}
