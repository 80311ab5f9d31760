import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { TeamMemberSettings } from '#app/components/settings/pages'
import {
  SettingsLoadError,
  settingsHandle,
  settingsShouldRevalidate,
} from '#app/components/settings/settings-page'
import {
  loadTeamMemberSettings,
  teamMemberSettingsAction,
} from '#app/settings/settings-route.server'

export const meta: MetaFunction = () => [{ title: 'Team Member Settings' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadTeamMemberSettings(request, context)
}

export async function action({ request, context }: ActionFunctionArgs) {
  return teamMemberSettingsAction(request, context)
}

export default function Page() {
  const data = useLoaderData<typeof loader>()
  return (
    <SignedInLayout>
      <TeamMemberSettings {...data} />
    </SignedInLayout>
  )
}

export const handle = settingsHandle
export const shouldRevalidate = settingsShouldRevalidate
export const ErrorBoundary = SettingsLoadError
