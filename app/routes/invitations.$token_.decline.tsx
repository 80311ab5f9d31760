import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { InvitationPage } from '#app/components/teams/invitation-page'
import {
  INVITATION_HEADERS,
  invitationAction,
  invitationLoader,
} from '#app/teams/invitation-route.server'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/utils/client-failure'

export const headers: HeadersFunction = () => INVITATION_HEADERS

export const meta: MetaFunction = () => [{ title: 'Decline team invitation' }]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  invitationLoader(request, context, params.token ?? '')

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  invitationAction(request, context, params.token ?? '', 'decline')

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function InvitationRoute() {
  return <InvitationPage data={useLoaderData<typeof loader>()} answer="decline" />
}
