import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useLocation } from '@remix-run/react'
import { Bell, CreditCard, KeyRound, ScanLine, UserRound } from 'lucide-react'
import { AREA_ROLES, rolePaths } from '#app/auth/roles'
import { RouteLoadError } from '#app/components/layout/route-error'
import { BusinessCardPanel } from '#app/components/profile/business-card-panel'
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
import { CardScansPanel } from '#app/components/profile/role-panels'
import { useProfileResult } from '#app/components/profile/use-profile-result'
import { useRootData } from '#app/root'

const ROLES = AREA_ROLES['end-user']

export const meta: MetaFunction = () => [{ title: 'My Profile' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadProfile(request, context, ROLES, { card: true, scans: true })
}

export async function action({ request, context }: ActionFunctionArgs) {
  return profileAction(request, context, ROLES)
}

export const clientAction = profileClientAction
export const shouldRevalidate = profileShouldRevalidate

export default function EndUserProfile() {
  const { profile, card, role, notifications, scans } = useLoaderData<typeof loader>()
  const productName = useRootData()?.branding.name ?? ''
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
      label: 'Change Password',
      icon: KeyRound,
      content: <ChangePasswordForm key={key} lastResult={passwordResult} />,
    },
    {
      id: 'card',
      label: 'Digital Card',
      icon: CreditCard,
      content: (
        <BusinessCardPanel
          card={card}
          productName={productName}
          digitalCardsPath={rolePaths(role).digitalCards}
          showVcard
        />
      ),
    },
    { id: 'scans', label: 'Card Scans', icon: ScanLine, content: <CardScansPanel scans={scans} /> },
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
      title="My Profile"
      subtitle="Manage your details, your password and your digital card"
      tabs={tabs}
    />
  )
}

export function ErrorBoundary() {
  return <RouteLoadError message="Could not load your profile. Please try again later." />
}
