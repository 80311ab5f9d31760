// The team page's loader (/dashboard/end-user/team), out of its route so the page component
// types its data without importing a route (issue 40 point 1); the route exports it as its loader.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/auth/guards.server'
import { loadBillingSummary } from '#app/billing/billing-checkout.server'
import { pendingPlanRequestOf } from '#app/billing/upgrade-requests.server'
import { loadTeamPage } from '#app/teams/manage-teams.server'
import { canPayOnline } from '#app/teams/payment.server'
import { TEAM_PAGE_ROLES } from '#app/teams/team-access.server'
import { hasTeamFeatures } from '#app/validation/plans'

export async function teamPageLoader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await requireRole(request, context, TEAM_PAGE_ROLES)
  const url = new URL(request.url)
  const page = await loadTeamPage(tenant, user, url.searchParams.get('team'))
  // Spec §2.9: someone in a team sees it; anyone else the upgrade page. A paid plan without a
  // team yet shows the (empty) management view, where the first team is created.
  const manage = page.teams.length > 0 || hasTeamFeatures(user.plan)
  const view =
    url.searchParams.get('view') === 'plans' || !manage ? ('plans' as const) : ('manage' as const)
  return data({
    view,
    plan: user.plan,
    // Without Stripe the upgrade dialog says who grants plans instead.
    canPayOnline: canPayOnline(),
    // The plans view's billing section (Stripe asked only there): plan, card, invoices.
    billing: view === 'plans' ? await loadBillingSummary(tenant, user) : null,
    // A plan asked of the agency's admins and not answered yet (ADR 079).
    planRequest: view === 'plans' ? await pendingPlanRequestOf(tenant, user) : null,
    checkout: url.searchParams.get('checkout'),
    userId: user.id,
    teams: page.teams,
    selected: page.selected,
    now: new Date().toISOString(),
  })
}
