import { useMatches, useRevalidator, useRouteError } from '@remix-run/react'
import { RefreshCw, TriangleAlert } from 'lucide-react'
import { useEffect } from 'react'
import { isRequestFailure } from '#app/components/client-failure'
import { AppErrorContent } from '#app/components/layout/app-error'
import {
  DATABASE_WARNING,
  isDatabaseErrorData,
  isDiskFullData,
} from '#app/components/layout/database-warning'
import { Button } from '#app/components/ui/button'
import { toast } from '#app/components/ui/toasts'

/**
 * A route's error boundary: when its data could not be loaded (network, 5xx) it says so in the
 * spec's words with 'Try Again'; any other error (404, 403, a tenant error) looks as everywhere.
 */
export function RouteLoadError({
  message,
  toast: withToast,
}: {
  message: string
  toast?: boolean
}) {
  const error = useRouteError()
  const revalidator = useRevalidator()
  const failed = isRequestFailure(error)
  useEffect(() => {
    if (!withToast || !failed) return
    // Deferred so the Toaster has mounted on a first page load; one id so it is never doubled.
    const timer = setTimeout(() => toast.error(message, { id: `load-error:${message}` }), 0)
    return () => clearTimeout(timer)
  }, [withToast, failed, message])
  if (!failed) return <AppErrorContent error={error} />
  const data =
    typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : null
  const database = isDatabaseErrorData(data)
  const diskFull = isDiskFullData(data) ? data.error : null
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <TriangleAlert aria-hidden className="h-10 w-10 text-red-600" />
      <h1 className="text-2xl font-semibold" data-testid="load-error">
        {message}
      </h1>
      <p className="text-gray-600 dark:text-gray-400">
        {diskFull ?? (database ? DATABASE_WARNING : 'Please check your connection and try again.')}
      </p>
      <Button
        type="button"
        variant="secondary"
        disabled={revalidator.state !== 'idle'}
        onClick={() => revalidator.revalidate()}
      >
        <RefreshCw aria-hidden className="h-4 w-4" /> Try Again
      </Button>
    </main>
  )
}

/**
 * The failed-load message of the deepest route being shown. Single fetch loads a navigation's
 * routes in one request, so when that request fails the error lands on the highest route loaded
 * (a layout), whose boundary then says what the page would have said.
 */
export function useLoadErrorMessage() {
  const matches = useMatches()
  for (const match of [...matches].reverse()) {
    const handle = match.handle as { loadError?: unknown; loadErrorToast?: unknown } | undefined
    if (typeof handle?.loadError === 'string') {
      return { message: handle.loadError, toast: handle.loadErrorToast === true }
    }
  }
  return undefined
}
