// Maintenance mode (System Settings, issue 14 point 1): while it is on, every request on every
// host answers a plain 503 page, except sign-in (so a super admin can get in), the health check
// and a signed-in super admin on the platform's host. Checked by server.ts before Remix, so
// actions, resource routes and pages are all covered; the flag comes from the cached platform
// settings, so a request pays nothing while it is off.
import { parse } from 'cookie'
import { sessionCookieName, validateSessionToken } from '#app/auth/session.server'
import { isHealthPath } from '#app/observability/health-paths'
import { cachedPlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { isOutage } from '#drizzle/unavailable.server'

/** Paths that stay open: signing in and out, the health checks (liveness and readiness), the TLS ask, and the sign-in page's images. */
function isExempt(path: string) {
  return (
    path === '/auth/login' ||
    path === '/auth/logout' ||
    isHealthPath(path) ||
    // The proxy asks before it obtains or renews a certificate: maintenance must not cost a site
    // its certificate.
    path === '/api/domains/allowed' ||
    path.startsWith('/media/') ||
    path.startsWith('/assets/')
  )
}

async function isPlatformSuperAdmin(host: string | null, cookieHeader: string | null) {
  const token = cookieHeader ? parse(cookieHeader)[sessionCookieName()] : undefined
  if (!token || !/^[a-z2-7]{32}$/.test(token)) return false
  const resolution = await resolveTenant(host)
  if (resolution.status !== 'found' || resolution.tenant.kind !== 'platform') return false
  const session = await validateSessionToken(resolution.tenant.id, token)
  // A session still owing its second step (ADR 045) is not a super admin's yet.
  return session?.user.role === 'super_admin' && session.twoFactorVerified
}

/** The work's value, or undefined when it failed because the database is away. */
async function unlessOutage<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work
  } catch (error) {
    if (isOutage(error)) return undefined
    throw error
  }
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The maintenance page, or null when the request may go on. */
export async function maintenanceResponse(
  host: string | null,
  path: string,
  cookieHeader: string | null,
  nonce = '',
): Promise<Response | null> {
  // Before any database read: the health check must answer for itself during an outage.
  if (isExempt(path)) return null
  // This runs before Remix, where nothing turns an error into a page: an unreachable database
  // that has never answered leaves the request to Remix, whose pages answer 503 for it.
  const settings = await unlessOutage(cachedPlatformSettings())
  if (!settings?.maintenanceMode) return null
  if (await unlessOutage(isPlatformSuperAdmin(host, cookieHeader))) return null
  const resolution = await unlessOutage(resolveTenant(host))
  const name = resolution?.status === 'found' ? resolution.tenant.name : 'This site'
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Down for maintenance</title><style nonce="${escapeHtml(nonce)}">body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;padding:1rem;color:#111827;background:#fff;text-align:center}@media (prefers-color-scheme:dark){body{color:#f3f4f6;background:#030712}}</style></head><body><main><h1>Down for maintenance</h1><p>${escapeHtml(name)} is being updated and will be back shortly. Please try again in a few minutes.</p></main></body></html>`
  return new Response(html, {
    status: 503,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Retry-After': '300',
    },
  })
}
