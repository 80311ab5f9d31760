// "Sign in with SSO" (issue 42 point 1, ADR 088): the address's domain picks the agency's
// verified provider; an authorization code flow with PKCE, whose state, nonce and verifier wait
// in a short-lived cookie sealed for this purpose and this agency; the callback checks them,
// then signs the person in to THIS agency: their account, or one made just in time with the role
// the admin chose. The sign-in counts as two factors when the provider's `amr` says it asked for
// more than a password; otherwise the account's own second factor is still asked (ADR 045).
// The admin's "Test connection" runs the same flow and shows the claims, signing nobody in.
import { unknowablePassword } from '#app/auth/created-account.server'
import { hashPassword } from '#app/auth/password.server'
import { createSession } from '#app/auth/session.server'
import { pendingDeletionAtSignIn } from '#app/auth/sign-in-completion.server'
import { SIGN_IN_STEP_PATHS } from '#app/auth/sign-in-steps'
import { secondStepOwed } from '#app/auth/two-factor.server'
import { assertStaffSeat } from '#app/billing/plan-limits.server'
import { recordAudit } from '#app/models/audit.server'
import {
  findSsoProvider,
  findVerifiedSsoDomain,
  hasSsoSignIn,
  type SsoProvider,
} from '#app/models/sso.server'
import { createUser, findUserByEmail, type User } from '#app/models/users.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { isUniqueViolation } from '#app/utils/db-errors.server'
import { OutsideCallError } from '#app/utils/outside-call.server'
import {
  type CookieSealPurpose,
  openAtRest,
  openFromCookie,
  SecretBoxError,
  sealForCookie,
} from '#app/utils/secret-box.server'
import { NAME_MAX_LENGTH } from '#app/validation/names'
import { rolePaths } from '#app/validation/roles'
import {
  amrSaysMultiFactor,
  emailDomain,
  SSO_CALLBACK_PATH,
  SSO_MESSAGES,
} from '#app/validation/sso'
import { withTenant } from '#drizzle/db.server'
import {
  authorizationUrl,
  discoverProvider,
  exchangeCode,
  newAttempt,
  type OidcAttempt,
  type OidcClaims,
  OidcDiscoveryError,
  OidcExchangeError,
} from './oidc.server'
import { roundTripCookie } from './round-trip-cookie.server'
import type { SamlIdentity } from './saml.server'
import { beginSamlAttempt, readSamlAnswer } from './saml-sign-in.server'

/** How long a started sign-in may take at the provider. */
export const SSO_FLOW_MINUTES = 10

const flowCookie = roundTripCookie('sso-flow')

export const ssoFlowCookieName = flowCookie.name

/** The flow cookie cleared: a callback uses it once, whatever its outcome. */
export const clearedFlowCookie = () => flowCookie.set('', 0)

/** A SAML attempt remembers the AuthnRequest its answer must name (ADR 090). */
type SamlAttempt = { protocol: 'saml'; requestId: string }

type Flow = ((OidcAttempt & { protocol?: 'oidc' }) | SamlAttempt) & {
  providerId: string
  /** Where a signed-in person lands (a safe path), if the sign-in page had one. */
  redirectTo: string | null
}

/** The callback's URL on the host the person is on (subdomain or custom domain). */
function callbackUrl(tenant: Tenant) {
  const origin = new URL(tenantOrigin(tenant))
  origin.hostname = tenant.host
  return `${origin.origin}${SSO_CALLBACK_PATH}`
}

function providerClient(provider: SsoProvider) {
  if (provider.kind !== 'oidc' || !provider.issuerUrl || !provider.clientId) {
    throw new Refusal('invalid', SSO_MESSAGES.providerDisabled)
  }
  return {
    issuerUrl: provider.issuerUrl,
    clientId: provider.clientId,
    clientSecret: openAtRest(provider.clientSecretSealed ?? ''),
  }
}

