import type { AppLoadContext } from '@remix-run/node'
import { resolveTenant, type Tenant } from './tenant.server'
import type { TenantError } from './tenant-error'

/**
 * The tenant of this request, or a thrown plain error page that names no other tenant.
 * Resolved at most once per request however many loaders ask.
 */
export async function requireTenant(context: AppLoadContext): Promise<Tenant> {
  context.tenantResolution ??= resolveTenant(context.host)
  const resolution = await context.tenantResolution
  // The cached tenant is shared by every request to its host; how this one came is its own.
  if (resolution.status === 'found')
    return context.via ? { ...resolution.tenant, via: context.via } : resolution.tenant
  const tenantError: TenantError =
    resolution.status === 'unavailable' ? 'site-unavailable' : 'no-such-site'
  throw Response.json({ tenantError }, { status: resolution.status === 'unavailable' ? 403 : 404 })
}
