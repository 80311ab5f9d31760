// Passkeys (WebAuthn) as a second way to pass the sign-in's second step (ADR 045, Passkeys),
// with @simplewebauthn/server. The relying party is the host the person is on (each tenant's
// subdomain or custom domain is its own RP ID), named after the tenant. Each ceremony's
// challenge is kept on the session that asked for it, used once and refused after 5 minutes:
// the challenge a browser sends back is only compared with ours, never trusted.
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server'
import { recordAccountAudit } from '#app/models/audit.server'
import {
  consumeSessionChallenge,
  deletePasskey,
  findUserPasskey,
  insertPasskey,
  listPasskeys,
  recordPasskeyUse,
  renamePasskey,
  setSessionChallenge,
} from '#app/models/passkeys.server'
import type { User } from '#app/models/users.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { en } from '#app/utils/i18n/catalogue-en'
import { withTenant } from '#drizzle/db.server'
import { completeSecondStep } from './sign-in-completion.server'
import { countAttempt, REQUIRED_MESSAGE, twoFactorRequired } from './two-factor.server'

// Loaded on the first ceremony, not with the server: otherwise every process would hold the
// library and its certificate parsers in its heap for a sign-in step few take (ADR 114).
const webauthn = () => import('@simplewebauthn/server')

const CHALLENGE_TTL_MS = 5 * 60_000

// Home: the English catalogue, which the sign-in's step translates (ADR 105).
export const PASSKEY_FAILED_MESSAGE = en['passkey.failed']
export const PASSKEY_EXPIRED_MESSAGE = en['passkey.expired']

type Purpose = 'register' | 'authenticate'

/**
 * The origin and RP ID a ceremony is bound to: the page's own origin. server.ts refuses every
 * POST whose Origin is not this host's, so the header is already checked when it reaches here.
 */
export function relyingPartyOf(request: Request) {
  const origin = request.headers.get('origin') ?? new URL(request.url).origin
  return { origin, rpID: new URL(origin).hostname }
}

function uuidBytes(id: string) {
  return Uint8Array.from(Buffer.from(id.replace(/-/g, ''), 'hex'))
}

async function keepChallenge(
  tenant: Pick<Tenant, 'id'>,
  sessionId: string,
  purpose: Purpose,
  challenge: string,
) {
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS)
  await withTenant(tenant.id, (tx) =>
    setSessionChallenge(tx, tenant.id, sessionId, `${purpose}:${challenge}`, expiresAt),
  )
}

/** The challenge the browser signed, if it is this session's unexpired one (then used up). */
async function takeChallenge(
  tenant: Pick<Tenant, 'id'>,
  sessionId: string,
  purpose: Purpose,
  clientDataJSON: string,
) {
  let challenge: string
  try {
    challenge = (await import('@simplewebauthn/server/helpers')).decodeClientDataJSON(
      clientDataJSON,
    ).challenge
  } catch {
    throw new Refusal('invalid', PASSKEY_FAILED_MESSAGE)
  }
  if (typeof challenge !== 'string' || !challenge)
    throw new Refusal('invalid', PASSKEY_FAILED_MESSAGE)
  const taken = await withTenant(tenant.id, (tx) =>
    consumeSessionChallenge(tx, tenant.id, sessionId, `${purpose}:${challenge}`),
  )
  if (!taken) throw new Refusal('invalid', PASSKEY_EXPIRED_MESSAGE)
  return challenge
}

/** The browser's credential, as JSON text from the form; anything else is a refusal. */
function parseCredential<T>(json: string): T {
  try {
    const value = JSON.parse(json)
    if (
      !value ||
      typeof value !== 'object' ||
      typeof value.id !== 'string' ||
      typeof value.response?.clientDataJSON !== 'string'
    ) {
      throw new Error('not a credential')
    }
    return value as T
  } catch {
    throw new Refusal('invalid', PASSKEY_FAILED_MESSAGE)
  }
}

export async function passkeysOf(tenant: Pick<Tenant, 'id'>, userId: string) {
  return withTenant(tenant.id, (tx) => listPasskeys(tx, tenant.id, userId))
}

/** Whether the account has no second factor yet: the sign-in step is its enrolment. */
export async function owesEnrolment(tenant: Pick<Tenant, 'id'>, user: User) {
  return !user.totpKeySealed && (await passkeysOf(tenant, user.id)).length === 0
}

/** The session passed its second step (a passkey enrolled at sign-in). */
export async function markVerified(tenant: Pick<Tenant, 'id'>, userId: string, sessionId: string) {
  return withTenant(tenant.id, (tx) => completeSecondStep(tx, tenant.id, userId, sessionId))
}

// ── Adding one (the Security area, or enrolment at sign-in) ────────────────────────────────────────────────────

