import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RecentActivity } from '#app/components/dashboard/recent-activity'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, STATS_FAILURE } from '#app/components/dashboard/stats-failure'
import { ViewsChart } from '#app/components/dashboard/views-chart'
import { endUserDashboard } from '#app/dashboard/dashboard.server'
import { TEAM_PAGE_PATH } from '#app/validation/team-paths'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await endUserDashboard(request, context)
}

export default function EndUserDashboard() {
  const { firstName, stats, now, offerOnboarding } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      offerOnboarding={offerOnboarding}
      title="Dashboard"
      greeting={`Welcome back, ${firstName}!`}
      stats={
        stats && [
          { id: 'cards', label: 'Digital cards', value: stats.cards },
          {
            id: 'contacts',
            label: 'Contacts gained (last 7 days)',
            value: stats.contacts.current,
            previous: stats.contacts.previous,
          },
          {
            id: 'views',
            label: 'Card views (last 7 days)',
            value: stats.views.current,
            previous: stats.views.previous,
          },
          { id: 'team-members', label: 'Team members', value: stats.teammates },
        ]
      }
      actions={[
        { label: 'Digital Cards', to: '/dashboard/end-user/digital-cards' },
        { label: 'Team', to: TEAM_PAGE_PATH },
        { label: 'My QR Code', to: '/qrcode' },
        { label: 'Contacts', to: '/contacts' },
      ]}
    >
      {stats ? (
        <>
          <ViewsChart days={stats.viewsBySource} title="Card views per day by source" />
          <RecentActivity items={stats.activity} now={now} />
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
