// The layout of every /dashboard/* page: the sidebar beside the page (spec §2.2). Each page's own
// loader still guards its role; this one only needs a signed-in user and the sidebar's cookie.
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useLoaderData, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { requireUser } from '#app/auth/guards.server'
import { SidebarLayout } from '#app/components/layout/app-sidebar'
import { readSidebarOpen } from '#app/navigation/sidebar-state'
import { AppErrorContent, useRootData } from '#app/root'

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The layout has no page of its own: /dashboard is an unknown path like any other (spec §2.1).
  if (/^\/dashboard\/?$/.test(new URL(request.url).pathname)) {
    throw new Response('Not Found', { status: 404 })
  }
  const { user } = await requireUser(request, context)
  return json({ role: user.role, sidebarOpen: readSidebarOpen(request.headers.get('Cookie')) })
}

export default function DashboardLayout() {
  const { role, sidebarOpen } = useLoaderData<typeof loader>()
  return (
    <SidebarLayout
      role={role}
      productName={useRootData()?.branding.name ?? ''}
      initialOpen={sidebarOpen}
    >
      <Outlet />
    </SidebarLayout>
  )
}

/** A page's error (a 403 for another role's area, say) shows inside the sidebar when it can. */
export function ErrorBoundary() {
  const error = useRouteError()
  const layout = useRouteLoaderData<typeof loader>('routes/dashboard')
  const productName = useRootData()?.branding.name ?? ''
  if (!layout) return <AppErrorContent error={error} />
  return (
    <SidebarLayout role={layout.role} productName={productName} initialOpen={layout.sidebarOpen}>
      <AppErrorContent error={error} />
    </SidebarLayout>
  )
}
