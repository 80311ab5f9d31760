// The tenant on phones (ADR 024): the web app manifest behind "add to home screen", its icons and
// the apple-touch-icon, all drawn from the branding the host resolves to (an agency's own, or
// the platform's where white labeling is off and on the root domain).
import type { AppLoadContext } from '@remix-run/node'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { drawnPngResponse, tenantMediaBytes } from '#app/media/drawn-image.server'
import { drawingHash, type IconVariant, renderAppIcon } from '#app/services/brand-images.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { safeHexColor } from '#app/validation/hex-color'

export const MANIFEST_PATH = '/manifest.webmanifest'

type Branded = Pick<Tenant, 'name' | 'primaryColor' | 'secondaryColor' | 'logoUrl'>

/** Each icon file: its size and design. Apple's is full bleed too (iOS rounds it itself). */
const ICONS = {
  'any-192': { size: 192, variant: 'any' },
  'any-512': { size: 512, variant: 'any' },
  'maskable-192': { size: 192, variant: 'maskable' },
  'maskable-512': { size: 512, variant: 'maskable' },
  'apple-touch-180': { size: 180, variant: 'maskable' },
} as const satisfies Record<string, { size: number; variant: IconVariant }>
export type IconKind = keyof typeof ICONS

const ICON_FILE = /^([a-z-]+-\d+)-([0-9a-f]{20})\.png$/

/** The colour the icons are drawn in; the fallback matches the style sheet's. */
export const brandPrimary = (tenant: Branded) => safeHexColor(tenant.primaryColor, '#3b82f6')

/** A hash of what the icons show: a new logo, name or colour is a new address. */
export function iconVersion(tenant: Branded) {
  return drawingHash([tenant.name, brandPrimary(tenant), tenant.logoUrl])
}

export function iconPath(tenant: Branded, kind: IconKind) {
  return `/icons/${kind}-${iconVersion(tenant)}.png`
}

/** A launcher label fits about 12 characters: the name if short, else its first word. */
export function shortNameOf(name: string) {
  if ([...name].length <= 12) return name
  const first = name.split(/\s+/)[0] ?? name
  return [...first].slice(0, 12).join('')
}

export function manifestFor(tenant: Branded) {
  const icon = (kind: IconKind, purpose: 'any' | 'maskable') => ({
    src: iconPath(tenant, kind),
    sizes: `${ICONS[kind].size}x${ICONS[kind].size}`,
    type: 'image/png',
    purpose,
  })
  return {
    id: '/',
    name: tenant.name,
    short_name: shortNameOf(tenant.name),
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: brandPrimary(tenant),
    // The splash screen: the secondary colour around the primary-coloured icon.
    background_color: safeHexColor(tenant.secondaryColor, '#10b981'),
    icons: [
      icon('any-192', 'any'),
      icon('any-512', 'any'),
      icon('maskable-192', 'maskable'),
      icon('maskable-512', 'maskable'),
    ],
  }
}

export async function manifestResponse(context: AppLoadContext) {
  const tenant = await requireTenant(context)
  return new Response(JSON.stringify(manifestFor(tenant)), {
    headers: {
      'Content-Type': 'application/manifest+json; charset=utf-8',
      // The address is fixed, so browsers revalidate; the page cache keeps it until a change.
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...pageCacheHeaders(context, tenant.id),
    },
  })
}

export async function iconResponse(context: AppLoadContext, file: string) {
  const tenant = await requireTenant(context)
  const match = ICON_FILE.exec(file)
  const kind = match?.[1]
  if (!match || !kind || !Object.hasOwn(ICONS, kind)) {
    throw new Response('Not Found', { status: 404 })
  }
  const { size, variant } = ICONS[kind as IconKind]
  if (match[2] !== iconVersion(tenant)) {
    // An icon of branding since replaced (a home screen saved before): today's icon, which the
    // redirect does not pin, unlike the cached answer below.
    return new Response(null, {
      status: 302,
      headers: { Location: iconPath(tenant, kind as IconKind), 'Cache-Control': 'no-cache' },
    })
  }
  const png = await renderAppIcon(
    {
      name: tenant.name,
      primaryColor: brandPrimary(tenant),
      logo: await tenantMediaBytes(tenant, tenant.logoUrl),
    },
    size,
    variant,
  )
  return drawnPngResponse(context, tenant, png)
}
