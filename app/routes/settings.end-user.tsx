import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { EndUserSettings } from '#app/components/settings/pages'
import { endUserSettingsAction, loadEndUserSettings } from '#app/settings/settings-route.server'

export const meta: MetaFunction = () => [{ title: 'Account Settings' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadEndUserSettings(request, context)
}

export async function action({ request, context }: ActionFunctionArgs) {
  return endUserSettingsAction(request, context)
}

export default function Page() {
  const data = useLoaderData<typeof loader>()
  return (
    <SignedInLayout>
      <EndUserSettings {...data} />
    </SignedInLayout>
  )
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Could not load your settings. Please try again later.' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
