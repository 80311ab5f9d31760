import { parseWithZod } from '@conform-to/zod/v4'
import {
  type ActionFunctionArgs,
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireRole } from '#app/auth/guards.server'
import { RateLimitedError, tooManyRequests } from '#app/auth/rate-limit.server'
import { RouteLoadError } from '#app/components/layout/route-error'
import { TeamPage } from '#app/components/teams/team-page'
import { readPlainForm } from '#app/media/uploads.server'
import { teamPagePath } from '#app/teams/paths'
import { canPayOnline } from '#app/teams/payment.server'
import { hasTeamFeatures } from '#app/teams/plans'
import { TEAM_PAGE_ROLES, TeamActionError } from '#app/teams/team-access.server'
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
} from '#app/teams/teams.server'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/utils/client-failure'
import { redirectWithToast } from '#app/utils/toast.server'
import { TeamIntentSchema } from '#app/validation/teams'

export const meta: MetaFunction = () => [{ title: 'Team' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await requireRole(request, context, TEAM_PAGE_ROLES)
  const url = new URL(request.url)
  const page = await loadTeamPage(tenant, user, url.searchParams.get('team'))
  // Spec §2.9: someone in a team sees it; anyone else the upgrade page. A paid plan without a
  // team yet shows the (empty) management view, where the first team is created.
  const manage = page.teams.length > 0 || hasTeamFeatures(user.plan)
  return json({
    view:
      url.searchParams.get('view') === 'plans' || !manage
        ? ('plans' as const)
        : ('manage' as const),
    plan: user.plan,
    // Until a payment provider is connected the upgrade dialog says who grants plans instead.
    canPayOnline: canPayOnline(),
    userId: user.id,
    teams: page.teams,
    selected: page.selected,
    now: new Date().toISOString(),
  })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { tenant, user } = await requireRole(request, context, TEAM_PAGE_ROLES)
  const submission = parseWithZod(await readPlainForm(request), { schema: TeamIntentSchema })
  if (submission.status !== 'success') {
    const errors = Object.values(submission.error ?? {}).flat()
    return json(
      {
        result: submission.reply(),
        intent: submission.payload.intent ?? null,
        error: errors[0] ?? 'Please check the form',
      },
      { status: 400 },
    )
  }
  const value = submission.value
  let done: TeamSuccess
  try {
    switch (value.intent) {
      case 'create-team':
        done = await createTeam(tenant, user, value)
        break
      case 'update-team':
        done = await renameTeam(tenant, user, value.teamId, value)
        break
      case 'delete-team':
        done = await removeTeam(tenant, user, value.teamId)
        break
      case 'add-member':
        done = await addMemberByEmail(tenant, user, value)
        break
      case 'change-role':
        done = await changeMemberRole(tenant, user, value)
        break
      case 'remove-member':
        done = await removeMember(tenant, user, value)
        break
      case 'cancel-invitation':
        done = await cancelInvitation(tenant, user, value)
        break
      case 'upgrade':
        done = await upgradePlan(tenant, user, value.plan)
        break
    }
  } catch (error) {
    // Past a send limit (an invitation re-sent too soon, too many emails): 429, nothing done.
    if (error instanceof RateLimitedError) {
      return tooManyRequests(error, {
        result: submission.reply({ formErrors: [error.message] }),
        intent: value.intent,
        error: error.message,
      })
    }
    if (!(error instanceof TeamActionError)) throw error
    return json(
      {
        result: submission.reply(
          error.field
            ? { fieldErrors: { [error.field]: [error.message] } }
            : { formErrors: [error.message] },
        ),
        intent: value.intent,
        error: error.message,
      },
      { status: error.status },
    )
  }
  return redirectWithToast(teamPagePath(done.teamId), { title: done.toast })
}

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function TeamRoute() {
  return <TeamPage {...useLoaderData<typeof loader>()} />
}

export function ErrorBoundary() {
  return <RouteLoadError message="Failed to load teams" />
}
