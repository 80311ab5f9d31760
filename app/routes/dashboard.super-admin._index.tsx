import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RecentActivity } from '#app/components/dashboard/recent-activity'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, STATS_FAILURE } from '#app/components/dashboard/stats-failure'
import { ViewsChart } from '#app/components/dashboard/views-chart'
import { superAdminDashboard } from '#app/dashboard/dashboard.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await superAdminDashboard(request, context)
}

export default function SuperAdminDashboard() {
  const { firstName, stats, digitalCardsPath, now } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      title="Super Admin Dashboard"
      greeting={`Welcome back, ${firstName}!`}
      stats={
        stats && [
          { id: 'agencies', label: 'Agencies', value: stats.agencies },
          { id: 'end-users', label: 'End users', value: stats.endUsers },
          { id: 'cards', label: 'Digital cards', value: stats.cards },
          {
            id: 'views',
            label: 'Card views (last 7 days)',
            value: stats.views.current,
            previous: stats.views.previous,
          },
        ]
      }
      // Admins hand out business cards too (ADR 007): their own cards and contacts.
      actions={[
        { label: 'My Digital Cards', to: digitalCardsPath },
        { label: 'Contacts', to: '/contacts' },
        { label: 'Audit Log', to: '/dashboard/audit-log' },
      ]}
    >
      {stats ? (
        <>
          <ViewsChart
            days={stats.viewsBySource}
            title={
              stats.scope === 'platform'
                ? 'Card views per day across the platform'
                : 'Card views per day'
            }
          />
          <RecentActivity
            items={stats.activity}
            now={now}
            emptyText={
              stats.scope === 'platform'
                ? 'No activity yet. New agencies, accounts and cards will show here.'
                : 'No activity yet. New accounts and cards will show here.'
            }
          />
        </>
      ) : null}
    </RoleDashboard>
  )
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: STATS_FAILURE, loadErrorToast: true }

export function ErrorBoundary() {
  return <DashboardLoadError />
}
