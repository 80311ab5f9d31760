import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { contactsStat, viewsStat } from '#app/components/dashboard/stat-card'
import { DashboardLoadError, dashboardHandle } from '#app/components/dashboard/stats-failure'
import { endUserDashboard } from '#app/dashboard/dashboard.server'
import { TEAM_PAGE_PATH } from '#app/validation/team-paths'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  endUserDashboard(request, context)

export default function EndUserDashboard() {
  const { firstName, stats, now, offerOnboarding } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      offerOnboarding={offerOnboarding}
      title="Dashboard"
      firstName={firstName}
      stats={stats}
      figures={(figures) => [
        { id: 'cards', label: 'Digital cards', value: figures.cards },
        contactsStat(figures.contacts),
        viewsStat(figures.views),
        // A person in no team has no teammates to count yet (issue 41 point 10).
        ...(figures.inTeam
          ? [{ id: 'team-members', label: 'Team members', value: figures.teammates }]
          : []),
      ]}
      chartTitle="Card views per day by source"
      now={now}
      actions={[
        { label: 'Digital Cards', to: '/dashboard/end-user/digital-cards' },
        { label: 'Team', to: TEAM_PAGE_PATH },
        { label: 'My QR Code', to: '/qrcode' },
        { label: 'Contacts', to: '/contacts' },
        { label: 'Analytics', to: '/dashboard/analytics' },
      ]}
    />
  )
}

export const handle = dashboardHandle
export const ErrorBoundary = DashboardLoadError
