import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { MyEndUsersPage } from '#app/components/team-admin/my-end-users-page'
import { myEndUsersAction, myEndUsersLoader } from '#app/team-admin/my-end-users-route.server'

export const meta: MetaFunction = () => [{ title: 'My End Users' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  myEndUsersLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  myEndUsersAction(request, context)

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function MyEndUsersRoute() {
  return <MyEndUsersPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load your end users' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
