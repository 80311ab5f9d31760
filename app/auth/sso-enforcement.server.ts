// "Require SSO" for an email domain (issue 42 point 1, ADR 088): once an agency has verified a
// domain for its identity provider and turned enforcement on, password sign-in and password
// reset are refused for the domain's addresses, so leaving the company (disabled in the
// directory) ends access here too. The break-glass exception is the agency's admins: they keep
// their password, so a broken or misconfigured provider can never lock the agency out of the
// screen that fixes it.
import { findVerifiedSsoDomain } from '#app/models/sso.server'
import type { User } from '#app/models/users.server'
import { emailDomain } from '#app/validation/sso'
import type { Queryable } from '#drizzle/db.server'

/**
 * The address's domain when this agency requires SSO for it: verified, enforced, and its
 * provider switched on (a provider turned off cannot sign anyone in, so it enforces nothing).
 */
export async function ssoRequiredDomain(
  db: Queryable,
  organizationId: string,
  email: string,
): Promise<string | null> {
  const domain = emailDomain(email)
  if (!domain) return null
  const claim = await findVerifiedSsoDomain(db, organizationId, domain)
  return claim?.domain.enforced && claim.provider.enabled ? domain : null
}

/** Who keeps password sign-in on a domain that requires SSO: the agency's admins. */
export function isBreakGlassAccount(user: Pick<User, 'role'>) {
  return user.role === 'agency_admin'
}