async function begin(
  tenant: Tenant,
  provider: SsoProvider,
  purpose: CookieSealPurpose,
  userId: string | null,
  extra: { redirectTo: string | null; loginHint?: string },
) {
  const seal = (flow: Flow) => {
    const expiresAt = new Date(Date.now() + SSO_FLOW_MINUTES * 60_000)
    const sealed = sealForCookie(
      JSON.stringify(flow),
      { purpose, organizationId: tenant.id, userId },
      expiresAt,
    )
    // The purpose travels in front of the sealed value; it is also bound inside it, so changing
    // it only makes the value fail to open.
    return flowCookie.set(`${purpose}~${sealed}`, SSO_FLOW_MINUTES * 60)
  }
  if (provider.kind === 'saml') {
    const { url, requestId } = await beginSamlAttempt(tenant, provider)
    const flow: Flow = {
      protocol: 'saml',
      requestId,
      providerId: provider.id,
      redirectTo: extra.redirectTo,
    }
    return { url, cookie: seal(flow) }
  }
  let config: Awaited<ReturnType<typeof discoverProvider>>
  try {
    config = await discoverProvider(providerClient(provider))
  } catch (error) {
    if (error instanceof OidcDiscoveryError || error instanceof OutsideCallError) {
      throw new Refusal('provider_failed', SSO_MESSAGES.idpFailed)
    }
    throw error
  }
  const attempt = newAttempt(callbackUrl(tenant))
  const flow: Flow = { ...attempt, providerId: provider.id, redirectTo: extra.redirectTo }
  const url = await authorizationUrl(config, attempt, extra.loginHint)
  return { url: url.href, cookie: seal(flow) }
}

/**
 * Starts "Sign in with SSO" for an address: its domain must be verified by this agency for an
 * enabled provider, else the field says single sign-on is not set up for it.
 */
export async function startSsoSignIn(tenant: Tenant, email: string, redirectTo: string | null) {
  const claim = await withTenant(tenant.id, (tx) =>
    findVerifiedSsoDomain(tx, tenant.id, emailDomain(email)),
  )
  if (!claim?.provider.enabled) {
    throw new Refusal('invalid', SSO_MESSAGES.noProviderForEmail, { field: 'email' })
  }
  return begin(tenant, claim.provider, 'sso-sign-in', null, {
    redirectTo,
    loginHint: email.trim().toLowerCase(),
  })
}

/**
 * Whether the sign-in page offers "Sign in with SSO": some address here can use it. The sign-in
 * page read nothing of the database before (the tenant is cached), so while the database is
 * unreachable it still renders, without the link, rather than answering 503 for a link.
 */
export async function offersSsoSignIn(tenant: Tenant) {
  if (tenant.kind !== 'agency') return false
  try {
    return await withTenant(tenant.id, (tx) => hasSsoSignIn(tx, tenant.id))
  } catch {
    return false
  }
}

/** The admin's "Test connection": the same flow, bound to the admin who started it. */
export async function startSsoTest(tenant: Tenant, adminUserId: string, providerId: string) {
  const provider = await withTenant(tenant.id, (tx) => findSsoProvider(tx, tenant.id, providerId))
  if (!provider) throw new Refusal('not_found', SSO_MESSAGES.providerNotFound)
  return begin(tenant, provider, 'sso-test', adminUserId, { redirectTo: null })
}

/** What the callback found. */
export type SsoOutcome =
  | { kind: 'refused'; message: string }
  | { kind: 'tested'; providerName: string; claims: OidcClaims; verdict: string }
  | {
      kind: 'signed-in'
      user: User
      cookie: string
      redirectTo: string
      twoFactorVerified: boolean
      deletionPending: Date | null
      created: boolean
    }

/** The flow this browser started, if its cookie opens for this purpose, agency and user. */
function readFlow(
  request: Request,
  tenant: Tenant,
  signedInUserId: string | null,
): { purpose: CookieSealPurpose; flow: Flow } | null {
  const raw = flowCookie.read(request)
  if (!raw) return null
  const [purpose, sealed] = raw.split('~')
  if ((purpose !== 'sso-sign-in' && purpose !== 'sso-test') || !sealed) return null
  const userId = purpose === 'sso-test' ? signedInUserId : null
  if (purpose === 'sso-test' && !userId) return null
  try {
    const opened = openFromCookie(sealed, { purpose, organizationId: tenant.id, userId })
    return { purpose, flow: JSON.parse(opened) as Flow }
  } catch (error) {
    if (error instanceof SecretBoxError || error instanceof SyntaxError) return null
    throw error
  }
}

function emailOf(claims: OidcClaims): string | null {
  // A provider that says it has not verified the address is not trusted with it.
  if (claims.email_verified === false || claims.email_verified === 'false') return null
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : ''
  return email.includes('@') ? email : null
}

