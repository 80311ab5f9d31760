import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SsoSettingsPage } from '#app/components/sso/sso-settings-page'
import { ssoSettingsAction, ssoSettingsLoader } from '#app/sso/sso-settings-route.server'

export const meta: MetaFunction = () => [{ title: 'Single Sign-On' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  ssoSettingsLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  ssoSettingsAction(request, context)

export default function SsoSettingsRoute() {
  return <SsoSettingsPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load the single sign-on settings' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
