// The other origin a tenant's pages show images from (issue 41 point 2). Links and images that
// leave the app (an email signature, an email) are built on the tenant's chosen domain
// (tenantOrigin): its custom domain once verified. A page on the agency's subdomain that shows
// them as they will be seen (the signature builder's preview) loads those images from that
// domain, which the page's Content-Security-Policy (img-src 'self') refused. server.ts adds the
// origin returned here to img-src: the tenant's own address, never anyone else's.

import type { PublicAddress } from '#app/tenancy/host'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { resolveTenant } from '#app/tenancy/tenant.server'

/**
 * The tenant's chosen origin when the request came on another of its hosts, else none. A host
 * that resolves to no tenant, or a lookup that fails (the database away), adds nothing: the
 * page keeps img-src 'self'.
 */
export async function tenantImageOrigins(
  host: string | null,
  via: PublicAddress | null,
): Promise<string[]> {
  let resolution: Awaited<ReturnType<typeof resolveTenant>>
  try {
    resolution = await resolveTenant(host)
  } catch {
    return []
  }
  if (resolution.status !== 'found') return []
  const origin = tenantOrigin({ ...resolution.tenant, via })
  return new URL(origin).hostname === host ? [] : [origin]
}
