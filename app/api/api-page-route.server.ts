// The agency's API screen, /dashboard/agency/api (issue 43 point 1, ADR 092): the keys (made
// with a name, scopes and an optional expiry, shown once; revoked at once) with their last use,
// and the API's reference at /dashboard/agency/api/reference. Agency admins only: a key reads
// and writes the agency's people and contacts.
import { type AppLoadContext, data } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { requireAgencyStaff } from '#app/auth/guards.server'
import { listApiKeys } from '#app/models/api-keys.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { API_RESOURCE_LABELS, API_RESOURCES, apiKeysForm } from '#app/validation/api'
import { withTenant } from '#drizzle/db.server'
import { createApiKey, describeApiKey, revokeApiKey } from './manage-api-keys.server'
import { API_BASE_PATH, openApiDocument } from './openapi.server'

export const API_PAGE_PATH = '/dashboard/agency/api'
export const API_REFERENCE_PATH = '/dashboard/agency/api/reference'

const guard = (request: Request, context: AppLoadContext) =>
  requireAgencyStaff(request, context, { manage: true })

export async function apiPageLoader(request: Request, context: AppLoadContext) {
  const admin = await guard(request, context)
  const keys = await withTenant(admin.tenant.id, (tx) => listApiKeys(tx, admin.tenant.id))
  return data({
    baseUrl: `${tenantOrigin(admin.tenant)}${API_BASE_PATH}`,
    keys: keys.map((key) => describeApiKey(key)),
    resources: API_RESOURCES.map((resource) => ({
      resource,
      label: API_RESOURCE_LABELS[resource],
    })),
  })
}

export async function apiPageAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => guard(request, context),
    schema: apiKeysForm,
    redirectTo: API_PAGE_PATH,
    intents: {
      // A new key is answered, not redirected: the page shows it once, and nowhere keeps it.
      'create-key': async (value, admin) => ({
        reply: { newKey: await createApiKey(admin, value) },
        result: { resetForm: true },
      }),
      'revoke-key': (value, admin) => revokeApiKey(admin, value.keyId),
    },
  })
}

/** The reference: the OpenAPI document of this agency's host, for the screen to lay out. */
export async function apiReferenceLoader(request: Request, context: AppLoadContext) {
  const admin = await guard(request, context)
  return data({ document: openApiDocument(tenantOrigin(admin.tenant), admin.tenant.name) })
}
