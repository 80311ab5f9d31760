// A SAML provider's service-provider metadata, for the agency's IdP to import (ADR 090).
import type { LoaderFunctionArgs } from '@remix-run/node'
import { samlMetadataLoader } from '#app/sso/saml-route.server'

export const loader = ({ context, params }: LoaderFunctionArgs) =>
  samlMetadataLoader(context, params.providerId)
