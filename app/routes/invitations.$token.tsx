// An invitation link: /invitations/{token} accepts, /invitations/{token}/decline (which
// re-exports this module) declines; the path picks the answer.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { InvitationPage } from '#app/components/teams/invitation-page'
import {
  INVITATION_HEADERS,
  invitationAction,
  invitationLoader,
} from '#app/teams/invitation-route.server'
import { invitationAnswerOfPath } from '#app/validation/team-paths'

export const headers: HeadersFunction = () => INVITATION_HEADERS

export const meta: MetaFunction = ({ location }) => [
  {
    title:
      invitationAnswerOfPath(location.pathname) === 'decline'
        ? 'Decline team invitation'
        : 'Team invitation',
  },
]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  invitationLoader(request, context, params.token ?? '')

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  invitationAction(
    request,
    context,
    params.token ?? '',
    invitationAnswerOfPath(new URL(request.url).pathname),
  )

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function InvitationRoute() {
  const answer = invitationAnswerOfPath(useLocation().pathname)
  return <InvitationPage data={useLoaderData<typeof loader>()} answer={answer} />
}
