// Toasts without sonner in the first download: sonner (about 10 KB gzipped) is fetched the first
// time a toast is shown, and its Toaster is mounted then. sonner's store replays the toasts that
// were created before the Toaster subscribed, so nothing shown early is lost. The public card page
// stays within its JavaScript budget this way (issue 16; docs/decisions/021-card-page-javascript.md).

import { useSyncExternalStore } from 'react'
import type { ExternalToast, ToasterProps } from 'sonner'

type Sonner = typeof import('sonner')

let sonner: Promise<Sonner> | undefined
let loaded: Sonner | undefined
const listeners = new Set<() => void>()

function loadSonner() {
  if (!sonner) {
    const attempt = import('sonner')
    sonner = attempt
    attempt.then(
      (module) => {
        loaded = module
        for (const listener of listeners) listener()
      },
      () => {
        // Offline, or the network failed: the toast is lost, never the page, and the next toast
        // asks again.
        if (sonner === attempt) sonner = undefined
      },
    )
  }
  return sonner
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

type Kind = 'message' | 'success' | 'error' | 'info'

function shower(kind: Kind) {
  return (title: string, options?: ExternalToast) => {
    loadSonner().then(
      ({ toast }) => (kind === 'message' ? toast(title, options) : toast[kind](title, options)),
      () => {},
    )
  }
}

/** sonner's toast() for what this app uses: message, success, error, info. */
export const toast = Object.assign(shower('message'), {
  success: shower('success'),
  error: shower('error'),
  info: shower('info'),
})

/**
 * Fetches sonner now, for a page that must show toasts when it cannot fetch anything (the offline
 * page). Resolves either way: a failure leaves toasts to ask again.
 */
export function preloadToasts(): Promise<void> {
  return loadSonner().then(
    () => {},
    () => {},
  )
}

/** The Toaster, mounted once sonner has loaded for a toast (never on the server). */
export function Toasts(props: ToasterProps) {
  const module = useSyncExternalStore(
    subscribe,
    () => loaded,
    () => undefined,
  )
  if (!module) return null
  const { Toaster } = module
  return <Toaster {...props} />
}