export async function registrationOptions(
  tenant: Pick<Tenant, 'id' | 'name'>,
  user: User,
  sessionId: string,
  request: Request,
) {
  const { rpID } = relyingPartyOf(request)
  const existing = await passkeysOf(tenant, user.id)
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: tenant.name,
    rpID,
    userName: user.email,
    userID: uuidBytes(user.id),
    userDisplayName: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email,
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({
      id: key.credentialId,
      transports: key.transports,
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  })
  await keepChallenge(tenant, sessionId, 'register', options.challenge)
  return options
}

export async function addPasskey(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  sessionId: string,
  request: Request,
  input: { credential: string; name: string },
) {
  const response = parseCredential<RegistrationResponseJSON>(input.credential)
  const challenge = await takeChallenge(
    tenant,
    sessionId,
    'register',
    response.response.clientDataJSON,
  )
  const { origin, rpID } = relyingPartyOf(request)
  let verification: VerifiedRegistrationResponse
  try {
    verification = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      // The password came first: presence is the second factor; a PIN or a finger is welcome.
      requireUserVerification: false,
    })
  } catch {
    throw new Refusal('invalid', PASSKEY_FAILED_MESSAGE)
  }
  if (!verification.verified || !verification.registrationInfo) {
    throw new Refusal('invalid', PASSKEY_FAILED_MESSAGE)
  }
  const { credential } = verification.registrationInfo
  await withTenant(tenant.id, async (tx) => {
    const row = await insertPasskey(tx, tenant.id, user.id, {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name,
    })
    if (!row) throw new Refusal('invalid', en['passkey.alreadyAdded'])
    await recordAccountAudit(tx, tenant.id, user.id, 'two_factor.passkey_added', {
      name: input.name,
    })
  })
}

export async function renameUserPasskey(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  passkeyId: string,
  name: string,
) {
  const renamed = await withTenant(tenant.id, (tx) =>
    renamePasskey(tx, tenant.id, user.id, passkeyId, name),
  )
  if (!renamed) throw new Refusal('not_found', 'That passkey was not found.')
}

/** Removes a passkey; refused when it is the account's last second factor and one is required. */
export async function removePasskey(
  tenant: Pick<Tenant, 'id' | 'kind'>,
  user: User,
  passkeyId: string,
) {
  const required = await twoFactorRequired(tenant, user)
  await withTenant(tenant.id, async (tx) => {
    const keys = await listPasskeys(tx, tenant.id, user.id)
    if (!keys.some((key) => key.id === passkeyId)) {
      throw new Refusal('not_found', 'That passkey was not found.')
    }
    if (required && !user.totpKeySealed && keys.length === 1) {
      throw new Refusal('forbidden', REQUIRED_MESSAGE)
    }
    const removed = await deletePasskey(tx, tenant.id, user.id, passkeyId)
    if (!removed) throw new Refusal('not_found', 'That passkey was not found.')
    await recordAccountAudit(tx, tenant.id, user.id, 'two_factor.passkey_removed', {
      name: removed.name,
    })
  })
}

// ── Using one (the sign-in's second step) ─────────────────────────────────────────────

export async function authenticationOptions(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  sessionId: string,
  request: Request,
) {
  const { rpID } = relyingPartyOf(request)
  const keys = await passkeysOf(tenant, user.id)
  if (keys.length === 0) throw new Refusal('invalid', en['passkey.none'])
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID,
    allowCredentials: keys.map((key) => ({ id: key.credentialId, transports: key.transports })),
    userVerification: 'preferred',
  })
  await keepChallenge(tenant, sessionId, 'authenticate', options.challenge)
  return options
}

/** The sign-in step with a passkey: the completed sign-in, or false. Counted like a code attempt. */
export async function passWithPasskey(
  tenant: Pick<Tenant, 'id'>,
  user: User,
  sessionId: string,
  request: Request,
  credentialJSON: string,
  clientIp: string,
) {
  await countAttempt(tenant, user.id, clientIp)
  const response = parseCredential<AuthenticationResponseJSON>(credentialJSON)
  const challenge = await takeChallenge(
    tenant,
    sessionId,
    'authenticate',
    response.response.clientDataJSON,
  )
  const key = await withTenant(tenant.id, (tx) =>
    findUserPasskey(tx, tenant.id, user.id, response.id),
  )
  if (!key) return false
  const { origin, rpID } = relyingPartyOf(request)
  let verification: VerifiedAuthenticationResponse
  try {
    verification = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: key.credentialId,
        publicKey: new Uint8Array(key.publicKey),
        counter: key.counter,
        transports: key.transports,
      },
      requireUserVerification: false,
    })
  } catch {
    return false
  }
  if (!verification.verified) return false
  return withTenant(tenant.id, async (tx) => {
    await recordPasskeyUse(tx, tenant.id, key.id, verification.authenticationInfo.newCounter)
    const completed = await completeSecondStep(tx, tenant.id, user.id, sessionId)
    await recordAccountAudit(tx, tenant.id, user.id, 'two_factor.passkey_used', { name: key.name })
    return completed
  })
}
