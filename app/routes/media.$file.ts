import type { LoaderFunctionArgs } from '@remix-run/node'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { matchesEntityTag, SHARED_IMAGE_CACHE_CONTROL } from '#app/media/shared-cache'
import { getMediaByHash } from '#app/models/media.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { EMBEDDABLE_IMAGE_HEADERS } from '#app/utils/route-headers'
import { MEDIA_GRACE_MS } from '#app/validation/media-limits'
import { withTenant } from '#drizzle/db.server'

const FILE = /^([0-9a-f]{64})\.(jpg|png|webp)$/
const SERVABLE = new Set(['image/jpeg', 'image/png', 'image/webp'])

// Media is content-addressed, so a URL's bytes never change; but it is served only while
// something references the image (ADR 029): a removed photo or logo is not found at once, before
// the sweep deletes its bytes. So shared caches keep it for minutes and then ask again
// (app/media/shared-cache.ts): its ETag is its hash, and a revalidation is a 304 while it is in use.
// An upload no saved form references yet is shown to its form for a short while, and never cached.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
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
  const etag = `"${hash}"`
  if (!pending && matchesEntityTag(request.headers.get('If-None-Match'), etag)) {
    return new Response(null, {
      status: 304,
      headers: { ETag: etag, 'Cache-Control': SHARED_IMAGE_CACHE_CONTROL },
    })
  }
  return new Response(new Uint8Array(row.data), {
    headers: {
      'Content-Type': row.contentType,
      'Content-Length': String(row.data.length),
      'Cache-Control': pending ? 'private, no-store' : SHARED_IMAGE_CACHE_CONTROL,
      ...(pending ? {} : { ETag: etag }),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      ...(pending ? {} : pageCacheHeaders(context, tenant.id)),
      // Shown in signatures and emails from other origins; an upload still pending is its form's.
      ...(pending ? {} : EMBEDDABLE_IMAGE_HEADERS),
    },
  })
}
