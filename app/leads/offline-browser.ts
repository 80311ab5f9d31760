// The browser's side of "My cards offline" (ADR 104): the lead queue's IndexedDB store, the
// sender that posts a lead to the server, and the messages to the service worker (public/sw.js)
// that keep the owner's page, QR codes and vCards, and forget them when someone else signs in.
import type { LeadStore, QueuedLead, SendOutcome } from './offline-queue'

export const OFFLINE_WORKER_URL = '/sw.js'
const LEADS_URL = '/offline/leads'
const DB_NAME = 'cards-offline'
const LEADS = 'leads'

function request<T>(req: IDBRequest<T>) {
  return new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

let opened: Promise<IDBDatabase> | null = null
function database() {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1)
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore(LEADS, { keyPath: 'key' })
      store.createIndex('owner', 'owner')
    }
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
  return opened
}

async function leadsStore(mode: IDBTransactionMode) {
  return (await database()).transaction(LEADS, mode).objectStore(LEADS)
}

/** The queue kept in IndexedDB: it outlives a closed tab, a reload and a restarted phone. */
export const browserLeadStore: LeadStore = {
  async list(owner) {
    const store = await leadsStore('readonly')
    return request(store.index('owner').getAll(owner) as IDBRequest<QueuedLead[]>)
  },
  async put(lead) {
    await request((await leadsStore('readwrite')).put(lead))
  },
  async remove(key) {
    await request((await leadsStore('readwrite')).delete(key))
  },
}

/**
 * Posts one lead. Only an answer from the server decides: arrived (2xx) or refused (its message,
 * 400 or 422); no network, a sign-in redirect (not followed, so the sign-in page is not taken for
 * an answer), a key being sent by another tab, a limit or a server error wait for the next round.
 */
export async function sendLead(lead: QueuedLead): Promise<SendOutcome> {
  const body = new FormData()
  body.set('idempotencyKey', lead.key)
  for (const [name, value] of Object.entries(lead.fields)) body.set(name, value)
  let response: Response
  try {
    response = await fetch(LEADS_URL, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { Accept: 'application/json' },
    })
  } catch {
    return { kind: 'later' }
  }
  if (response.type === 'opaqueredirect') return { kind: 'later' }
  const answer = (await response.json().catch(() => null)) as {
    lead?: { message: string }
    error?: string
  } | null
  if (response.ok && answer?.lead) return { kind: 'arrived', message: answer.lead.message }
  if ((response.status === 400 || response.status === 422) && answer?.error) {
    return { kind: 'refused', message: answer.error }
  }
  return { kind: 'later' }
}

type Kept = { kept: number; failed: number }

/**
 * Registers the worker and asks it to keep these URLs for `owner` (the page, its scripts and
 * styles, each card's QR code and vCard); resolves with what it kept, or null without support.
 */
export async function keepForOffline(owner: string, urls: string[]): Promise<Kept | null> {
  if (!('serviceWorker' in navigator)) return null
  await navigator.serviceWorker.register(OFFLINE_WORKER_URL, { scope: '/' })
  const { active } = await navigator.serviceWorker.ready
  if (!active) return null
  return new Promise<Kept>((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = (event) => resolve(event.data as Kept)
    active.postMessage({ type: 'keep', owner, urls }, [channel.port2])
  })
}

/**
 * Tells the worker, on every page, who is signed in (null: no one): what it keeps for anyone
 * else is deleted, so a shared device never shows one person's cards to the next.
 */
export function announceOwner(owner: string | null) {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  navigator.serviceWorker.controller?.postMessage({ type: 'owner', owner })
}

/**
 * What the page needs to run again offline: its own URL, scripts, styles and icons, and every
 * asset it has fetched since it loaded (a chunk imported on demand, such as the toasts').
 */
export function pageResources(document: Document) {
  const urls = new Set<string>([document.location.pathname])
  for (const element of document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>(
    'script[src], link[rel="modulepreload"], link[rel="stylesheet"], link[rel="icon"], link[rel="manifest"]',
  )) {
    const url = new URL(
      element instanceof HTMLScriptElement ? element.src : element.href,
      document.baseURI,
    )
    if (url.origin === document.location.origin) urls.add(url.pathname)
  }
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name)
    if (url.origin === document.location.origin && url.pathname.startsWith('/assets/')) {
      urls.add(url.pathname)
    }
  }
  return [...urls]
}
