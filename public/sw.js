// @ts-check
// The app's service worker (issue 45 point 4, ADR 104): it keeps "My cards offline" for the
// signed-in owner (the page, its scripts and styles, each card's QR code and vCard) and answers
// them from its cache only when the network fails. Hand-written, no precache manifest: the page
// tells it what to keep while online, so the host's own manifest and icons stay dynamic.
//
// What it never does: answer any other page (a navigation elsewhere goes to the network as if it
// were not here, so no stale page is ever shown), or keep one person's things after another signs
// in on the device (each owner's cache is named by an opaque key of their account and the others are deleted).

// No product name in it: every agency host serves this file as its own (white label).
const PREFIX = 'cards-offline:'
/** The only paths it answers and keeps: the offline page, a card's QR code and vCard, assets. */
const KEPT = /^\/(?:offline|card\/[^/]+\/(?:qr\.svg|qr\.png|vcard)|assets\/[^/]+)$/

/** @param {string} owner */
const cacheName = (owner) => PREFIX + encodeURIComponent(owner)

/** @type {ServiceWorkerGlobalScope} */
// @ts-expect-error the worker's global scope, typed for its events
const worker = self

worker.addEventListener('install', () => {
  worker.skipWaiting()
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(worker.clients.claim())
})

/** Deletes every owner's cache but `keep`'s (all of them for null). @param {string | null} keep */
async function forgetOthers(keep) {
  const names = await caches.keys()
  await Promise.all(
    names
      .filter(
        (name) => name.startsWith(PREFIX) && name !== (keep === null ? null : cacheName(keep)),
      )
      .map((name) => caches.delete(name)),
  )
}

/**
 * Fetches each URL afresh and keeps it for `owner`; what the page no longer lists (a card
 * deleted or archived) goes.
 * @param {string} owner
 * @param {string[]} urls
 */
async function keep(owner, urls) {
  await forgetOthers(owner)
  const cache = await caches.open(cacheName(owner))
  const wanted = urls
    .map((url) => new URL(url, worker.location.origin))
    .filter((url) => url.origin === worker.location.origin && KEPT.test(url.pathname))
  const results = await Promise.all(
    wanted.map(async (url) => {
      try {
        const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store' })
        // A redirect (signed out) or an error is not the thing itself: never kept.
        if (!response.ok || response.redirected) return false
        await cache.put(url.pathname, response)
        return true
      } catch {
        return false
      }
    }),
  )
  const listed = new Set(wanted.map((url) => url.pathname))
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname
    // Fingerprinted assets stay until the next keep without them; other things the page dropped go.
    if (!listed.has(path)) await cache.delete(request)
  }
  return { kept: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length }
}

worker.addEventListener('message', (event) => {
  const data = event.data
  if (data?.type === 'keep' && typeof data.owner === 'string' && Array.isArray(data.urls)) {
    event.waitUntil(keep(data.owner, data.urls).then((kept) => event.ports[0]?.postMessage(kept)))
  } else if (data?.type === 'owner') {
    event.waitUntil(forgetOthers(typeof data.owner === 'string' ? data.owner : null))
  }
})

/** The network first; the kept copy only when the network fails. @param {Request} request */
async function networkFirst(request) {
  try {
    return await fetch(request)
  } catch (error) {
    const url = new URL(request.url)
    const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX))
    for (const name of names) {
      const kept = await (await caches.open(name)).match(url.pathname)
      if (kept) return kept
    }
    throw error
  }
}

worker.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  // A query string is another answer (a QR code's size, the page's search): the network's.
  if (url.origin !== worker.location.origin || url.search || !KEPT.test(url.pathname)) return
  event.respondWith(networkFirst(request))
})
