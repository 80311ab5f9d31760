import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { apiReferenceLoader } from '#app/api/api-page-route.server'
import { ApiReferencePage, type OpenApiDocument } from '#app/components/api/api-reference-page'
import { RouteLoadError } from '#app/components/layout/route-error'

export const meta: MetaFunction = () => [{ title: 'API reference' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  apiReferenceLoader(request, context)

export default function ApiReferenceRoute() {
  const { document } = useLoaderData<typeof loader>()
  return <ApiReferencePage document={document as unknown as OpenApiDocument} />
}

/** What a failed load says, here or in a layout's boundary. */
export const handle = { loadError: 'Could not load the API reference. Please try again later.' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
