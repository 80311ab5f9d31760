// The account operations behind the sign-in area: every one scoped to the resolved tenant.

import { hashToken, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import type { JobHandler } from '#app/jobs/worker.server'
import { recordAccountAudit } from '#app/models/audit.server'
import { findJobByKey, insertJob } from '#app/models/jobs.server'
import {
  consumeResetToken,
  findUsableResetToken,
  insertPasswordResetToken,
} from '#app/models/password-resets.server'
import {
  createUser,
  findUserByEmail,
  findUserById,
  type NewUser,
  normalizeEmail,
  setUserPassword,
  type User,
} from '#app/models/users.server'
import {
  addressLimitKey,
  assertNotLimited,
  clearLimit,
  hitOrRefuseIn,
  limitKey,
  recordHits,
} from '#app/rate-limits/rate-limit.server'
import { accountExistsEmail } from '#app/services/emails/account-exists.server'
import { passwordResetEmail } from '#app/services/emails/password-reset.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import type { PublicAddress } from '#app/tenancy/host'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import { ssoRequiredMessage } from '#app/validation/sso'
import { type Queryable, type Transaction, withDatabase, withTenant } from '#drizzle/db.server'
import { issueDeviceCookie, trustedDevice } from './device-cookie.server'
import { queueConfirmationEmailIn } from './email-confirmation.server'
import { hashPassword, verifyPassword } from './password.server'
import { createSession, invalidateUserSessions } from './session.server'
import { pendingDeletionAtSignIn } from './sign-in-completion.server'
import { isBreakGlassAccount, ssoRequiredDomain } from './sso-enforcement.server'
import { secondStepOwed } from './two-factor.server'

export const SAME_PASSWORD_MESSAGE = 'Your new password must be different from your current one'

export type RegisterInput = {
  firstName: string
  lastName: string
  email: string
  password: string
  company?: string
}

/**
 * Signs up an end user of this tenant: a new account gets its confirmation link, a taken
 * address's owner a notice that someone tried (active accounts only), each queued in the
 * transaction that decided. The caller signs a new account in (ADR 071) and tells a taken
 * address to sign in instead, as the spec words it; the limits per email and per address keep
 * that answer from becoming a directory of the tenant's accounts.
 */
export async function registerAccount(
  tenant: Tenant,
  input: RegisterInput,
  clientIp: string,
): Promise<{ status: 'created'; user: User } | { status: 'existing' }> {
  const email = normalizeEmail(input.email)
  const limits = [
    { name: 'registerAccount' as const, key: limitKey('registerAccount', tenant.id, email) },
    { name: 'registerIp' as const, key: addressLimitKey('registerIp', clientIp) },
  ]
  await assertNotLimited(limits)
  await recordHits(limits)
  const passwordHash = await hashPassword(input.password)
  try {
    const outcome = await withTenant(tenant.id, async (tx) => {
      const existing = await findUserByEmail(tx, tenant.id, email)
      if (existing) {
        await queueAccountExistsEmailIn(tx, tenant, existing, clientIp)
        return { status: 'existing' as const }
      }
      const created = await createUser(tx, tenant.id, {
        ...input,
        email,
        passwordHash,
        role: 'end_user',
      })
      await queueConfirmationEmailIn(tx, tenant, created, { clientIp })
      return { status: 'created' as const, user: created }
    })
    return outcome
  } catch (error) {
    // Two sign-ups racing for one email: the unique index decides.
    if (!isUniqueViolation(error)) throw error
  }
  await withTenant(tenant.id, async (tx) => {
    const existing = await findUserByEmail(tx, tenant.id, email)
    if (existing) await queueAccountExistsEmailIn(tx, tenant, existing, clientIp)
  })
  return { status: 'existing' }
}

/** Tells the owner of a taken address that someone tried to sign up with it (active only). */
async function queueAccountExistsEmailIn(
  tx: Transaction,
  tenant: Tenant,
  owner: User,
  clientIp: string,
) {
  if (owner.status !== 'active') return
  const branding = tenantEmailBranding(tenant)
  await queueEmailIn(
    tx,
    tenant.id,
    accountExistsEmail({
      branding,
      to: owner.email,
      firstName: owner.firstName,
      signInUrl: `${branding.origin}/auth/login`,
      resetUrl: `${branding.origin}/auth/forgot-password`,
    }),
    tenant.name,
    { clientIp },
  )
}

// Unknown emails still pay for one hash check, so timing does not reveal which accounts exist.
let decoyHash: Promise<string> | undefined
const getDecoyHash = () => {
  decoyHash ??= hashPassword('decoy password that matches nothing')
  return decoyHash
}

/**
 * Checks the credentials against this tenant's accounts. The per-account limit applies to
 * browsers that never signed in to the account; one holding its device cookie is limited per
 * cookie instead (OWASP device cookies), so a stranger's failures cannot lock the owner out.
 */
export async function signIn(
  tenant: Tenant,
  credentials: { email: string; password: string },
  clientIp: string,
  request: Request,
) {
  const email = normalizeEmail(credentials.email)
  const device = trustedDevice(request, tenant.id, email)
  const limits = [
    device
      ? { name: 'signInDevice' as const, key: limitKey('signInDevice', tenant.id, device.nonce) }
      : { name: 'signInAccount' as const, key: limitKey('signInAccount', tenant.id, email) },
    { name: 'signInIp' as const, key: addressLimitKey('signInIp', clientIp) },
  ]
  await assertNotLimited(limits)
  const { user, ssoDomain } = await withTenant(tenant.id, async (tx) => ({
    user: await findUserByEmail(tx, tenant.id, email),
    ssoDomain: await ssoRequiredDomain(tx, tenant.id, email),
  }))
  const valid = user
    ? await verifyPassword(user.passwordHash, credentials.password)
    : await verifyPassword(await getDecoyHash(), credentials.password).then(() => false)
  // A domain that requires SSO (ADR 088): refused whatever the password, unless a break-glass
  // admin gives the right one, so the answer says nothing of which accounts exist or are admins.
  if (ssoDomain && !(user && valid && isBreakGlassAccount(user) && user.status === 'active')) {
    await recordHits(limits)
    throw new Refusal('forbidden', ssoRequiredMessage(ssoDomain), { field: 'email' })
  }
  if (!user || !valid || user.status !== 'active') {
    await recordHits(limits)
    return null
  }
  await clearLimit(limits[0]?.key as string)
  const { session, twoFactorVerified } = await openSession(tenant, user)
  // Complete already (no second step owed): the sign-in names a pending deletion's date, which
  // stays scheduled until the person chooses to keep the account (ADR 081).
  const deletionPending = twoFactorVerified
    ? await withTenant(tenant.id, (tx) => pendingDeletionAtSignIn(tx, tenant.id, user.id))
    : null
  return {
    user,
    session,
    deviceCookie: issueDeviceCookie(tenant.id, email),
    deletionPending,
  }
}

/**
 * A session for an account that has just proved itself. One with a second factor, or one that
 * must have it, gets a pending session: the guard lets it reach only the step page until the
 * step is passed (ADR 045).
 */
async function openSession(tenant: Tenant, user: User) {
  const twoFactorVerified = !(await secondStepOwed(tenant, user))
  const session = await createSession(tenant.id, user.id, { twoFactorVerified })
  return { session, twoFactorVerified }
}

/**
 * Signs in the account sign-up has just made (ADR 071): its session and the device cookie that
 * a sign-in with its password would have given. A new account has no deletion to cancel.
 */
export async function signInCreatedAccount(tenant: Tenant, user: User) {
  const { session } = await openSession(tenant, user)
  return { session, deviceCookie: issueDeviceCookie(tenant.id, user.email) }
}

// Kept importable from here: e2e/start-server.ts stores a known expired reset token with it.
export { hashToken }

/**
 * Emails a single-use reset link when the account exists in this tenant. Before answering, a
 * known and an unknown email do the same work: the rate limits and one queued job (a local
 * write). The job, run by the queue's worker, looks the account up, stores the token and queues
 * the email, so the answer's timing says nothing about the account, and a crash right after the
 * answer loses nothing (ADR 019). The link's host is the one the request reached.
 */
export async function requestPasswordReset(
  tenant: Tenant,
  rawEmail: string,
  clientIp: string,
): Promise<{ ssoDomain: string | null }> {
  const email = normalizeEmail(rawEmail)
  const limits = [
    { name: 'resetAccount' as const, key: limitKey('resetAccount', tenant.id, email) },
    { name: 'resetIp' as const, key: addressLimitKey('resetIp', clientIp) },
  ]
  await assertNotLimited(limits)
  await recordHits(limits)
  await withDatabase((tx) =>
    insertJob(tx, {
      name: 'auth.password-reset',
      organizationId: tenant.id,
      // How the request came (a trusted proxy's https and port) travels with the host: the
      // link is built later, by the job, and must start as the request did.
      payload: {
        email,
        host: tenant.host,
        ...(tenant.via
          ? { scheme: tenant.via.scheme, ...(tenant.via.port ? { port: tenant.via.port } : {}) }
          : {}),
      },
    }),
  )
  // The answer names a domain that requires SSO (it says nothing of the account); the job still
  // runs, and sends a link to a break-glass admin only.
  const ssoDomain = await withTenant(tenant.id, (tx) => ssoRequiredDomain(tx, tenant.id, email))
  return { ssoDomain }
}

/** The queued reset request: token and email in one transaction, written once per job. */
export const passwordResetJob: JobHandler = {
  async run(job) {
    const { email, host, scheme, port } = job.payload
    if (!email || !host) return
    const resolution = await resolveTenant(host)
    // The site has gone (deleted, deactivated) since the request: nothing to send.
    if (resolution.status !== 'found' || resolution.tenant.id !== job.organizationId) return
    const via: PublicAddress | null =
      scheme === 'https' || scheme === 'http'
        ? { scheme, port: port && /^\d{1,5}$/.test(port) ? port : null }
        : null
    const tenant = { ...resolution.tenant, via }
    const link = newEmailLink('password-reset')
    const branding = tenantEmailBranding(tenant)
    await withTenant(tenant.id, async (tx) => {
      const user = await findUserByEmail(tx, tenant.id, email)
      if (user?.status !== 'active') return
      if (!isBreakGlassAccount(user) && (await ssoRequiredDomain(tx, tenant.id, email))) return
      // A run whose end went unrecorded has written its email already.
      const emailKey = `password-reset:${job.id}`
      if (await findJobByKey(tx, `email.send:${emailKey}`)) return
      await insertPasswordResetToken(tx, tenant.id, user.id, hashToken(link.token))
      const message = passwordResetEmail({
        branding,
        to: user.email,
        firstName: user.firstName,
        resetUrl: `${branding.origin}/auth/reset-password?token=${link.token}`,
      })
      await queueEmailIn(
        tx,
        tenant.id,
        { ...message, secrets: [link.secret] },
        tenant.name,
        'limited-when-requested',
        emailKey,
      )
    })
  },
}

export async function isResetTokenUsable(tenant: Tenant, token: string) {
  const row = await withTenant(tenant.id, (tx) =>
    findUsableResetToken(tx, tenant.id, hashToken(token)),
  )
  return Boolean(row)
}

/** Sets the new password if the token is still usable (once), and ends every session. */
export async function resetPassword(tenant: Tenant, token: string, newPassword: string) {
  const passwordHash = await hashPassword(newPassword)
  const userId = await withTenant(tenant.id, async (tx) => {
    const row = await consumeResetToken(tx, tenant.id, hashToken(token))
    if (!row) return null
    const user = await findUserById(tx, tenant.id, row.userId)
    if (!user) return null
    // A link sent before the domain came to require SSO sets no password now (ADR 088).
    if (!isBreakGlassAccount(user) && (await ssoRequiredDomain(tx, tenant.id, user.email))) {
      return null
    }
    await setUserPassword(tx, tenant.id, user.id, passwordHash)
    return user.id
  })
  if (!userId) return false
  await invalidateUserSessions(tenant.id, userId)
  return true
}

/**
 * Every check of a signed-in user's current password (change password, change email) is
 * limited like sign-in, per account and per client address, in the same store: a session left
 * open must not be a way to guess the password. Each attempt is counted before the hash is
 * checked, so parallel guesses cannot slip past the limit together; once over it, even the
 * right password is refused (a Refusal coded rate_limited) until the window ends. The right password
 * clears the account's count, as a sign-in does.
 */
export async function checkCurrentPassword(
  tenant: Pick<Tenant, 'id'>,
  user: Pick<User, 'id' | 'passwordHash'>,
  password: string,
  clientIp: string,
) {
  const accountKey = limitKey('currentPasswordAccount', tenant.id, user.id)
  await withDatabase(async (tx) => {
    await hitOrRefuseIn(tx, 'currentPasswordAccount', accountKey)
    await hitOrRefuseIn(tx, 'currentPasswordIp', addressLimitKey('currentPasswordIp', clientIp))
  })
  if (!(await verifyPassword(user.passwordHash, password))) return false
  await clearLimit(accountKey)
  return true
}

/**
 * Changes a signed-in user's password after checking the current one (a Refusal coded rate_limited past
 * the limit), and ends every other session of the user (the current one stays signed in).
 */
export async function changePassword(
  tenant: Tenant,
  user: User,
  currentSessionId: string,
  passwords: { currentPassword: string; newPassword: string },
  clientIp: string,
) {
  if (!(await checkCurrentPassword(tenant, user, passwords.currentPassword, clientIp))) {
    return false
  }
  const passwordHash = await hashPassword(passwords.newPassword)
  await withTenant(tenant.id, (tx) => setUserPassword(tx, tenant.id, user.id, passwordHash))
  await invalidateUserSessions(tenant.id, user.id, currentSessionId)
  return true
}

/**
 * Password rotation's step (ADR 045): a new password, different from the current one, for a
 * session whose password is older than the limit. Other sessions of the user end; this one goes
 * on. False when the new password is the current one.
 */
export async function replaceExpiredPassword(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  currentSessionId: string,
  newPassword: string,
) {
  if (await verifyPassword(user.passwordHash, newPassword)) return false
  const passwordHash = await hashPassword(newPassword)
  await withTenant(tenant.id, async (tx) => {
    await setUserPassword(tx, tenant.id, user.id, passwordHash)
    await recordAccountAudit(tx, tenant.id, user.id, 'password.changed', { reason: 'rotation' })
  })
  await invalidateUserSessions(tenant.id, user.id, currentSessionId)
  return true
}

/** A new user as callers know it: with the password in clear, which only its hash outlives. */
export type NewAccount = Omit<NewUser, 'passwordHash'> & { password: string }

/** Hashes the password (the model only stores a hash) and creates the user. */
export async function createUserWithPassword(
  db: Queryable,
  organizationId: string,
  { password, ...input }: NewAccount,
) {
  return createUser(db, organizationId, { ...input, passwordHash: await hashPassword(password) })
}
