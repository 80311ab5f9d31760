import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { AdminTeamPage } from '#app/components/people/admin-team-page'
import { agencyTeamAction, agencyTeamLoader } from '#app/people/people-route.server'

export const meta: MetaFunction = () => [{ title: 'Team Members' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  agencyTeamLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  agencyTeamAction(request, context)

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function AgencyTeamRoute() {
  return <AdminTeamPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load team members' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
