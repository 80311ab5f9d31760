import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, dashboardHandle } from '#app/components/dashboard/stats-failure'
import { superAdminDashboard } from '#app/dashboard/dashboard.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  superAdminDashboard(request, context)

export default function SuperAdminDashboard() {
  const { firstName, stats, digitalCardsPath, now } = useLoaderData<typeof loader>()
  const platform = stats?.scope === 'platform'
  return (
    <RoleDashboard
      area="super-admin"
      title="Super Admin Dashboard"
      firstName={firstName}
      stats={stats}
      chartTitle={platform ? 'Card views per day across the platform' : 'Card views per day'}
      emptyText={
        platform
          ? 'No activity yet. New agencies, accounts and cards will show here.'
          : 'No activity yet. New accounts and cards will show here.'
      }
      now={now}
      // Admins hand out business cards too (ADR 007): their own cards and contacts.
      actions={[
        { label: 'My Digital Cards', to: digitalCardsPath },
        { label: 'Contacts', to: '/contacts' },
        { label: 'Analytics', to: '/dashboard/analytics' },
        { label: 'Audit Log', to: '/dashboard/audit-log' },
      ]}
    />
  )
}

export const handle = dashboardHandle
export const ErrorBoundary = DashboardLoadError
