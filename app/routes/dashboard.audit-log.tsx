import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { auditLogLoader } from '#app/audit/audit-log-route.server'
import { AuditLogPage } from '#app/components/audit/audit-log-page'
import { RouteLoadError } from '#app/components/layout/route-error'

export const meta: MetaFunction = () => [{ title: 'Audit Log' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return data(await auditLogLoader(request, context), {
    headers: { 'Cache-Control': 'private, no-store' },
  })
}

export default function AuditLogRoute() {
  return <AuditLogPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load the audit log' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
