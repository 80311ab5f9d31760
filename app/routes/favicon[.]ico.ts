import type { LoaderFunctionArgs } from '@remix-run/node'
import { getMediaByHash } from '#app/models/media.server'
import { pngToIco } from '#app/services/favicon.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { withTenant } from '#drizzle/db.server'

const MEDIA_PATH = /^\/media\/([0-9a-f]{64})\.png$/

// The tenant's favicon as ICO, made from its 32x32 PNG; without one, the platform's SVG icon.
export async function loader({ context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  const hash = MEDIA_PATH.exec(tenant.faviconUrl ?? '')?.[1]
  const row = hash ? await withTenant(tenant.id, (tx) => getMediaByHash(tx, tenant.id, hash)) : null
  if (!row) {
    return new Response(null, { status: 302, headers: { Location: '/favicon.svg' } })
  }
  const ico = pngToIco(new Uint8Array(row.data))
  return new Response(new Uint8Array(ico), {
    headers: {
      'Content-Type': 'image/x-icon',
      'Content-Length': String(ico.length),
      // The address stays the same when the favicon changes: browsers revalidate daily.
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
