import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { apiPageAction, apiPageLoader } from '#app/api/api-page-route.server'
import { ApiKeysPage } from '#app/components/api/api-keys-page'
import { RouteLoadError } from '#app/components/layout/route-error'

export const meta: MetaFunction = () => [{ title: 'API' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => apiPageLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => apiPageAction(request, context)

export default function ApiKeysRoute() {
  return <ApiKeysPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Could not load the API keys. Please try again later.' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
