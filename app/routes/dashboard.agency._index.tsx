import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireRole } from '#app/auth/guards.server'
import { AREA_ROLES, rolePaths } from '#app/auth/roles'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { countOrganizationPeople } from '#app/models/stats.server'
import { withTenant } from '#drizzle/db.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES.agency)
  const people = await withTenant(tenant.id, (tx) => countOrganizationPeople(tx, tenant.id))
  return json({ firstName: user.firstName, role: user.role, agency: tenant.name, people })
}

export default function AgencyDashboard() {
  const { firstName, role, agency, people } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      title={`${agency} Dashboard`}
      greeting={`Welcome back, ${firstName || 'there'}!`}
      stats={[
        { label: 'End users', value: people.endUsers },
        { label: 'Team members', value: people.teamMembers },
      ]}
      // Admins hand out business cards too (ADR 007): their own cards and contacts.
      actions={[
        { label: 'My Digital Cards', to: rolePaths(role).digitalCards },
        { label: 'Contacts', to: '/contacts' },
      ]}
    />
  )
}
