import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { intentAction } from '#app/actions/intent-action.server'
import { requireRole } from '#app/auth/guards.server'
import { portalUrl } from '#app/billing/billing-checkout.server'
import { requestPlan, withdrawOwnPlanRequest } from '#app/billing/upgrade-requests.server'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { TeamPage } from '#app/components/teams/team-page'
import {
  addMemberByEmail,
  cancelInvitation,
  changeMemberRole,
  createTeam,
  removeMember,
  removeTeam,
  renameTeam,
  type TeamSuccess,
  upgradePlan,
} from '#app/teams/manage-teams.server'
import { TEAM_PAGE_ROLES } from '#app/teams/team-access.server'
import { teamPageLoader } from '#app/teams/team-page-loader.server'
import { PLANS_VIEW_PATH, teamPagePath } from '#app/validation/team-paths'
import { TeamIntentSchema } from '#app/validation/teams'

export const meta: MetaFunction = () => [{ title: 'Team' }]

export const loader = teamPageLoader

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
      // Without Stripe: a request the agency's admins answer (ADR 079).
      'request-plan': async (value, { tenant, user }) => ({
        toast: await requestPlan(tenant, user, value.plan),
        redirectTo: PLANS_VIEW_PATH,
      }),
      'withdraw-plan-request': async (_value, { tenant, user }) => ({
        toast: await withdrawOwnPlanRequest(tenant, user),
        redirectTo: PLANS_VIEW_PATH,
      }),
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
