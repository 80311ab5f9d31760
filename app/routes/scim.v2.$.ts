// SCIM 2.0 for the agency's identity provider (app/scim/scim-route.server.ts, ADR 089): every
// method of /scim/v2/…, bearer token only. Exempt from the Origin check (app/auth/origin.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { scimAction, scimLoader } from '#app/scim/scim-route.server'

export const loader = ({ request, context }: LoaderFunctionArgs) => scimLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => scimAction(request, context)
