import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireRole } from '#app/auth/guards.server'
import { AREA_ROLES, rolePaths } from '#app/auth/roles'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { countOrganizationPeople } from '#app/models/stats.server'
import { withTenant } from '#drizzle/db.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES['super-admin'])
  const people = await withTenant(tenant.id, (tx) => countOrganizationPeople(tx, tenant.id))
  return json({ firstName: user.firstName, role: user.role, people })
}

export default function SuperAdminDashboard() {
  const { firstName, role, people } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      title="Super Admin Dashboard"
      greeting={`Welcome back, ${firstName || 'there'}!`}
      stats={[
        { label: 'Platform end users', value: people.endUsers },
        { label: 'Admin team', value: people.total - people.endUsers },
      ]}
      // Admins hand out business cards too (ADR 007): their own cards and contacts.
      actions={[
        { label: 'My Digital Cards', to: rolePaths(role).digitalCards },
        { label: 'Contacts', to: '/contacts' },
      ]}
    />
  )
}
