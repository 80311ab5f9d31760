import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { scanCardAction, scanCardLoader } from '#app/cards/scan-card-route.server'
import { ScanCardPage } from '#app/components/contacts/scan-card-page'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'

export const meta: MetaFunction = () => [{ title: 'Scan a card' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => scanCardLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => scanCardAction(request, context)

export default function ScanCardRoute() {
  return (
    <SignedInLayout>
      <ScanCardPage />
    </SignedInLayout>
  )
}

export const handle = { loadError: 'Failed to load the card scanner' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
