// Accounts someone else creates (a team member's Add User): the new owner gets an email with a
// single-use link to choose their password (its lifetime: SET_PASSWORD_LINK). The account's initial password is
// random and never shown, so nobody else ever knows a working password for it.
import { randomBytes } from 'node:crypto'
import { hashToken, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { insertPasswordResetToken } from '#app/models/password-resets.server'
import type { User } from '#app/models/users.server'
import { accountCreatedEmail } from '#app/services/emails/account-created.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { SET_PASSWORD_LINK } from '#app/validation/token-lifetimes'
import type { Transaction } from '#drizzle/db.server'

/** A password nobody knows, for an account whose owner sets their own through the email. */
export const unknowablePassword = () => randomBytes(32).toString('base64url')

/**
 * Stores the set-password token and queues its email in `tx`: a rolled-back account gets no
 * link, and a committed one's email goes out at once (the queue wakes its worker at commit).
 */
export async function queueSetPasswordEmailIn(
  tx: Transaction,
  /** The account's organization (the request's tenant, or one a super admin chose). */
  tenant: Pick<
    Tenant,
    'id' | 'name' | 'kind' | 'slug' | 'customDomain' | 'primaryColor' | 'logoUrl' | 'legal'
  >,
  user: Pick<User, 'id' | 'email' | 'firstName'>,
  createdBy: { name: string; userId: string },
) {
  const link = newEmailLink('password-reset')
  await insertPasswordResetToken(
    tx,
    tenant.id,
    user.id,
    hashToken(link.token),
    SET_PASSWORD_LINK.ms,
  )
  const branding = {
    name: tenant.name,
    primaryColor: tenant.primaryColor,
    logoUrl: tenant.logoUrl,
    origin: tenantOrigin(tenant),
    legal: tenant.legal,
  }
  await queueEmailIn(
    tx,
    tenant.id,
    {
      ...accountCreatedEmail({
        branding,
        to: user.email,
        firstName: user.firstName,
        createdBy: createdBy.name,
        setPasswordUrl: `${branding.origin}/auth/reset-password?token=${link.token}`,
      }),
      secrets: [link.secret],
    },
    tenant.name,
    { userId: createdBy.userId },
  )
}
