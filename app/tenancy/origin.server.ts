import { getEnv } from '#app/env.server'
import type { PublicAddress } from './host'
import type { Tenant } from './tenant.server'

/**
 * The public origin of a tenant, built from its database record (verified custom domain,
 * else its subdomain, else the root domain for the platform), never from request headers.
 * For the platform, the URL saved in System Settings wins: it is the address people reach the
 * root domain on (a proxy may publish it under another scheme or port than the server knows).
 * Local root domains (localhost, *.test) are served over http with the port.
 * Behind a trusted proxy that said how the client came (`via`, from X-Forwarded-Proto: see
 * forwardedPublicAddress), its scheme and port win: a TLS-terminating proxy in front of a
 * local root domain (the e2e behind Caddy) or on a non-standard port still gets links that work.
 */
export function tenantOrigin(
  tenant: Pick<Tenant, 'kind' | 'slug' | 'customDomain' | 'platformUrl'> & {
    via?: PublicAddress | null
  },
): string {
  if (tenant.kind === 'platform' && !tenant.customDomain && tenant.platformUrl) {
    // Links are built from the root (/card/..., /invitations/...): only the origin is kept.
    const saved = URL.canParse(tenant.platformUrl) ? new URL(tenant.platformUrl).origin : 'null'
    if (saved !== 'null') return saved
  }
  const env = getEnv()
  const root = env.ROOT_DOMAIN
  const host = tenant.customDomain ?? (tenant.kind === 'platform' ? root : `${tenant.slug}.${root}`)
  const local = root === 'localhost' || root.endsWith('.localhost') || root.endsWith('.test')
  const via = tenant.via
  const scheme = via?.scheme ?? env.PUBLIC_URL_SCHEME ?? (local ? 'http' : 'https')
  const port = via ? (via.port ?? '') : (env.PUBLIC_URL_PORT ?? (local ? String(env.PORT) : ''))
  const defaultPort = scheme === 'https' ? '443' : '80'
  return `${scheme}://${host}${port && port !== defaultPort ? `:${port}` : ''}`
}
