// /dashboard/agency/sso (issue 42 point 1, ADR 088): the agency admin's identity providers and
// email domains. One guard, the agency admin on the agency's own host, for the page and every
// intent; the operations are ./manage-sso.server.ts's and ./sso-sign-in.server.ts's.
import type { AppLoadContext } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { requireAgencyStaff } from '#app/auth/guards.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import {
  SSO_CALLBACK_PATH,
  SSO_JIT_ROLE_LABELS,
  SSO_JIT_ROLES,
  SSO_PATH,
  SsoSettingsSchema,
} from '#app/validation/sso'
import { saveSamlProvider, serviceProviderValues } from './manage-saml.server'
import {
  claimSsoDomain,
  readSsoSettings,
  removeSsoDomain,
  removeSsoProvider,
  saveOidcProvider,
  setSsoDomainEnforcement,
  verifySsoDomain,
} from './manage-sso.server'
import { startSsoTest } from './sso-sign-in.server'

const guard = (request: Request, context: AppLoadContext) =>
  requireAgencyStaff(request, context, { manage: true })

/** The redirect URIs to register at the provider: the subdomain's, and the custom domain's. */
function redirectUris(tenant: Tenant) {
  const uris = [`${tenantOrigin({ ...tenant, customDomain: null, via: null })}${SSO_CALLBACK_PATH}`]
  if (tenant.customDomain)
    uris.push(`${tenantOrigin({ ...tenant, via: null })}${SSO_CALLBACK_PATH}`)
  return uris
}

export async function ssoSettingsLoader(request: Request, context: AppLoadContext) {
  const { tenant } = await guard(request, context)
  const settings = await readSsoSettings(tenant.id)
  return {
    ...settings,
    // What each SAML provider's IdP must be told: entity id, ACS URLs, metadata URL (ADR 090).
    serviceProviders: Object.fromEntries(
      settings.providers
        .filter((provider) => provider.kind === 'saml')
        .map((provider) => [provider.id, serviceProviderValues(tenant, provider.id)]),
    ),
    redirectUris: redirectUris(tenant),
    roles: SSO_JIT_ROLES.map((role) => ({ value: role, label: SSO_JIT_ROLE_LABELS[role] })),
  }
}

export async function ssoSettingsAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => guard(request, context),
    schema: SsoSettingsSchema,
    // The secret typed is never sent back into the page.
    hideFields: ['clientSecret'],
    redirectTo: SSO_PATH,
    intents: {
      'add-provider': async (value, actor) => saveOidcProvider(actor, value),
      'edit-provider': async (value, actor) => saveOidcProvider(actor, value),
      'add-saml-provider': async (value, actor) => saveSamlProvider(actor, value),
      'edit-saml-provider': async (value, actor) => saveSamlProvider(actor, value),
      'remove-provider': async ({ providerId }, actor) => removeSsoProvider(actor, providerId),
      'test-provider': async ({ providerId }, { tenant, user }) => {
        const started = await startSsoTest(tenant, user.id, providerId)
        return { redirectTo: started.url, headers: { 'Set-Cookie': started.cookie } }
      },
      'claim-domain': async ({ providerId, domain }, actor) =>
        claimSsoDomain(actor, providerId, domain),
      'verify-domain': async ({ domainId }, actor) => verifySsoDomain(actor, domainId),
      'enforce-domain': async ({ domainId, enforced }, actor) =>
        setSsoDomainEnforcement(actor, domainId, enforced),
      'remove-domain': async ({ domainId }, actor) => removeSsoDomain(actor, domainId),
    },
  })
}
