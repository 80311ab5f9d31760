import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AnalyticsPage } from '#app/components/dashboard/analytics-page'
import { RouteLoadError } from '#app/components/layout/route-error'
import { ANALYTICS_CSV_PATH, analyticsLoader } from '#app/dashboard/analytics-route.server'

export const meta: MetaFunction = () => [{ title: 'Analytics' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return data(
    { ...(await analyticsLoader(request, context)), csvPath: ANALYTICS_CSV_PATH },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export default function AnalyticsRoute() {
  const { analytics, chosen, scopes, csvPath } = useLoaderData<typeof loader>()
  return <AnalyticsPage analytics={analytics} chosen={chosen} scopes={scopes} csvPath={csvPath} />
}

/** What a failed load says, here or in a layout's boundary. */
export const handle = { loadError: 'Failed to load analytics' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
