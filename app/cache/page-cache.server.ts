// Whole responses kept in memory, per host and path, for visitors without cookies (ADR 021):
// the public card page, its vCard and QR code, media, the tenant home and the health check.
// A route opts in with `pageCacheHeaders`; server.ts serves hits before Express and Remix run,
// with the compressed bytes made once. Entries are tagged with their organization and dropped
// when the database announces a change to it (app/tenancy/change-feed.server.ts).
import { hash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { AppLoadContext } from '@remix-run/node'
import { LRUCache } from 'lru-cache'
import { metrics } from '#app/observability/metrics.server'
import { TRACE_RESPONSE_HEADER } from '#app/observability/trace-context'
import { languagePreferenceKey } from '#app/utils/i18n/negotiate'

/** Internal headers a route sets to opt in; server.ts removes them before anything is sent. */
export const CACHE_TAG_HEADER = 'x-page-cache'
export const CACHE_VIEW_HEADER = 'x-page-cache-view'
export const CACHE_TTL_HEADER = 'x-page-cache-ttl'
const ALL_TENANTS = '*'

export type CachedPage = {
  status: number
  /** Header name (lower case) and value pairs, without length, encoding or HSTS. */
  headers: [string, string][]
  identity: Buffer
  gzip: Buffer
  br: Buffer
  etag: string
  /** The organization whose change drops this entry ('*': only a change to every tenant). */
  tag: string
  /** The card whose view each hit records, if any. */
  viewCardId: string | null
}

const DEFAULT_TTL_MS = 5 * 60_000
const maxBytes = Number(process.env.PAGE_CACHE_MB ?? 64) * 1024 * 1024

const cache = new LRUCache<string, CachedPage>({
  maxSize: Math.max(maxBytes, 1),
  sizeCalculation: (page) => page.identity.length + page.gzip.length + page.br.length + 512,
  // A safety net only: every change that shows on a cached page is announced and drops it.
  ttl: DEFAULT_TTL_MS,
})

/**
 * The key of a request: host, path (requests with a query string are never cached) and the
 * product's languages its browser accepts, in order (ADR 105): the card page speaks the
 * visitor's language, and that list is all the choice depends on (with the host's settings,
 * whose change drops its pages). A handful of entries per page at most, not one per header.
 */
export const pageCacheKey = (host: string, path: string, acceptLanguage?: string | null) =>
  `${host}\n${path}\n${languagePreferenceKey(acceptLanguage)}`

export function lookupPage(key: string): CachedPage | undefined {
  if (maxBytes <= 0) return undefined
  const page = cache.get(key)
  // The hit ratio an operator watches (ADR 097): every lookup is a candidate request.
  if (page) metrics.pageCacheHits.inc()
  else metrics.pageCacheMisses.inc()
  return page
}

/**
 * The headers with which a loader or resource route offers its answer for the cache. Only a
 * request the server marked as a candidate (no cookie, no query) gets them, so the answer
 * cannot depend on who asked.
 */
export function pageCacheHeaders(
  context: AppLoadContext,
  organizationId: string | null,
  options: { viewOf?: string | null; ttlMs?: number } = {},
): Record<string, string> {
  if (!context.pageCacheCandidate) return {}
  const headers: Record<string, string> = { [CACHE_TAG_HEADER]: organizationId ?? ALL_TENANTS }
  if (options.viewOf) headers[CACHE_VIEW_HEADER] = options.viewOf
  if (options.ttlMs) headers[CACHE_TTL_HEADER] = String(options.ttlMs)
  return headers
}

// Inline scripts, whose hashes the cached page's policy lists in place of the per-response
// nonce. Remix writes every script of a document inline or loads it from one of those.
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g

function scriptHashes(html: string) {
  const hashes = new Set<string>()
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const [, attributes = '', content = ''] = match
    if (/\bsrc=/.test(attributes)) continue
    hashes.add(`'sha256-${hash('sha256', content, 'base64')}'`)
  }
  return [...hashes]
}

const DROPPED_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'strict-transport-security',
  // Each answer names its own request's trace: a stored one would name the first visitor's.
  TRACE_RESPONSE_HEADER,
  CACHE_TAG_HEADER,
  CACHE_VIEW_HEADER,
  CACHE_TTL_HEADER,
])

