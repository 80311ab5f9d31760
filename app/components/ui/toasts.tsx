// Toasts without sonner in the first download: sonner (about 10 KB gzipped) is fetched the first
// time a toast is shown, and its Toaster is mounted then. sonner's store replays the toasts that
// were created before the Toaster subscribed, so nothing shown early is lost. The public card page
// stays within its JavaScript budget this way (issue 16; docs/decisions/021-card-page-javascript.md).

import { lazy, Suspense, useSyncExternalStore } from 'react'
import type { ExternalToast, ToasterProps } from 'sonner'

type Sonner = typeof import('sonner')

let sonner: Promise<Sonner> | undefined
const listeners = new Set<() => void>()

function loadSonner() {
  if (!sonner) {
    sonner = import('sonner')
    for (const listener of listeners) listener()
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
    void loadSonner().then(({ toast }) =>
      kind === 'message' ? toast(title, options) : toast[kind](title, options),
    )
  }
}

/** sonner's toast() for what this app uses: message, success, error, info. */
export const toast = Object.assign(shower('message'), {
  success: shower('success'),
  error: shower('error'),
  info: shower('info'),
})

const LazyToaster = lazy(() => loadSonner().then(({ Toaster }) => ({ default: Toaster })))

/** The Toaster, mounted once a toast has been asked for (never on the server). */
export function Toasts(props: ToasterProps) {
  const wanted = useSyncExternalStore(
    subscribe,
    () => sonner !== undefined,
    () => false,
  )
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <LazyToaster {...props} />
    </Suspense>
  )
}
