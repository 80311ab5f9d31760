import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { brandingAction, loadBranding } from '#app/branding/branding-route.server'
import { BrandingPage } from '#app/components/branding/branding-page'
import { RouteLoadError } from '#app/components/layout/route-error'
import { profileShouldRevalidate } from '#app/components/profile/profile-tabs'

export const meta: MetaFunction = () => [{ title: 'Branding' }]

export const shouldRevalidate = profileShouldRevalidate

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadBranding(request, context)
}

export async function action({ request, context }: ActionFunctionArgs) {
  return brandingAction(request, context)
}

export default function Page() {
  const data = useLoaderData<typeof loader>()
  // A save that changed the saved values remounts the form with them.
  const key = JSON.stringify([data.branding, data.legal, data.domain.domain])
  return <BrandingPage key={key} {...data} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Could not load your branding. Please try again later.' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
