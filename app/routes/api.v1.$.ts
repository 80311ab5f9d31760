// The REST API for an agency's integrations (app/api/api-route.server.ts, ADR 092): every method
// of /api/v1/…, bearer key only, and the OpenAPI document at /api/v1/openapi.json. Exempt from
// the Origin check (app/auth/origin.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { apiAction, apiLoader } from '#app/api/api-route.server'

export const loader = ({ request, context }: LoaderFunctionArgs) => apiLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => apiAction(request, context)
