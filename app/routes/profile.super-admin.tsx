import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { Bell, KeyRound, UserRound } from 'lucide-react'
import { AREA_ROLES } from '#app/auth/roles'
import { RouteLoadError } from '#app/components/layout/route-error'
import { ChangePasswordForm } from '#app/components/profile/change-password-form'
import { NotificationsForm } from '#app/components/profile/notifications-form'
import { PersonalInfoForm } from '#app/components/profile/personal-info-form'
import { loadProfile, profileAction } from '#app/components/profile/profile.server'
import {
  ProfilePage,
  type ProfileTab,
  profileClientAction,
  profileShouldRevalidate,
} from '#app/components/profile/profile-tabs'
import { useProfileResult } from '#app/components/profile/use-profile-result'

const ROLES = AREA_ROLES['super-admin']

export const meta: MetaFunction = () => [{ title: 'Super Admin Profile' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadProfile(request, context, ROLES)
}

export async function action({ request, context }: ActionFunctionArgs) {
  return profileAction(request, context, ROLES)
}

export const clientAction = profileClientAction
export const shouldRevalidate = profileShouldRevalidate

export default function SuperAdminProfile() {
  const { profile, notifications } = useLoaderData<typeof loader>()
  const profileResult = useProfileResult('profile')
  const notificationsResult = useProfileResult('notifications')
  const passwordResult = useProfileResult('password')
  const { key } = useLocation()
  const tabs: ProfileTab[] = [
    {
      id: 'personal',
      label: 'Personal Info',
      icon: UserRound,
      content: <PersonalInfoForm key={key} profile={profile} lastResult={profileResult} />,
    },
    {
      id: 'security',
      label: 'Security',
      icon: KeyRound,
      content: <ChangePasswordForm key={key} lastResult={passwordResult} />,
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
      title="Super Admin Profile"
      subtitle="Manage your account, security and notifications"
      tabs={tabs}
    />
  )
}

export function ErrorBoundary() {
  return <RouteLoadError message="Could not load your profile. Please try again later." />
}
