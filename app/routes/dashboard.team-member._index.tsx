import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireRole } from '#app/auth/guards.server'
import { AREA_ROLES } from '#app/auth/roles'
import { RoleDashboard } from '#app/components/dashboard/role-dashboard'
import { countUserCardsAndContacts } from '#app/models/stats.server'
import { withTenant } from '#drizzle/db.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES['team-member'])
  const counts = await withTenant(tenant.id, (tx) =>
    countUserCardsAndContacts(tx, tenant.id, user.id),
  )
  return json({ firstName: user.firstName, counts, offerOnboarding: !user.onboardingCompletedAt })
}

export default function TeamMemberDashboard() {
  const { firstName, counts, offerOnboarding } = useLoaderData<typeof loader>()
  return (
    <RoleDashboard
      offerOnboarding={offerOnboarding}
      title="Team Member Dashboard"
      greeting={`Welcome back, ${firstName || 'there'}!`}
      stats={[
        { label: 'Digital cards', value: counts.cards },
        { label: 'Contacts', value: counts.contacts },
      ]}
      actions={[
        { label: 'Digital Cards', to: '/dashboard/team-member/digital-cards' },
        { label: 'QR Codes', to: '/qrcode' },
        { label: 'Contacts', to: '/contacts' },
      ]}
    />
  )
}
