// The SAML assertion consumer service (ADR 090): the IdP's page posts its answer here; the
// outcome goes on to /auth/sso/callback, which shows it. A resource route: no page of its own.
import type { ActionFunctionArgs } from '@remix-run/node'
import { samlAcsAction, samlAcsLoader } from '#app/sso/saml-route.server'

export const loader = samlAcsLoader

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  samlAcsAction(request, context, params.providerId)
