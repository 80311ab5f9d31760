import type { LoaderFunctionArgs } from '@remix-run/node'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { getMediaByHash } from '#app/models/media.server'
import { MEDIA_GRACE_MS } from '#app/services/media-limits'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { withTenant } from '#drizzle/db.server'

const FILE = /^([0-9a-f]{64})\.(jpg|png|webp)$/
const SERVABLE = new Set(['image/jpeg', 'image/png', 'image/webp'])

// Media is content-addressed, so a URL's bytes never change: cache them forever. Only while
// something references the image, though (ADR 029): a removed photo or logo is not found at
// once, before the sweep deletes its bytes. An upload no saved form references yet is shown
// to its form for a short while, and never cached.
export async function loader({ params, context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  const match = FILE.exec(params.file ?? '')
  if (!match?.[1]) throw new Response('Not Found', { status: 404 })
  const hash = match[1]
  const row = await withTenant(tenant.id, (tx) => getMediaByHash(tx, tenant.id, hash))
  const pending =
    !row?.referenced &&
    row?.pendingSince != null &&
    row.pendingSince.getTime() > Date.now() - MEDIA_GRACE_MS
  if (
    !row ||
    row.ext !== match[2] ||
    !SERVABLE.has(row.contentType) ||
    !(row.referenced || pending)
  ) {
    throw new Response('Not Found', { status: 404 })
  }
  return new Response(new Uint8Array(row.data), {
    headers: {
      'Content-Type': row.contentType,
      'Content-Length': String(row.data.length),
      'Cache-Control': pending ? 'private, no-store' : 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      ...(pending ? {} : pageCacheHeaders(context, tenant.id)),
    },
  })
}
