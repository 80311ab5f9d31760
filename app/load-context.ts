import type { ValidSession } from '#app/auth/session.server'
import type { PublicAddress } from '#app/tenancy/host'
import type { TenantResolution } from '#app/tenancy/tenant.server'
import type { ViewSource } from '#app/utils/view-sources'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The validated request host, computed once by server.ts (null when unusable). */
    host: string | null
    /** Per-response nonce for the Content-Security-Policy. */
    cspNonce: string
    /** The client's address (the socket's, or X-Forwarded-For's first with TRUST_PROXY). */
    clientIp?: string
    /**
     * The scheme and port the client used, as a trusted proxy reported them (null without one):
     * links built for this request start the same way (tenantOrigin).
     */
    via?: PublicAddress | null
    /** The address of the socket's peer: the proxy itself when there is one. */
    peerAddress?: string
    /** Whether the request came with forwarding headers (relayed by a proxy, or claiming so). */
    relayed?: boolean
    /** Memoised tenant lookup for this request. */
    tenantResolution?: Promise<TenantResolution>
    /** Memoised session lookup for this request. */
    session?: Promise<ValidSession | null>
    /**
     * Whether this is a client-side data request (single fetch's `{path}.data`). Remix removes
     * the suffix before loaders see the URL, so server.ts records it here.
     */
    dataRequest?: boolean
    /**
     * A request the page cache may answer next time (GET, no cookie, no query but a view's
     * source marker): a route that
     * offers its answer says so in headers (app/cache/page-cache.server.ts), and a card page
     * leaves its view to the server, which records hits and misses alike.
     */
    pageCacheCandidate?: boolean
    /**
     * The source a cache candidate's link was marked with (`?s=q`, ADR 039): server.ts takes
     * the marker off the URL so the cached page is the same for every link, and keeps it here
     * for a route that passes it on (a redirect). Read it with `sourceOfRequest`.
     */
    viewSource?: ViewSource
    /** Set by a loader whose answer the signed-in page cache may keep (ADR 109). */
    signedInCacheOffer?: boolean
    /** Set-Cookie values that entry.server adds to the response (session renewal). */
    responseCookies?: string[]
  }
}
