import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RouteLoadError } from '#app/components/layout/route-error'
import { TemplatesPage } from '#app/components/templates/templates-page'
import { templatesAction, templatesLoader } from '#app/templates/templates-route.server'

export const meta: MetaFunction = () => [{ title: 'Card Templates' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  templatesLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  templatesAction(request, context)

export default function TemplatesRoute() {
  return <TemplatesPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load card templates' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
