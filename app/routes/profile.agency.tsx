import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { Bell, Palette, UserRound, Users } from 'lucide-react'
import { AREA_ROLES } from '#app/auth/roles'
import { RouteLoadError } from '#app/components/layout/route-error'
import { NotificationsForm } from '#app/components/profile/notifications-form'
import { PersonalInfoForm } from '#app/components/profile/personal-info-form'
import { loadProfile, profileAction } from '#app/components/profile/profile.server'
import {
  ProfilePage,
  type ProfileTab,
  profileClientAction,
  profileShouldRevalidate,
} from '#app/components/profile/profile-tabs'
import { AgencyBrandingPanel, TeamsPanel } from '#app/components/profile/role-panels'
import { useProfileResult } from '#app/components/profile/use-profile-result'

const ROLES = AREA_ROLES.agency

export const meta: MetaFunction = () => [{ title: 'Agency Profile' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadProfile(request, context, ROLES, {
    organizationTeams: true,
    organizationBranding: true,
  })
}

export async function action({ request, context }: ActionFunctionArgs) {
  return profileAction(request, context, ROLES)
}

export const clientAction = profileClientAction
export const shouldRevalidate = profileShouldRevalidate

export default function AgencyProfile() {
  const { profile, notifications, organizationTeams, organizationBranding, agencyScreens } =
    useLoaderData<typeof loader>()
  const profileResult = useProfileResult('profile')
  const notificationsResult = useProfileResult('notifications')
  const { key } = useLocation()
  const tabs: ProfileTab[] = [
    {
      id: 'personal',
      label: 'Personal Info',
      icon: UserRound,
      content: <PersonalInfoForm key={key} profile={profile} lastResult={profileResult} />,
    },
    {
      id: 'branding',
      label: 'Agency Branding',
      icon: Palette,
      content: organizationBranding ? (
        <AgencyBrandingPanel
          branding={organizationBranding}
          brandingPath={agencyScreens?.branding ?? null}
        />
      ) : null,
    },
    {
      id: 'teams',
      label: 'Teams',
      icon: Users,
      content: <TeamsPanel teams={organizationTeams} screens={agencyScreens} />,
    },
    {
      id: 'notifications',
      label: 'Notifications',
      icon: Bell,
      content: (
        <NotificationsForm key={key} preferences={notifications} lastResult={notificationsResult} />
      ),
    },
  ]
  return (
    <ProfilePage
      title="Agency Profile"
      subtitle="Manage your details, your agency's branding and its teams"
      tabs={tabs}
    />
  )
}

export function ErrorBoundary() {
  return <RouteLoadError message="Could not load your profile. Please try again later." />
}
