import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { intentAction } from '#app/actions/intent-action.server'
import { requireRole } from '#app/auth/guards.server'
import { loadBillingSummary, portalUrl } from '#app/billing/billing-checkout.server'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { TeamPage } from '#app/components/teams/team-page'
import {
  addMemberByEmail,
  cancelInvitation,
  changeMemberRole,
  createTeam,
  loadTeamPage,
  removeMember,
  removeTeam,
  renameTeam,
  type TeamSuccess,
  upgradePlan,
} from '#app/teams/manage-teams.server'
import { canPayOnline } from '#app/teams/payment.server'
import { TEAM_PAGE_ROLES } from '#app/teams/team-access.server'
import { hasTeamFeatures } from '#app/validation/plans'
import { teamPagePath } from '#app/validation/team-paths'
import { TeamIntentSchema } from '#app/validation/teams'

export const meta: MetaFunction = () => [{ title: 'Team' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
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
    checkout: url.searchParams.get('checkout'),
    userId: user.id,
    teams: page.teams,
    selected: page.selected,
    now: new Date().toISOString(),
  })
}

export async function action({ request, context }: ActionFunctionArgs) {
  return intentAction(request, {
    guard: () => requireRole(request, context, TEAM_PAGE_ROLES),
    schema: TeamIntentSchema,
    intents: {
      'create-team': (value, { tenant, user }) => onTeamPage(createTeam(tenant, user, value)),
      'update-team': (value, { tenant, user }) =>
        onTeamPage(renameTeam(tenant, user, value.teamId, value)),
      'delete-team': (value, { tenant, user }) =>
        onTeamPage(removeTeam(tenant, user, value.teamId)),
      'add-member': (value, { tenant, user }) => onTeamPage(addMemberByEmail(tenant, user, value)),
      'change-role': (value, { tenant, user }) => onTeamPage(changeMemberRole(tenant, user, value)),
      'remove-member': (value, { tenant, user }) => onTeamPage(removeMember(tenant, user, value)),
      'cancel-invitation': (value, { tenant, user }) =>
        onTeamPage(cancelInvitation(tenant, user, value)),
      // Stripe Checkout, or the portal for an account that already pays (ADR 051).
      upgrade: (value, { tenant, user }) => upgradePlan(tenant, user, value.plan),
      'billing-portal': async (_value, { tenant, user }) => ({
        redirectTo: await portalUrl(tenant, user),
      }),
    },
    redirectTo: teamPagePath(null),
  })
}

/** Every team change lands on the page of the team it changed (or the list after a delete). */
async function onTeamPage(change: Promise<TeamSuccess>) {
  const done = await change
  return { toast: done.toast, redirectTo: teamPagePath(done.teamId) }
}

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function TeamRoute() {
  return <TeamPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load teams' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
