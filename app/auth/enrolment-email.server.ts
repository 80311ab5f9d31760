// An account's first second factor is set up at the sign-in step only by a session that proved
// it reads the account's email (ADR 054, issue 39): whoever holds the password alone must not
// pick the second factor, and keep it. The step emails a single-use link; its token's hash waits
// on the session row (the column a passkey's challenge uses, prefixed `email:`, 30 minutes), so
// the link works only in the browser whose session asked, once. Opening it there marks the
// session, and only then do `enrol`, `passkey-options` (to create) and `passkey-add` proceed.

import { hashToken, LINK_TOKEN, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { markSessionEnrolmentEmailConfirmed } from '#app/models/authenticators.server'
import {
  consumeSessionChallenge,
  enrolmentLinkChallenge,
  setSessionChallenge,
} from '#app/models/passkeys.server'
import type { User } from '#app/models/users.server'
import {
  addressLimitKey,
  assertNotLimited,
  limitKey,
  recordHits,
} from '#app/rate-limits/rate-limit.server'
import { twoFactorEnrolmentEmail } from '#app/services/emails/two-factor-enrolment-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { en } from '#app/utils/i18n/catalogue-en'
import { TWO_FACTOR_ENROLMENT_LINK } from '#app/validation/token-lifetimes'
import { withTenant } from '#drizzle/db.server'
import { owesEnrolment } from './passkey-ceremonies.server'
import type { ValidSession } from './session.server'
import { countAttempt } from './two-factor.server'

// Home: the English catalogue, which the sign-in's step translates (ADR 105).
export const ENROLMENT_EMAIL_REQUIRED_MESSAGE = en['twoFactor.openLinkFirst']
export const ENROLMENT_LINK_FAILED_MESSAGE = en['twoFactor.linkFailed']

/** What the session row holds while the emailed link waits: only the token's hash. */
const enrolmentChallenge = (token: string) => enrolmentLinkChallenge(hashToken(token))

/** Whether this session may enrol the account's first second factor at the step. */
export async function mayEnrolAtStep(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  session: Pick<ValidSession, 'enrolmentEmailConfirmed'>,
) {
  return session.enrolmentEmailConfirmed && (await owesEnrolment(tenant, user))
}

/** Refuses enrolment at the step unless the account owes it and the session opened the link. */
export async function assertMayEnrolAtStep(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  session: Pick<ValidSession, 'enrolmentEmailConfirmed'>,
) {
  if (!(await owesEnrolment(tenant, user))) {
    throw new Refusal('invalid', en['twoFactor.alreadyOn'])
  }
  if (!session.enrolmentEmailConfirmed)
    throw new Refusal('forbidden', ENROLMENT_EMAIL_REQUIRED_MESSAGE)
}

/** Emails the account a link that lets this session enrol (a new one replaces the last). */
export async function sendEnrolmentEmail(
  tenant: Tenant,
  user: User,
  sessionId: string,
  clientIp: string,
) {
  if (!(await owesEnrolment(tenant, user))) {
    throw new Refusal('invalid', 'Two-factor authentication is on.')
  }
  const limits = [
    {
      name: 'enrolmentEmailAccount' as const,
      key: limitKey('enrolmentEmailAccount', tenant.id, user.id),
    },
    { name: 'enrolmentEmailIp' as const, key: addressLimitKey('enrolmentEmailIp', clientIp) },
  ]
  await assertNotLimited(limits)
  await recordHits(limits)
  const link = newEmailLink('two-factor-enrolment')
  const branding = tenantEmailBranding(tenant)
  const message = twoFactorEnrolmentEmail({
    branding,
    to: user.email,
    firstName: user.firstName,
    confirmUrl: `${branding.origin}/auth/two-factor?link=${link.token}`,
  })
  await withTenant(tenant.id, async (tx) => {
    const expiresAt = new Date(Date.now() + TWO_FACTOR_ENROLMENT_LINK.ms)
    await setSessionChallenge(tx, tenant.id, sessionId, enrolmentChallenge(link.token), expiresAt)
    await queueEmailIn(tx, tenant.id, { ...message, secrets: [link.secret] }, tenant.name, {
      userId: user.id,
    })
  })
}

/**
 * Uses the emailed link's token for this session: true when it was this session's unexpired one
 * (then it is used up and the session may enrol). Counted like a code.
 */
export async function confirmEnrolmentEmail(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  sessionId: string,
  token: string,
  clientIp: string,
) {
  await countAttempt(tenant, user.id, clientIp)
  if (!LINK_TOKEN.test(token)) return false
  return withTenant(tenant.id, async (tx) => {
    if (!(await consumeSessionChallenge(tx, tenant.id, sessionId, enrolmentChallenge(token)))) {
      return false
    }
    await markSessionEnrolmentEmailConfirmed(tx, tenant.id, sessionId)
    return true
  })
}
