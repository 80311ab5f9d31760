// What the app icons and the card previews share around their drawing: the tenant's stored
// images they draw from, and the answer that sends a drawn PNG.
import type { AppLoadContext } from '@remix-run/node'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { getMediaByHash } from '#app/models/media.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { withTenant } from '#drizzle/db.server'
import { SHARED_IMAGE_CACHE_CONTROL } from './shared-cache'

const MEDIA_PATH = /^\/media\/([0-9a-f]{64})\.(jpg|png|webp)$/

/** The bytes of one of the tenant's stored images, by its `/media/` path; null for none. */
export async function tenantMediaBytes(tenant: Tenant, path: string | null) {
  const hash = MEDIA_PATH.exec(path ?? '')?.[1]
  if (!hash) return null
  const row = await withTenant(tenant.id, (tx) => getMediaByHash(tx, tenant.id, hash))
  return row ? Buffer.from(row.data) : null
}

/**
 * A drawn PNG under an address that names its content hash: kept by shared caches for minutes
 * (app/media/shared-cache.ts: a preview drawn with a removed photo must leave them too), offered
 * to the page cache, and inert if opened as a document.
 */
export function drawnPngResponse(context: AppLoadContext, tenant: Tenant, png: Buffer) {
  return new Response(new Uint8Array(png), {
    headers: {
      'Content-Type': 'image/png',
      'Content-Length': String(png.length),
      'Cache-Control': SHARED_IMAGE_CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      ...pageCacheHeaders(context, tenant.id),
    },
  })
}
