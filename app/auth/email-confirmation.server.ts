// The sign-up confirmation email (issue 12): a single-use link, stored hashed, valid 24 hours,
// for one address of one account of one tenant. Sign-in never waits for it.

import { createCookie } from '@remix-run/node'
import { hashToken, LINK_TOKEN, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import type { EmailCause } from '#app/email/send-limits.server'
import { getEnv } from '#app/env.server'
import { recordAccountAudit } from '#app/models/audit.server'
import {
  consumeConfirmationToken,
  findUsableConfirmationToken,
  insertEmailConfirmationToken,
} from '#app/models/email-confirmations.server'
import { findUserById, markEmailConfirmed, type User } from '#app/models/users.server'
import {
  addressLimitKey,
  assertNotLimited,
  limitKey,
  recordHits,
} from '#app/rate-limits/rate-limit.server'
import { confirmEmailEmail } from '#app/services/emails/confirm-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { type Transaction, withTenant } from '#drizzle/db.server'

/**
 * Stores a fresh token for the user's current address and queues its link email (on the
 * tenant's host), in the caller's transaction: the token and its email commit together.
 */
export async function queueConfirmationEmailIn(
  tx: Transaction,
  tenant: Tenant,
  user: Pick<User, 'id' | 'email' | 'firstName'>,
  cause: EmailCause,
) {
  const link = newEmailLink('email-confirmation')
  await insertEmailConfirmationToken(tx, tenant.id, user.id, user.email, hashToken(link.token))
  const branding = tenantEmailBranding(tenant)
  const message = confirmEmailEmail({
    branding,
    to: user.email,
    firstName: user.firstName,
    confirmUrl: `${branding.origin}/auth/confirm-email?token=${link.token}`,
  })
  await queueEmailIn(tx, tenant.id, { ...message, secrets: [link.secret] }, tenant.name, cause)
}

/** The same in a transaction of its own, asked for by the account itself. */
export async function sendConfirmationEmail(
  tenant: Tenant,
  user: Pick<User, 'id' | 'email' | 'firstName'>,
) {
  await withTenant(tenant.id, (tx) =>
    queueConfirmationEmailIn(tx, tenant, user, { userId: user.id }),
  )
}

export type ResendOutcome = 'sent' | 'already-confirmed'

/**
 * A new link for a signed-in user whose email is not confirmed yet. Limited per account and
 * per address (a Refusal coded rate_limited), since each one sends an email.
 */
export async function resendConfirmationEmail(
  tenant: Tenant,
  user: User,
  clientIp: string,
): Promise<ResendOutcome> {
  if (user.emailConfirmedAt) return 'already-confirmed'
  const limits = [
    { name: 'confirmResend' as const, key: limitKey('confirmResend', tenant.id, user.id) },
    { name: 'confirmResend' as const, key: addressLimitKey('confirmResend', clientIp) },
  ]
  await assertNotLimited(limits)
  await recordHits(limits)
  await sendConfirmationEmail(tenant, user)
  return 'sent'
}

export async function isConfirmationTokenUsable(tenant: Tenant, token: string) {
  if (!LINK_TOKEN.test(token)) return false
  const row = await withTenant(tenant.id, (tx) =>
    findUsableConfirmationToken(tx, tenant.id, hashToken(token)),
  )
  return Boolean(row)
}

/**
 * Confirms the address the token was sent to, once, within this tenant only. Needs no session:
 * the link may be opened on another device. Returns the confirmed user, or null.
 */
export async function confirmEmail(tenant: Tenant, token: string) {
  if (!LINK_TOKEN.test(token)) return null
  return withTenant(tenant.id, async (tx) => {
    const row = await consumeConfirmationToken(tx, tenant.id, hashToken(token))
    if (!row) return null
    const user = await findUserById(tx, tenant.id, row.userId)
    if (user?.status !== 'active') return null
    const confirmed = await markEmailConfirmed(tx, tenant.id, user.id, row.email)
    if (!confirmed) return null
    await recordAccountAudit(tx, tenant.id, user.id, 'email.confirmed')
    return confirmed
  })
}

// The banner's "dismiss", kept for the browser session (no Max-Age) and for one account and
// address: another account signing in here, or a new address, shows the banner again. Its name
// is sent on agency hosts, so it does not name the product (issue 17 point 4).
const bannerCookie = () =>
  createCookie('confirm_banner', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: getEnv().NODE_ENV === 'production',
    secrets: [getEnv().APP_SECRET],
  })

const bannerKey = (user: Pick<User, 'id' | 'email'>) => hashToken(`${user.id}:${user.email}`)

export function dismissBannerCookie(user: Pick<User, 'id' | 'email'>) {
  return bannerCookie().serialize(bannerKey(user))
}

/** Whether the signed-in user's unconfirmed-email banner shows on this request. */
export async function showsConfirmationBanner(request: Request, user: User | null) {
  if (!user || user.emailConfirmedAt) return false
  const dismissed = await bannerCookie().parse(request.headers.get('Cookie'))
  return dismissed !== bannerKey(user)
}