function namesOf(claims: OidcClaims) {
  const text = (value: unknown) =>
    typeof value === 'string' ? value.trim().slice(0, NAME_MAX_LENGTH.namePart) : ''
  let firstName = text(claims.given_name)
  let lastName = text(claims.family_name)
  if (!firstName && !lastName) {
    const [first = '', ...rest] = text(claims.name).split(/\s+/)
    firstName = first
    lastName = rest.join(' ')
  }
  return { firstName, lastName }
}

/**
 * The provider's answer to the callback: `search` is the callback's query. A state that is not
 * the one this browser's cookie holds is refused before anything is sent to the provider; a
 * nonce that does not match is refused by the ID token's check. Either way nobody is signed in.
 */
export async function finishSso(
  request: Request,
  tenant: Tenant,
  signedInUser: Pick<User, 'id' | 'role'> | null,
): Promise<SsoOutcome> {
  const adminId = signedInUser?.role === 'agency_admin' ? signedInUser.id : null
  const found = readFlow(request, tenant, adminId)
  if (!found) return { kind: 'refused', message: SSO_MESSAGES.flowExpired }
  const { purpose, flow } = found
  const provider = await withTenant(tenant.id, (tx) =>
    findSsoProvider(tx, tenant.id, flow.providerId),
  )
  if (!provider || (purpose === 'sso-sign-in' && !provider.enabled)) {
    return { kind: 'refused', message: SSO_MESSAGES.providerDisabled }
  }
  if (flow.protocol === 'saml') {
    // The ACS checked the response; the answer must be to this browser's own request.
    const answer = readSamlAnswer(request, tenant, flow)
    if (!answer) return { kind: 'refused', message: SSO_MESSAGES.flowMismatch }
    if ('refused' in answer) return { kind: 'refused', message: answer.refused }
    return conclude(tenant, provider, purpose, samlClaims(answer.identity), flow.redirectTo)
  }
  const search = new URL(request.url).searchParams
  if (search.get('state') !== flow.state) {
    return { kind: 'refused', message: SSO_MESSAGES.flowMismatch }
  }
  if (search.has('error')) return { kind: 'refused', message: SSO_MESSAGES.idpError }
  let claims: OidcClaims
  try {
    const config = await discoverProvider(providerClient(provider))
    claims = await exchangeCode(config, flow, search)
  } catch (error) {
    if (error instanceof OidcExchangeError) {
      // Not this attempt's ID token (its nonce): the same answer as a state that is not ours.
      const message = error.mismatch ? SSO_MESSAGES.flowMismatch : SSO_MESSAGES.idpError
      return { kind: 'refused', message }
    }
    if (error instanceof OidcDiscoveryError || error instanceof OutsideCallError) {
      return { kind: 'refused', message: SSO_MESSAGES.idpFailed }
    }
    throw error
  }
  return conclude(tenant, provider, purpose, claims, flow.redirectTo)
}

/**
 * A SAML identity as the claims an OIDC provider would send: a verified address (the agency has
 * proven its domain, the IdP signed it), the names, `amr` saying whether the IdP asked for more
 * than a password, and every attribute, for the admin's test to show.
 */
function samlClaims(identity: SamlIdentity): OidcClaims {
  return {
    ...Object.fromEntries(
      Object.entries(identity.attributes).map(([name, values]) => [
        name,
        values.length === 1 ? values[0] : values,
      ]),
    ),
    sub: identity.nameId,
    email: identity.email,
    email_verified: true,
    ...(identity.firstName ? { given_name: identity.firstName } : {}),
    ...(identity.lastName ? { family_name: identity.lastName } : {}),
    amr: identity.multiFactor ? ['mfa'] : ['pwd'],
  } as OidcClaims
}

/** Either protocol's claims: the admin's test shows them; a sign-in signs in. */
async function conclude(
  tenant: Tenant,
  provider: SsoProvider,
  purpose: CookieSealPurpose,
  claims: OidcClaims,
  redirectTo: string | null,
): Promise<SsoOutcome> {
  const check = await checkClaims(tenant, provider, claims)
  if (purpose === 'sso-test') {
    return {
      kind: 'tested',
      providerName: provider.displayName,
      claims,
      verdict: 'refused' in check ? check.refused : `${check.email} would sign in here.`,
    }
  }
  if ('refused' in check) return { kind: 'refused', message: check.refused }
  return signIn(tenant, provider, check.email, claims, redirectTo)
}

