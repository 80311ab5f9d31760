import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RouteLoadError } from '#app/components/layout/route-error'
import { ScimPage } from '#app/components/scim/scim-page'
import { scimPageAction, scimPageLoader } from '#app/scim/scim-page-route.server'

export const meta: MetaFunction = () => [{ title: 'Directory Sync' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => scimPageLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => scimPageAction(request, context)

export default function ScimRoute() {
  return <ScimPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Could not load Directory Sync. Please try again later.' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
