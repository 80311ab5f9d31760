// The SAML legs of "Sign in with SSO" (issue 42 point 1, ADR 090). Starting: an AuthnRequest to
// the IdP's sign-in URL, its id remembered in sso_saml_requests and in the browser's flow cookie
// (./sso-sign-in.server.ts seals it). The answer: the IdP's page posts the response to the ACS
// from its own site, a cross-site POST that carries no SameSite=Lax cookie, so the ACS checks the
// response alone (./saml.server.ts: signature, addressing, time window, and the request consumed
// once) and hands the identity on in a short-lived cookie sealed for that purpose; its redirect
// to the callback is a top-level GET, which carries both cookies, and the callback signs in only
// when the answer's request is the one this browser's flow started. A response stolen from one
// browser and posted from another opens no sign-in there.
import { findSsoProvider, type SsoProvider } from '#app/models/sso.server'
import {
  consumeSamlRequest,
  findSamlRequestCreatedAt,
  rememberSamlRequest,
} from '#app/models/sso-saml.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { openFromCookie, SecretBoxError, sealForCookie } from '#app/utils/secret-box.server'
import { SSO_MESSAGES } from '#app/validation/sso'
import { withTenant } from '#drizzle/db.server'
import { identityProviderOf, serviceProviderFor } from './manage-saml.server'
import { roundTripCookie } from './round-trip-cookie.server'
import {
  SAML_REQUEST_LIFETIME_MS,
  type SamlIdentity,
  type SamlRequestLedger,
  samlSignInUrl,
  verifySamlResponse,
} from './saml.server'

/** How long the ACS's answer waits for the callback: one redirect. */
const ANSWER_SECONDS = 120

const answerCookie = roundTripCookie('sso-saml')

export const clearedAnswerCookie = () => answerCookie.set('', 0)

/** The provider's requests, in this agency's database rows. */
function ledgerFor(tenant: Tenant, providerId: string): SamlRequestLedger {
  const organizationId = tenant.id
  return {
    remember: (id, createdAt) =>
      withTenant(organizationId, (tx) =>
        rememberSamlRequest(tx, organizationId, {
          id,
          providerId,
          createdAt,
          staleBefore: new Date(createdAt.getTime() - SAML_REQUEST_LIFETIME_MS),
        }),
      ),
    pendingSince: (id) =>
      withTenant(organizationId, (tx) =>
        findSamlRequestCreatedAt(tx, organizationId, providerId, id),
      ),
    consume: (id) =>
      withTenant(organizationId, (tx) =>
        consumeSamlRequest(tx, organizationId, providerId, {
          id,
          sentAfter: new Date(Date.now() - SAML_REQUEST_LIFETIME_MS),
        }),
      ),
  }
}

/** A new AuthnRequest for the provider: the IdP's URL to send the browser to, and its id. */
export async function beginSamlAttempt(tenant: Tenant, provider: SsoProvider) {
  const idp = identityProviderOf(provider)
  if (!idp) throw new Error('beginSamlAttempt: not a SAML provider')
  const ledger = ledgerFor(tenant, provider.id)
  let requestId = ''
  const url = await samlSignInUrl({
    sp: serviceProviderFor(tenant, provider.id),
    idp,
    ledger: {
      ...ledger,
      remember: async (id, createdAt) => {
        requestId = id
        await ledger.remember(id, createdAt)
      },
    },
    relayState: '',
  })
  if (!requestId) throw new Error('beginSamlAttempt: node-saml sent no request id')
  return { url, requestId }
}

/**
 * What the ACS passes on to the callback: who signed in, for which request; or why the answer
 * was refused (shown by the callback, which has the page around it).
 */
type Answer =
  | { providerId: string; requestId: string; identity: SamlIdentity }
  | { refused: string }

/**
 * The ACS: the response checked, and the outcome sealed for the callback in a cookie (the Set-
 * Cookie of the answer to a cross-site top-level POST is kept; the redirect's GET carries it).
 */
export async function receiveSamlResponse(
  tenant: Tenant,
  providerId: string,
  samlResponse: string | null,
): Promise<string> {
  const answer = await check(tenant, providerId, samlResponse)
  const sealed = sealForCookie(
    JSON.stringify(answer),
    { purpose: 'sso-saml-answer', organizationId: tenant.id, userId: null },
    new Date(Date.now() + ANSWER_SECONDS * 1000),
  )
  return answerCookie.set(sealed, ANSWER_SECONDS)
}

async function check(
  tenant: Tenant,
  providerId: string,
  samlResponse: string | null,
): Promise<Answer> {
  if (!samlResponse) return { refused: SAML_NO_ANSWER }
  const provider = await withTenant(tenant.id, (tx) => findSsoProvider(tx, tenant.id, providerId))
  const idp = provider && identityProviderOf(provider)
  if (!provider || !idp) return { refused: SSO_MESSAGES.providerDisabled }
  const verified = await verifySamlResponse({
    sp: serviceProviderFor(tenant, provider.id),
    idp,
    ledger: ledgerFor(tenant, provider.id),
    samlResponse,
  })
  if (!verified.ok) return { refused: verified.message }
  return { providerId: provider.id, requestId: verified.requestId, identity: verified.identity }
}

export const SAML_NO_ANSWER = 'The identity provider sent no answer'

/**
 * The outcome the ACS passed on: the identity, if it answers exactly this browser's request of
 * this provider; the refusal's reason; or a mismatch (no answer, expired, another request's).
 */
export function readSamlAnswer(
  request: Request,
  tenant: Tenant,
  expected: { providerId: string; requestId: string },
): { identity: SamlIdentity } | { refused: string } | null {
  const raw = answerCookie.read(request)
  if (!raw) return null
  let answer: Answer
  try {
    answer = JSON.parse(
      openFromCookie(raw, { purpose: 'sso-saml-answer', organizationId: tenant.id, userId: null }),
    ) as Answer
  } catch (error) {
    if (error instanceof SecretBoxError || error instanceof SyntaxError) return null
    throw error
  }
  if ('refused' in answer) return { refused: answer.refused }
  if (answer.providerId !== expected.providerId || answer.requestId !== expected.requestId) {
    return null
  }
  return { identity: answer.identity }
}
