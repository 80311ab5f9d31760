// The layout of every /dashboard/* page: the sidebar beside the page (spec §2.2). Each page's own
// loader still guards its role; this one only needs a signed-in user and the sidebar's cookie.
import type { LoaderFunctionArgs } from '@remix-run/node'
import {
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import { requireUser } from '#app/auth/guards.server'
import { countPlanRequestsFor } from '#app/billing/upgrade-requests.server'
import { isRequestFailure } from '#app/components/client-failure'
import { AppErrorContent } from '#app/components/layout/app-error'
import { SidebarLayout } from '#app/components/layout/app-sidebar'
import { useRootData } from '#app/components/layout/root-data'
import { RouteLoadError, useLoadErrorMessage } from '#app/components/layout/route-error'
import { TeamPageLoading } from '#app/components/teams/team-page'
import { readSidebarOpen } from '#app/navigation/sidebar-state'
import { keepDataAcrossTabs } from '#app/utils/tab-navigation'
import { TEAM_PAGE_PATH } from '#app/validation/team-paths'

// The sidebar's data does not depend on the page's chosen tab.
export const shouldRevalidate = keepDataAcrossTabs

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The layout has no page of its own: /dashboard is an unknown path like any other (spec §2.1).
  if (/^\/dashboard\/?$/.test(new URL(request.url).pathname)) {
    throw new Response('Not Found', { status: 404 })
  }
  const { tenant, user } = await requireUser(request, context)
  return {
    role: user.role,
    sidebarOpen: readSidebarOpen(request.headers.get('Cookie')),
    // The End Users entry's badge for the admins who answer plan requests (ADR 079).
    planRequests: await countPlanRequestsFor(tenant, user.role),
  }
}

/** Spec §2.9: on the way to the Team page, 'Loading team information...' stands in for it. */
function useArrivingAtTeamPage() {
  const navigation = useNavigation()
  const location = useLocation()
  return (
    navigation.state === 'loading' &&
    !navigation.formData &&
    navigation.location.pathname === TEAM_PAGE_PATH &&
    location.pathname !== TEAM_PAGE_PATH
  )
}

export default function DashboardLayout() {
  const { role, sidebarOpen } = useLoaderData<typeof loader>()
  const arrivingAtTeamPage = useArrivingAtTeamPage()
  return (
    <SidebarLayout
      role={role}
      productName={useRootData()?.branding.name ?? ''}
      initialOpen={sidebarOpen}
    >
      {arrivingAtTeamPage ? <TeamPageLoading /> : <Outlet />}
    </SidebarLayout>
  )
}

/** A page's error (a 403 for another role's area, say) shows inside the sidebar when it can. */
export function ErrorBoundary() {
  const error = useRouteError()
  const layout = useRouteLoaderData<typeof loader>('routes/dashboard')
  const productName = useRootData()?.branding.name ?? ''
  const loadError = useLoadErrorMessage()
  const content =
    loadError && isRequestFailure(error) ? (
      <RouteLoadError message={loadError.message} toast={loadError.toast} />
    ) : (
      <AppErrorContent error={error} />
    )
  if (!layout) return content
  return (
    <SidebarLayout role={layout.role} productName={productName} initialOpen={layout.sidebarOpen}>
      {content}
    </SidebarLayout>
  )
}
