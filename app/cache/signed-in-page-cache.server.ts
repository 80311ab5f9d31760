// Signed-in pages kept per session (ADR 109): the end user's dashboard, cards list, contacts
// and profile, whose answers are the same bytes until something they show changes. A stored
// answer is keyed by everything it was made from: the session (and its second-step state), the
// person's data version (bumped in the database by every write to a table their pages read,
// migration 0055, and read with the session), the organization's and the platform's change
// counts (the change feed), the address, the cookies and the languages the browser asked for.
// The session is validated before every lookup (app/auth/signed-in-page.server.ts), so a
// signed-out or revoked session never meets a stored page, and nothing is kept longer than
// TTL_MS: a page that says "now" or counts this week is at most that old, as if the person had
// loaded it a moment earlier.
import { hash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import type { AppLoadContext } from '@remix-run/node'
import { LRUCache } from 'lru-cache'
import {
  type PreparedAnswer,
  preparedAnswer,
  type RenderedAnswer,
} from '#app/cache/page-cache.server'
import { metrics } from '#app/observability/metrics.server'

const TTL_MS = 30_000
// A quarter of the page cache's memory (PAGE_CACHE_MB); 0 turns both off.
const maxBytes = (Number(process.env.PAGE_CACHE_MB ?? 64) * 1024 * 1024) / 4

export type StoredPage = PreparedAnswer & { gzip?: Buffer }

const pages = new LRUCache<string, StoredPage>({
  maxSize: Math.max(maxBytes, 1),
  sizeCalculation: (page) => page.identity.length * 2 + 512,
  ttl: TTL_MS,
})

const ALL_TENANTS = '*'
let platformChanges = 0
const organizationChanges = new Map<string, number>()

/** A change announced for an organization ('*': every one) retires its stored pages' keys. */
export function retireSignedInPages(organizationId: string) {
  if (organizationId === ALL_TENANTS) {
    platformChanges++
    organizationChanges.clear()
    pages.clear()
    return
  }
  organizationChanges.set(organizationId, (organizationChanges.get(organizationId) ?? 0) + 1)
}

/** What a signed-in answer is made from, besides the database rows its version counts. */
export type SignedInKeyParts = {
  organizationId: string
  sessionId: string
  /** The session's second-step state: it decides what the frame offers. */
  sessionState: string
  dataVersion: number
  /** Scheme, host and port as the client used them: absolute links follow them. */
  origin: string
  /** The request target as the app routes it (path and query; a data request's `.data`). */
  target: string
  /** The Cookie header without the session's own (the session's id stands for it). */
  otherCookies: string
  acceptLanguage: string | undefined
  /** Bots get the whole page at once (entry.server), browsers a stream: kept apart. */
  bot: boolean
}

// crypto.hash, not createHash: a Hash object's native state lives until a full collection
// frees its wrapper, and one a request piled up tens of MB of malloc between collections (ADR 113).
export function signedInPageKey(parts: SignedInKeyParts) {
  return hash(
    'sha256',
    [
      parts.organizationId,
      platformChanges,
      organizationChanges.get(parts.organizationId) ?? 0,
      parts.sessionId,
      parts.sessionState,
      parts.dataVersion,
      parts.origin,
      parts.target,
      parts.otherCookies,
      parts.acceptLanguage ?? '',
      parts.bot,
    ].join('\n'),
    'base64url',
  )
}

/** The answer stored for a key, counted as a hit or a miss (the operator's hit ratio). */
export function lookupSignedInPage(key: string): StoredPage | undefined {
  if (maxBytes <= 0) return undefined
  const page = pages.get(key)
  if (page) metrics.signedInPageCacheHits.inc()
  else metrics.signedInPageCacheMisses.inc()
  return page
}

// Concurrent misses of one key (a burst of reloads, or every tab of a session right after a
// change) are one render: the first request renders, the others wait for it and are answered
// with what it stored. A leader whose answer is not kept releases them as its head is written.
const rendering = new Map<string, Promise<void>>()

/**
 * For a miss: the render of the same key already under way, to wait for, or (for the first)
 * the function that ends it, to call once this request's answer is kept or known not to be.
 */
export function joinRender(key: string): { wait: Promise<void> } | { release: () => void } {
  const running = rendering.get(key)
  if (running) return { wait: running }
  let resolve = () => {}
  const render = new Promise<void>((settle) => {
    resolve = settle
  })
  rendering.set(key, render)
  const release = () => {
    if (rendering.get(key) === render) rendering.delete(key)
    resolve()
  }
  return { release }
}

/** The answer a render just stored for a key, for the requests that waited for it. */
export function renderedSignedInPage(key: string): StoredPage | undefined {
  return pages.get(key)
}

export function signedInPageCacheEnabled() {
  return maxBytes > 0
}

/** A loader whose whole answer may be kept for its session marks the request (ADR 109). */
export function offerSignedInCache(context: AppLoadContext) {
  context.signedInCacheOffer = true
}

/**
 * Keeps an answer the app rendered for a looked-up request whose route offered it: a complete
 * 200 that sets no cookie (a toast read, a renewed session) and was made for this key.
 */
export function storeSignedInPage(key: string, answer: RenderedAnswer) {
  if (answer.status !== 200 || answer.headers['set-cookie'] !== undefined) return
  pages.set(key, preparedAnswer(answer))
}

/** A stored answer with its gzip made once, the first time a client asks for it compressed. */
export function compressedOnce(page: StoredPage): StoredPage {
  page.gzip ??= gzipSync(page.identity, { level: 6 })
  return page
}

export function signedInPageCacheSize() {
  return { entries: pages.size, bytes: pages.calculatedSize ?? 0 }
}