/** An answer the app rendered, as captured on its way out, with the nonce its page used. */
export type RenderedAnswer = {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: Buffer
  nonce: string
}

/** An answer as a cache keeps it: its headers filtered, its nonce replaced, its entity tag. */
export type PreparedAnswer = {
  status: number
  headers: [string, string][]
  identity: Buffer
  etag: string
}

/**
 * What a cache keeps of an answer the app rendered. HTML gets its nonce replaced by the hashes of
 * its scripts: a nonce must never be sent twice, but a hash names exactly the scripts of this
 * body, so the stored policy stays as strict. Shared with the signed-in page cache
 * (app/cache/signed-in-page-cache.server.ts).
 */
export function preparedAnswer(answer: RenderedAnswer): PreparedAnswer {
  const headers: [string, string][] = []
  let body = answer.body
  const isHtml = String(answer.headers['content-type'] ?? '').startsWith('text/html')
  let html = isHtml ? body.toString('utf8') : ''
  if (isHtml && answer.nonce) {
    html = html.replaceAll(` nonce="${answer.nonce}"`, '')
    body = Buffer.from(html, 'utf8')
  }
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || DROPPED_HEADERS.has(name)) continue
    if (name === 'content-security-policy' || name === 'content-security-policy-report-only') {
      // Each policy on its own: the page's, with its nonce, and a route's own (media's sandbox),
      // which a cached image must keep. A body without scripts has no use for the page's.
      for (const policy of Array.isArray(value) ? value : [String(value)]) {
        const hasNonce = answer.nonce !== '' && policy.includes(`'nonce-${answer.nonce}'`)
        if (!hasNonce) headers.push([name, policy])
        else if (isHtml)
          headers.push([
            name,
            policy.replace(`'nonce-${answer.nonce}'`, scriptHashes(html).join(' ')),
          ])
      }
      continue
    }
    headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)])
  }
  const etag =
    typeof answer.headers.etag === 'string'
      ? answer.headers.etag
      : `W/"${hash('sha256', body, 'base64url').slice(0, 27)}"`
  if (typeof answer.headers.etag !== 'string') headers.push(['etag', etag])
  return { status: answer.status, headers, identity: body, etag }
}

/** Stores an answer the app rendered for a candidate request, if the route offered it. */
export function storePage(key: string, answer: RenderedAnswer): CachedPage | undefined {
  const tag = answer.headers[CACHE_TAG_HEADER]
  if (maxBytes <= 0 || typeof tag !== 'string' || answer.status !== 200) return undefined
  // An answer that sets a cookie is someone's, never everyone's.
  if (answer.headers['set-cookie'] !== undefined) return undefined
  const prepared = preparedAnswer(answer)
  const body = prepared.identity
  // Concurrent misses of one page (its first visitors, or every visitor right after a change
  // dropped it) each render it. The first stores it; the others' identical bytes would only be
  // compressed again (gzip 9 and brotli 10: a burst of fifty on the card page stalled the server
  // for seconds, npm run bench's short link), so they keep the stored page.
  const stored = cache.peek(key)
  if (
    stored &&
    stored.tag === tag &&
    stored.status === answer.status &&
    stored.identity.equals(body)
  ) {
    return stored
  }
  const viewCardId = answer.headers[CACHE_VIEW_HEADER]
  const page: CachedPage = {
    ...prepared,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 10,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    tag,
    viewCardId: typeof viewCardId === 'string' ? viewCardId : null,
  }
  const ttl = Number(answer.headers[CACHE_TTL_HEADER])
  cache.set(key, page, ttl > 0 ? { ttl } : undefined)
  return page
}

/** Drops every entry of an organization, or everything for '*'. */
export function dropPages(organizationId: string) {
  if (organizationId === ALL_TENANTS) {
    cache.clear()
    return
  }
  for (const [key, page] of cache.entries()) {
    if (page.tag === organizationId) cache.delete(key)
  }
}

export function pageCacheSize() {
  return { entries: cache.size, bytes: cache.calculatedSize ?? 0 }
}
