import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, dashboardHandle } from '#app/components/dashboard/stats-failure'
import { agencyDashboard } from '#app/dashboard/dashboard.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  agencyDashboard(request, context)

export default function AgencyDashboard() {
  const { firstName, agency, stats, digitalCardsPath, auditLog, now } =
    useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      area="agency"
      title={`${agency} Dashboard`}
      firstName={firstName}
      stats={stats}
      chartTitle={`Card views per day at ${agency}`}
      emptyText={`No activity yet. New accounts and cards at ${agency} will show here.`}
      now={now}
      // Admins hand out business cards too (ADR 007): their own cards and contacts.
      actions={[
        { label: 'Team Members', to: '/dashboard/agency/team' },
        { label: 'End Users', to: '/dashboard/agency/users' },
        { label: 'My Digital Cards', to: digitalCardsPath },
        { label: 'Contacts', to: '/contacts' },
        { label: 'Analytics', to: '/dashboard/analytics' },
        ...(auditLog ? [{ label: 'Audit Log', to: '/dashboard/audit-log' }] : []),
      ]}
    />
  )
}

export const handle = dashboardHandle
export const ErrorBoundary = DashboardLoadError
