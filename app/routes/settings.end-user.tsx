import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { EndUserSettings } from '#app/components/settings/pages'
import {
  SettingsLoadError,
  settingsHandle,
  settingsShouldRevalidate,
} from '#app/components/settings/settings-page'
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

export const handle = settingsHandle
export const shouldRevalidate = settingsShouldRevalidate
export const ErrorBoundary = SettingsLoadError
