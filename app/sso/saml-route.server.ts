// The SAML routes of single sign-on (issue 42 point 1, ADR 090): the service provider's metadata
// for the IdP to import, and the ACS the IdP posts its answer to. The flow is
// ./saml-sign-in.server.ts's; the callback that signs in is ./sso-route.server.ts's.
import { type AppLoadContext, redirect } from '@remix-run/node'
import { z } from 'zod'
import { findSsoProvider } from '#app/models/sso.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { SSO_CALLBACK_PATH, SSO_SIGN_IN_PATH } from '#app/validation/sso'
import { withTenant } from '#drizzle/db.server'
import { serviceProviderFor, serviceProviderValues } from './manage-saml.server'
import { serviceProviderMetadata } from './saml.server'
import { receiveSamlResponse } from './saml-sign-in.server'

const ProviderId = z.string().uuid()

const NO_STORE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }

/** The agency's SAML provider named by the path, or a plain 404. */
async function samlProviderOf(context: AppLoadContext, providerId: string | undefined) {
  const tenant = await requireTenant(context)
  const id = ProviderId.safeParse(providerId)
  const provider = id.success
    ? await withTenant(tenant.id, (tx) => findSsoProvider(tx, tenant.id, id.data))
    : undefined
  if (provider?.kind !== 'saml') throw new Response('Not Found', { status: 404 })
  return { tenant, provider }
}

/**
 * The SP metadata: the entity id, and one ACS per host the agency answers on (the subdomain's
 * first, the default), so an IdP that imports it knows both.
 */
export async function samlMetadataLoader(context: AppLoadContext, providerId: string | undefined) {
  const { tenant, provider } = await samlProviderOf(context, providerId)
  const values = serviceProviderValues(tenant, provider.id)
  const sp = serviceProviderFor(tenant, provider.id)
  let xml = await serviceProviderMetadata({
    entityId: values.entityId,
    acsUrl: values.acsUrls[0] ?? sp.acsUrl,
  })
  for (const [index, acsUrl] of values.acsUrls.slice(1).entries()) {
    xml = xml.replace(
      '</SPSSODescriptor>',
      `  <AssertionConsumerService index="${index + 2}" isDefault="false" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${acsUrl}"/>\n  </SPSSODescriptor>`,
    )
  }
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/samlmetadata+xml; charset=utf-8',
      'Content-Disposition': `inline; filename="sp-metadata-${provider.id}.xml"`,
      'Cache-Control': 'no-cache',
    },
  })
}

/**
 * The IdP's POST, answered with a redirect to the callback in every case: the outcome (who, or
 * why not) travels in a sealed cookie, and the callback, a page of the app, says it. A resource
 * route: Remix's own check of a document POST's Origin would refuse the IdP's (ADR 090).
 */
export async function samlAcsAction(
  request: Request,
  context: AppLoadContext,
  providerId: string | undefined,
) {
  const { tenant, provider } = await samlProviderOf(context, providerId)
  const form = await request.formData().catch(() => null)
  const posted = form?.get('SAMLResponse')
  const samlResponse =
    typeof posted === 'string' && posted.length > 0 && posted.length <= 2_000_000 ? posted : null
  const cookie = await receiveSamlResponse(tenant, provider.id, samlResponse)
  return redirect(SSO_CALLBACK_PATH, {
    status: 303,
    headers: { ...NO_STORE, 'Set-Cookie': cookie },
  })
}

/** A GET of the ACS (a bookmark, a back button): the sign-in page. */
export function samlAcsLoader() {
  return redirect(SSO_SIGN_IN_PATH)
}
