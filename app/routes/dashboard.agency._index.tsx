import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RecentActivity } from '#app/components/dashboard/recent-activity'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, STATS_FAILURE } from '#app/components/dashboard/stats-failure'
import { ViewsChart } from '#app/components/dashboard/views-chart'
import { agencyDashboard } from '#app/dashboard/dashboard.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await agencyDashboard(request, context)
}

export default function AgencyDashboard() {
  const { firstName, agency, stats, digitalCardsPath, auditLog, now } =
    useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      title={`${agency} Dashboard`}
      greeting={`Welcome back, ${firstName}!`}
      stats={
        stats && [
          { id: 'end-users', label: 'End users', value: stats.people.endUsers },
          { id: 'team-members', label: 'Team members', value: stats.people.teamMembers },
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
        { label: 'Team Members', to: '/dashboard/agency/team' },
        { label: 'End Users', to: '/dashboard/agency/users' },
        { label: 'My Digital Cards', to: digitalCardsPath },
        { label: 'Contacts', to: '/contacts' },
        ...(auditLog ? [{ label: 'Audit Log', to: '/dashboard/audit-log' }] : []),
      ]}
    >
      {stats ? (
        <>
          <ViewsChart days={stats.viewsBySource} title={`Card views per day at ${agency}`} />
          <RecentActivity
            items={stats.activity}
            now={now}
            emptyText={`No activity yet. New accounts and cards at ${agency} will show here.`}
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
