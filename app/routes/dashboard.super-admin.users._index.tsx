import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { EndUsersPage } from '#app/components/people/end-users-page'
import { endUsersAction, endUsersLoader } from '#app/people/people-route.server'

export const meta: MetaFunction = () => [{ title: 'End Users' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => endUsersLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => endUsersAction(request, context)

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function EndUsersRoute() {
  return <EndUsersPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load users' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
