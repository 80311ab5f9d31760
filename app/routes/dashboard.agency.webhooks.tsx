import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RouteLoadError } from '#app/components/layout/route-error'
import { WebhooksPage } from '#app/components/webhooks/webhooks-page'
import { webhooksPageAction, webhooksPageLoader } from '#app/webhooks/webhooks-page-route.server'

export const meta: MetaFunction = () => [{ title: 'Webhooks' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  webhooksPageLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  webhooksPageAction(request, context)

export default function WebhooksRoute() {
  return <WebhooksPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Could not load Webhooks. Please try again later.' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
