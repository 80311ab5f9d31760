import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, dashboardHandle } from '#app/components/dashboard/stats-failure'
import { teamMemberDashboard } from '#app/dashboard/dashboard.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  teamMemberDashboard(request, context)

export default function TeamMemberDashboard() {
  const { firstName, stats, offerOnboarding, now } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      area="team-member"
      offerOnboarding={offerOnboarding}
      title="Team Member Dashboard"
      firstName={firstName}
      stats={stats}
      chartTitle="Views of your end users' cards per day"
      emptyText="No activity yet. The cards, views and contacts of the end users you manage will show here."
      now={now}
      actions={[
        { label: 'Digital Cards', to: '/dashboard/team-member/digital-cards' },
        { label: 'QR Codes', to: '/qrcode' },
        { label: 'Contacts', to: '/contacts' },
        { label: 'Analytics', to: '/dashboard/analytics' },
      ]}
    />
  )
}

export const handle = dashboardHandle
export const ErrorBoundary = DashboardLoadError
