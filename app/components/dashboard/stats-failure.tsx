import { useRouteError } from '@remix-run/react'
import { TriangleAlert } from 'lucide-react'
import { useEffect } from 'react'
import { isRequestFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { toast } from '#app/components/ui/toasts'

/** Spec §8's failure toast for the dashboards. */
const STATS_FAILURE = 'Could not load dashboard statistics'

function useStatsFailureToast(failed: boolean) {
  useEffect(() => {
    if (!failed) return
    // Deferred so the Toaster has mounted on a first page load; one id so it is never doubled.
    const timer = setTimeout(() => toast.error(STATS_FAILURE, { id: 'dashboard-stats' }), 0)
    return () => clearTimeout(timer)
  }, [failed])
}

/** In place of the figures when their query failed: the rest of the page stays usable. */
export function StatsUnavailable() {
  useStatsFailureToast(true)
  return (
    <div
      role="alert"
      data-testid="stats-error"
      className="flex items-center gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <TriangleAlert aria-hidden className="h-5 w-5 shrink-0" />
      <p>{STATS_FAILURE}. Please try again in a moment.</p>
    </div>
  )
}

/** What a dashboard's failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const dashboardHandle = { loadError: STATS_FAILURE, loadErrorToast: true }

/** A dashboard's error boundary: a client navigation whose data request failed says so too. */
export function DashboardLoadError() {
  useStatsFailureToast(isRequestFailure(useRouteError()))
  return <RouteLoadError message={STATS_FAILURE} />
}
