import { TriangleAlert, X } from 'lucide-react'
import { useEffect, useState } from 'react'

export const DATABASE_WARNING =
  'There seems to be an issue connecting to the database. Some features may be unavailable.'

const VISIBLE_MS = 10_000

/** Home page banner: asks the health check once and, on an error, shows the warning for 10 s. */
export function DatabaseWarningBanner() {
  const [visible, setVisible] = useState(false)
  useEffect(() => {
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    fetch('/api/health-check', { signal: controller.signal, cache: 'no-store' })
      .then((response) => response.ok)
      .catch(() => false)
      .then((healthy) => {
        if (healthy || controller.signal.aborted) return
        setVisible(true)
        timer = setTimeout(() => setVisible(false), VISIBLE_MS)
      })
    return () => {
      controller.abort()
      clearTimeout(timer)
    }
  }, [])
  if (!visible) return null
  return (
    <div
      role="alert"
      className="mx-auto mt-4 flex max-w-6xl items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <p className="flex-1">{DATABASE_WARNING}</p>
      <button
        type="button"
        onClick={() => setVisible(false)}
        className="rounded p-0.5 hover:bg-amber-100 focus-visible:outline focus-visible:outline-2 dark:hover:bg-amber-900"
        aria-label="Dismiss"
      >
        <X aria-hidden className="h-4 w-4" />
      </button>
    </div>
  )
}

export function isDatabaseErrorData(data: unknown): data is { databaseError: true } {
  return typeof data === 'object' && data !== null && 'databaseError' in data
}

/** The data layer's 503 for a write the disk could not take (drizzle/unavailable.server.ts). */
export function isDiskFullData(data: unknown): data is { diskFull: true; error: string } {
  return (
    typeof data === 'object' &&
    data !== null &&
    'diskFull' in data &&
    typeof (data as { error?: unknown }).error === 'string'
  )
}
