import type { TenantResolution } from '#app/tenancy/tenant.server'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The validated request host, computed once by server.ts (null when unusable). */
    host: string | null
    /** Per-response nonce for the Content-Security-Policy. */
    cspNonce: string
    /** Memoised tenant lookup for this request. */
    tenantResolution?: Promise<TenantResolution>
  }
}
