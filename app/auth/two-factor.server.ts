// Two-factor sign-in with an authenticator app (ADR 045), after Lucia's two-factor guide: a
// 20-byte TOTP key (RFC 6238, 30 s, 6 digits, @oslojs/otp) sealed at rest with APP_SECRET, ten
// single-use recovery codes stored as SHA-256, and a flag on the session for the second step.
// Who must have it: super admins and agency admins while the platform's "Two-factor
// authentication for admins" is on, and an agency's staff when the agency requires it.
import { sha256 } from '@oslojs/crypto/sha2'
import {
  decodeBase32IgnorePadding,
  encodeBase32LowerCaseNoPadding,
  encodeBase32UpperCaseNoPadding,
  encodeHexLowerCase,
} from '@oslojs/encoding'
import { createTOTPKeyURI, verifyTOTPWithGracePeriod } from '@oslojs/otp'
import QRCode from 'qrcode'
import { recordAccountAudit } from '#app/models/audit.server'
import {
  clearTwoFactor,
  consumeRecoveryCode,
  setRecoveryCodes,
  setTwoFactor,
} from '#app/models/authenticators.server'
import { getOrganizationPreferences } from '#app/models/organization-settings.server'
import { listPasskeys } from '#app/models/passkeys.server'
import { findUserById, type User } from '#app/models/users.server'
import { addressLimitKey, hitOrRefuseIn, limitKey } from '#app/rate-limits/rate-limit.server'
import { cachedPlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { en } from '#app/utils/i18n/catalogue-en'
import {
  type FormSealBinding,
  openAtRest,
  openFromForm,
  sealAtRest,
  sealForForm,
} from '#app/utils/secret-box.server'
import { StoredAgencyTeamSchema } from '#app/validation/settings'
import { SET_UP_EXPIRED_MESSAGE } from '#app/validation/two-factor'
import { withDatabase, withTenant } from '#drizzle/db.server'
import { completeSecondStep } from './sign-in-completion.server'
import { RECOVERY_CODE_COUNT } from './sign-in-steps'

export const TOTP_PERIOD_SECONDS = 30
export const TOTP_DIGITS = 6
// One period either side: a phone whose clock is a little off still signs in.
const GRACE_SECONDS = 30

// The step's refusals: their home is the English catalogue, which the step translates (ADR 105).
export const WRONG_CODE_MESSAGE = en['twoFactor.wrongCode']
export const WRONG_RECOVERY_CODE_MESSAGE = en['twoFactor.wrongRecoveryCode']
export const REQUIRED_MESSAGE =
  'Two-factor authentication is required for your account, so it cannot be turned off.'

/**
 * Whether this account must have a second factor (platform toggle, agency's staff toggle). Read
 * outside any transaction: the platform settings may need a connection of their own.
 */
export async function twoFactorRequired(
  tenant: Pick<Tenant, 'id' | 'kind'>,
  user: Pick<User, 'role'>,
) {
  const { requireTwoFactorForAdmins } = await cachedPlatformSettings()
  if (requireTwoFactorForAdmins && (user.role === 'super_admin' || user.role === 'agency_admin')) {
    return true
  }
  if (
    tenant.kind !== 'agency' ||
    !(user.role === 'agency_admin' || user.role === 'agency_member')
  ) {
    return false
  }
  const stored = await withTenant(tenant.id, (tx) => getOrganizationPreferences(tx, tenant.id))
  return StoredAgencyTeamSchema.parse(stored).requireStaffTwoFactor
}

/** Whether the account has a passkey, a second factor of its own (ADR 045, Passkeys). */
export async function hasPasskey(tenant: Pick<Tenant, 'id'>, userId: string) {
  const keys = await withTenant(tenant.id, (tx) => listPasskeys(tx, tenant.id, userId))
  return keys.length > 0
}

/** Whether signing in as this user owes a second step (has one, or must enrol). */
export async function secondStepOwed(tenant: Pick<Tenant, 'id' | 'kind'>, user: User) {
  if (user.totpKeySealed || (await hasPasskey(tenant, user.id))) return true
  return twoFactorRequired(tenant, user)
}

// ── Keys and codes ────────────────────────────────────────────────────────────────────

export function newTotpKey() {
  const key = new Uint8Array(20)
  crypto.getRandomValues(key)
  return key
}

/** The key as people type it into an authenticator: base32, upper case, in groups of four. */
export function keyText(key: Uint8Array) {
  return encodeBase32UpperCaseNoPadding(key).replace(/(.{4})(?=.)/g, '$1 ')
}

export function keyFromText(text: string) {
  return decodeBase32IgnorePadding(text.replace(/\s+/g, '').toUpperCase())
}

/** The key sealed for the user row. */
export function sealKey(key: Uint8Array) {
  return sealAtRest(encodeBase32UpperCaseNoPadding(key))
}

export function openKey(sealed: string) {
  return keyFromText(openAtRest(sealed))
}

/** Whose set-up a key is: the enrolment form's key opens for this account's session only. */
export type EnrolmentHolder = { organizationId: string; userId: string; sessionId: string }

const enrolmentBinding = (holder: EnrolmentHolder): FormSealBinding => ({
  purpose: 'two-factor-enrolment',
  organizationId: holder.organizationId,
  userId: holder.userId,
  sessionId: holder.sessionId,
})

/** The key a set-up form carries: sealed for this account, this session and enrolment only. */
export function sealEnrolmentKey(key: Uint8Array, holder: EnrolmentHolder) {
  return sealForForm(encodeBase32UpperCaseNoPadding(key), enrolmentBinding(holder))
}

/** The key the form carried, if it was sealed for this holder; otherwise a SecretBoxError. */
export function openEnrolmentKey(sealed: string, holder: EnrolmentHolder) {
  return keyFromText(openFromForm(sealed, enrolmentBinding(holder)))
}

export async function enrolmentOf(
  key: Uint8Array,
  issuer: string,
  accountName: string,
  holder: EnrolmentHolder,
) {
  const uri = createTOTPKeyURI(issuer, accountName, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS)
  // An SVG drawn on the server: no script, and the key never reaches a third-party service.
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
  return { uri, qrSvg, keyText: keyText(key), sealedKey: sealEnrolmentKey(key, holder) }
}

export function codeMatches(key: Uint8Array, code: string) {
  return verifyTOTPWithGracePeriod(key, TOTP_PERIOD_SECONDS, TOTP_DIGITS, code, GRACE_SECONDS)
}

/** A recovery code as shown: ten base32 characters in two groups ("abcde-fghij"). */
function newRecoveryCode() {
  const bytes = new Uint8Array(7)
  crypto.getRandomValues(bytes)
  const text = encodeBase32LowerCaseNoPadding(bytes).slice(0, 10)
  return `${text.slice(0, 5)}-${text.slice(5)}`
}

/** Typed codes match however they are spaced or cased. */
export function hashRecoveryCode(code: string) {
  const normal = code.toLowerCase().replace(/[^a-z2-7]/g, '')
  return encodeHexLowerCase(sha256(new TextEncoder().encode(`recovery:${normal}`)))
}

export function newRecoveryCodes() {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  return { codes, hashes: codes.map(hashRecoveryCode) }
}

// ── Operations ────────────────────────────────────────────────────────────────────────

/** Every code attempt (sign-in step, enrolment, turning off) is limited per account and address. */
export async function countAttempt(tenant: Pick<Tenant, 'id'>, userId: string, clientIp: string) {
  await withDatabase(async (tx) => {
    await hitOrRefuseIn(tx, 'twoFactorAccount', limitKey('twoFactorAccount', tenant.id, userId))
    await hitOrRefuseIn(tx, 'twoFactorIp', addressLimitKey('twoFactorIp', clientIp))
  })
}

/** The sign-in step with the authenticator's code: the completed sign-in, or false. */
export async function passWithCode(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  sessionId: string,
  code: string,
  clientIp: string,
) {
  await countAttempt(tenant, user.id, clientIp)
  if (!user.totpKeySealed || !codeMatches(openKey(user.totpKeySealed), code)) return false
  return withTenant(tenant.id, (tx) => completeSecondStep(tx, tenant.id, user.id, sessionId))
}

/** The sign-in step with a recovery code, which works once: the completed sign-in, or false. */
export async function passWithRecoveryCode(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  sessionId: string,
  recoveryCode: string,
  clientIp: string,
) {
  await countAttempt(tenant, user.id, clientIp)
  return withTenant(tenant.id, async (tx) => {
    const hash = hashRecoveryCode(recoveryCode)
    if (!(await consumeRecoveryCode(tx, tenant.id, user.id, hash))) return false
    const completed = await completeSecondStep(tx, tenant.id, user.id, sessionId)
    const left = (await findUserById(tx, tenant.id, user.id))?.recoveryCodeHashes.length ?? 0
    await recordAccountAudit(tx, tenant.id, user.id, 'two_factor.recovery_code_used', {
      codesLeft: left,
    })
    return completed
  })
}

/**
 * Confirms an enrolment: the code must come from the key the form carried, sealed by us for this
 * account, this session and enrolment (ADR 054), so it is a key this server made for them.
 * Stores the key and ten recovery codes, marks the session as past its second step, and returns
 * the codes, shown once.
 */
export async function confirmEnrolment(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  sessionId: string,
  input: { sealedKey: string; code: string },
  clientIp: string,
) {
  await countAttempt(tenant, user.id, clientIp)
  let key: Uint8Array
  try {
    key = openEnrolmentKey(input.sealedKey, {
      organizationId: tenant.id,
      userId: user.id,
      sessionId,
    })
  } catch {
    throw new Refusal('invalid', SET_UP_EXPIRED_MESSAGE)
  }
  if (!codeMatches(key, input.code))
    throw new Refusal('invalid', WRONG_CODE_MESSAGE, { field: 'code' })
  const recovery = newRecoveryCodes()
  await withTenant(tenant.id, async (tx) => {
    await setTwoFactor(tx, tenant.id, user.id, {
      totpKeySealed: sealKey(key),
      recoveryCodeHashes: recovery.hashes,
    })
    await completeSecondStep(tx, tenant.id, user.id, sessionId)
    await recordAccountAudit(tx, tenant.id, user.id, 'two_factor.enabled')
  })
  return recovery.codes
}

export async function regenerateRecoveryCodes(tenant: Pick<Tenant, 'id'>, user: User) {
  if (!user.totpKeySealed) throw new Refusal('invalid', 'Set up an authenticator app first.')
  const recovery = newRecoveryCodes()
  await withTenant(tenant.id, async (tx) => {
    await setRecoveryCodes(tx, tenant.id, user.id, recovery.hashes)
    await recordAccountAudit(tx, tenant.id, user.id, 'two_factor.recovery_codes_regenerated')
  })
  return recovery.codes
}

/**
 * Turns the authenticator off after a current code; refused while it is required and it is the
 * account's only second factor (a passkey stays one).
 */
export async function disableTwoFactor(
  tenant: Pick<Tenant, 'id' | 'kind'>,
  user: User,
  code: string,
  clientIp: string,
) {
  if ((await twoFactorRequired(tenant, user)) && !(await hasPasskey(tenant, user.id))) {
    throw new Refusal('forbidden', REQUIRED_MESSAGE)
  }
  await countAttempt(tenant, user.id, clientIp)
  await withTenant(tenant.id, async (tx) => {
    if (!user.totpKeySealed || !codeMatches(openKey(user.totpKeySealed), code)) {
      throw new Refusal('invalid', WRONG_CODE_MESSAGE, { field: 'code' })
    }
    await clearTwoFactor(tx, tenant.id, user.id)
    await recordAccountAudit(tx, tenant.id, user.id, 'two_factor.disabled')
  })
}
