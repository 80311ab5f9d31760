import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { offerSignedInCache } from '#app/cache/signed-in-page-cache.server'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { DashboardLoadError, dashboardHandle } from '#app/components/dashboard/stats-failure'
import { endUserDashboard } from '#app/dashboard/dashboard.server'
import { TEAM_PAGE_PATH } from '#app/validation/team-paths'

export const loader = ({ request, context }: LoaderFunctionArgs) => {
  offerSignedInCache(context)
  return endUserDashboard(request, context)
}

export default function EndUserDashboard() {
  const { firstName, stats, now, offerOnboarding } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      area="end-user"
      offerOnboarding={offerOnboarding}
      title="Dashboard"
      firstName={firstName}
      stats={stats}
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
