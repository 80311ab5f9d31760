import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { Bell, History, KeyRound, UserRound, Users } from 'lucide-react'
import { AREA_ROLES } from '#app/auth/roles'
import { RouteLoadError } from '#app/components/layout/route-error'
import { ActivityList } from '#app/components/profile/activity-list'
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
import { MyUsersPanel } from '#app/components/profile/role-panels'
import { useProfileResult } from '#app/components/profile/use-profile-result'

const ROLES = AREA_ROLES['team-member']

export const meta: MetaFunction = () => [{ title: 'Team Member Profile' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadProfile(request, context, ROLES, { activity: true, assignedUsers: true })
}

export async function action({ request, context }: ActionFunctionArgs) {
  return profileAction(request, context, ROLES)
}

export const clientAction = profileClientAction
export const shouldRevalidate = profileShouldRevalidate

export default function TeamMemberProfile() {
  const { profile, activity, activityTracking, notifications, assignedUsers } =
    useLoaderData<typeof loader>()
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
      id: 'users',
      label: 'My Users',
      icon: Users,
      content: <MyUsersPanel users={assignedUsers} />,
    },
    {
      id: 'activity',
      label: 'Activity',
      icon: History,
      content: <ActivityList items={activity} tracking={activityTracking} />,
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
      title="Team Member Profile"
      subtitle="Manage your details, your security and the users you look after"
      tabs={tabs}
    />
  )
}

export function ErrorBoundary() {
  return <RouteLoadError message="Could not load your profile. Please try again later." />
}
