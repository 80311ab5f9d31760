import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RecentActivity } from '#app/components/dashboard/recent-activity'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, STATS_FAILURE } from '#app/components/dashboard/stats-failure'
import { ViewsChart } from '#app/components/dashboard/views-chart'
import { teamMemberDashboard } from '#app/dashboard/dashboard.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await teamMemberDashboard(request, context)
}

export default function TeamMemberDashboard() {
  const { firstName, stats, offerOnboarding, now } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      offerOnboarding={offerOnboarding}
      title="Team Member Dashboard"
      greeting={`Welcome back, ${firstName}!`}
      stats={
        stats && [
          { id: 'end-users', label: 'Assigned end users', value: stats.endUsers },
          { id: 'cards', label: 'Their digital cards', value: stats.cards },
          {
            id: 'views',
            label: 'Card views (last 7 days)',
            value: stats.views.current,
            previous: stats.views.previous,
          },
          {
            id: 'contacts',
            label: 'Contacts gained (last 7 days)',
            value: stats.contacts.current,
            previous: stats.contacts.previous,
          },
        ]
      }
      actions={[
        { label: 'Digital Cards', to: '/dashboard/team-member/digital-cards' },
        { label: 'QR Codes', to: '/qrcode' },
        { label: 'Contacts', to: '/contacts' },
      ]}
    >
      {stats ? (
        <>
          <ViewsChart days={stats.viewsBySource} title="Views of your end users' cards per day" />
          <RecentActivity
            items={stats.activity}
            now={now}
            emptyText="No activity yet. The cards, views and contacts of the end users you manage will show here."
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
