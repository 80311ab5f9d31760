// How long the HTTP server waits for a client (server.ts). Node's defaults let one slow client
// hold a socket for minutes: headers trickled a byte at a time had 60 s, checked only every
// 30 s (75 s and more in a drill), and a body 5 minutes.

export type HttpTimeouts = {
  /** The whole request head; a browser or proxy sends it in one go. */
  headersTimeout: number
  /** The whole request, body included: a 16 MB upload (MAX_BODY_BYTES) at about 1 Mbit/s. */
  requestTimeout: number
  /** An idle keep-alive connection between requests. */
  keepAliveTimeout: number
  /** How often Node checks the first two; its default (30 s) would stretch every bound. */
  connectionsCheckingInterval: number
}

/**
 * Behind trusted proxies the only client is the proxy, which reuses idle connections: ours must
 * outlive its idle timeout (Caddy's default is 2 minutes, nginx's and load balancers' 60 s), or
 * it may send a request on a connection we are closing and answer its visitor 502. Facing
 * clients directly, an idle connection is closed after a few seconds, as Node's default.
 */
export function httpTimeouts(trustedHops: number): HttpTimeouts {
  return {
    headersTimeout: 10_000,
    requestTimeout: 120_000,
    keepAliveTimeout: trustedHops > 0 ? 125_000 : 5_000,
    connectionsCheckingInterval: 1_000,
  }
}
