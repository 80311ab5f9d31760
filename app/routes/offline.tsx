import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { OfflinePage } from '#app/components/offline/offline-page'
import { offlineLoader } from '#app/leads/offline-route.server'

export const meta: MetaFunction = () => [{ title: 'My cards offline' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => offlineLoader(request, context)

export default function OfflineRoute() {
  const { cards } = useLoaderData<typeof loader>()
  return (
    <SignedInLayout>
      <OfflinePage cards={cards} />
    </SignedInLayout>
  )
}

export const handle = { loadError: 'Failed to load your cards for offline use' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
