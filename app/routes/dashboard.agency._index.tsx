import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { viewsStat } from '#app/components/dashboard/stat-card'
import { DashboardLoadError, dashboardHandle } from '#app/components/dashboard/stats-failure'
import { agencyDashboard } from '#app/dashboard/dashboard.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  agencyDashboard(request, context)

export default function AgencyDashboard() {
  const { firstName, agency, stats, digitalCardsPath, auditLog, now } =
    useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      title={`${agency} Dashboard`}
      firstName={firstName}
      stats={stats}
      figures={(figures) => [
        { id: 'end-users', label: 'End users', value: figures.people.endUsers },
        { id: 'team-members', label: 'Team members', value: figures.people.teamMembers },
        { id: 'cards', label: 'Digital cards', value: figures.cards },
        viewsStat(figures.views),
      ]}
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