/**
 * Whether the claims may sign someone in to this agency: a verified address whose domain this
 * agency has verified for this very provider. An address of another agency's domain (an
 * account there, or a provider asserting a name it does not own here) is refused.
 */
async function checkClaims(
  tenant: Tenant,
  provider: SsoProvider,
  claims: OidcClaims,
): Promise<{ email: string } | { refused: string }> {
  const email = emailOf(claims)
  if (!email) return { refused: SSO_MESSAGES.emailMissing }
  const claim = await withTenant(tenant.id, (tx) =>
    findVerifiedSsoDomain(tx, tenant.id, emailDomain(email)),
  )
  if (claim?.provider.id !== provider.id) return { refused: SSO_MESSAGES.emailNotCovered }
  return { email }
}

async function signIn(
  tenant: Tenant,
  provider: SsoProvider,
  email: string,
  claims: OidcClaims,
  redirectTo: string | null,
): Promise<SsoOutcome> {
  const account = await accountFor(tenant, provider, email, claims)
  if ('refused' in account) return { kind: 'refused', message: account.refused }
  const { user, created } = account
  if (user.status !== 'active') return { kind: 'refused', message: SSO_MESSAGES.accountInactive }
  // The provider asked for more than a password: that is the second factor (ADR 088).
  const twoFactorVerified = amrSaysMultiFactor(claims.amr) || !(await secondStepOwed(tenant, user))
  const session = await createSession(tenant.id, user.id, { twoFactorVerified })
  const deletionPending = twoFactorVerified
    ? await withTenant(tenant.id, (tx) => pendingDeletionAtSignIn(tx, tenant.id, user.id))
    : null
  return {
    kind: 'signed-in',
    user,
    cookie: session.cookie,
    twoFactorVerified,
    deletionPending,
    created,
    redirectTo: twoFactorVerified
      ? (redirectTo ?? rolePaths(user.role).dashboard)
      : SIGN_IN_STEP_PATHS['two-factor'],
  }
}

/**
 * The agency's account for the address, or one made now with the provider's role: a staff role
 * takes one of the plan's staff seats (ADR 051), as every other way in does, so a full plan
 * refuses the new person (and says so) rather than growing past what the agency pays for.
 */
async function accountFor(
  tenant: Tenant,
  provider: SsoProvider,
  email: string,
  claims: OidcClaims,
): Promise<{ user: User; created: boolean } | { refused: string }> {
  const existing = await withTenant(tenant.id, (tx) => findUserByEmail(tx, tenant.id, email))
  if (existing) return { user: existing, created: false }
  // Nobody knows this password: the account signs in by SSO (or sets one by reset, where allowed).
  const passwordHash = await hashPassword(unknowablePassword())
  try {
    const user = await withTenant(tenant.id, async (tx) => {
      if (provider.jitRole !== 'end_user') await assertStaffSeat(tx, tenant.id)
      const made = await createUser(tx, tenant.id, {
        email,
        passwordHash,
        role: provider.jitRole,
        ...namesOf(claims),
        // The provider vouches for the address, and the agency has proven the domain.
        emailConfirmedAt: new Date(),
      })
      await recordAudit(tx, tenant.id, {
        actorUserId: made.id,
        action: 'sso.account_created',
        entityType: 'user',
        entityId: made.id,
        metadata: { providerId: provider.id, provider: provider.displayName, role: made.role },
      })
      return made
    })
    return { user, created: true }
  } catch (error) {
    if (error instanceof Refusal && error.code === 'conflict') {
      await recordSeatRefusal(tenant, provider, email)
      return { refused: SSO_MESSAGES.noSeat }
    }
    // The same person's two first sign-ins at once: the unique index keeps one account.
    if (!isUniqueViolation(error)) throw error
    const user = await withTenant(tenant.id, (tx) => findUserByEmail(tx, tenant.id, email))
    if (!user) throw error
    return { user, created: false }
  }
}

/** The agency's admins learn from the audit log who was turned away for want of a seat. */
async function recordSeatRefusal(tenant: Tenant, provider: SsoProvider, email: string) {
  await withTenant(tenant.id, (tx) =>
    recordAudit(tx, tenant.id, {
      actorUserId: null,
      action: 'sso.account_refused',
      entityType: 'sso_provider',
      entityId: provider.id,
      metadata: { email, role: provider.jitRole, reason: 'no_staff_seat' },
    }),
  )
}
