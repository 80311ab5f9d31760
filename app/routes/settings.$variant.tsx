// Every settings screen (roles-teams-admin.md §2.6): /settings/{area} and the dashboards'
// /dashboard/{area}/settings, which re-export this module. The path picks the screen
// (app/settings/settings-areas.ts); /settings/role and any other path show the default, the end-user
// variant, to every role (each also reaches its own through the sidebar and menu).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import {
  AgencySettings,
  EndUserSettings,
  SuperAdminSettings,
  TeamMemberSettings,
} from '#app/components/settings/pages'
import {
  SettingsLoadError,
  settingsHandle,
  settingsShouldRevalidate,
} from '#app/components/settings/settings-page'
import { SETTINGS_TITLES, settingsAreaOfPath } from '#app/settings/settings-areas'
import { settingsAction, settingsLoader } from '#app/settings/settings-route.server'

export const meta: MetaFunction = ({ location }) => [
  { title: SETTINGS_TITLES[settingsAreaOfPath(location.pathname) ?? 'end-user'] },
]

export const loader = ({ request, context }: LoaderFunctionArgs) => settingsLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => settingsAction(request, context)

function SettingsScreen() {
  const data = useLoaderData<typeof loader>()
  if (data.area === 'team-member') return <TeamMemberSettings {...data} />
  if (data.area === 'agency') return <AgencySettings {...data} />
  if (data.area === 'super-admin') {
    const { area: _, ...settings } = data
    return <SuperAdminSettings settings={settings} />
  }
  return <EndUserSettings {...data} />
}

export default function SettingsRoute() {
  return (
    <SignedInLayout>
      <SettingsScreen />
    </SignedInLayout>
  )
}

export const handle = settingsHandle
export const shouldRevalidate = settingsShouldRevalidate
export const ErrorBoundary = SettingsLoadError
