import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { type ShouldRevalidateFunction, useLoaderData, useLocation } from '@remix-run/react'
import { Bell, CreditCard, History, KeyRound, UserRound, Users } from 'lucide-react'
import { rolePaths } from '#app/auth/roles'
import { RouteLoadError } from '#app/components/layout/route-error'
import { ActivityList } from '#app/components/profile/activity-list'
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
import { useProfileResult } from '#app/components/profile/use-profile-result'
import { useRootData } from '#app/root'
import { USER_ACCOUNTS_ROLES, USER_ACCOUNTS_TAB } from '#app/user-accounts/user-accounts'
import { loadUserAccounts, wantsUserAccounts } from '#app/user-accounts/user-accounts.server'
import { UserAccountsPanel } from '#app/user-accounts/user-accounts-panel'

export const meta: MetaFunction = ({ matches }) => {
  const name = (matches[0]?.data as { branding?: { name: string } } | undefined)?.branding?.name
  return [{ title: name ? `Your Profile · ${name}` : 'Your Profile' }]
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const loaded = await loadProfile(request, context, undefined, { card: true, activity: true })
  // Only when the tab is asked for: a super admin's list is an audited cross-tenant read.
  const accounts = wantsUserAccounts(request) ? await loadUserAccounts(request, context) : null
  return { ...loaded, accounts }
}

export async function action({ request, context }: ActionFunctionArgs) {
  return profileAction(request, context)
}

export const clientAction = profileClientAction

/** Tabs switch without a request, except into User Accounts, whose list is loaded on demand. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => {
  const { currentUrl, nextUrl, formMethod } = args
  const opensAccounts =
    nextUrl.searchParams.get('tab') === USER_ACCOUNTS_TAB &&
    currentUrl.searchParams.get('tab') !== USER_ACCOUNTS_TAB
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && opensAccounts) return true
  return profileShouldRevalidate(args)
}

export default function ProfileRoute() {
  const { profile, card, activity, activityTracking, role, notifications, accounts } =
    useLoaderData<typeof loader>()
  const productName = useRootData()?.branding.name ?? ''
  const profileResult = useProfileResult('profile')
  const notificationsResult = useProfileResult('notifications')
  const passwordResult = useProfileResult('password')
  // A new location (after a save) starts the forms afresh from the saved values.
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
      id: 'card',
      label: 'Business Card',
      icon: CreditCard,
      content: (
        <BusinessCardPanel
          card={card}
          productName={productName}
          digitalCardsPath={rolePaths(role).digitalCards}
        />
      ),
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
  // Spec (roles §2.4): the tab exists for super admins and agency admins. Anyone else who asks
  // for it by URL is shown the spec's restriction (§2.5), with no rows.
  if (USER_ACCOUNTS_ROLES.includes(role) || accounts?.status === 'restricted') {
    tabs.push({
      id: USER_ACCOUNTS_TAB,
      label: 'User Accounts',
      icon: Users,
      content: <UserAccountsPanel data={accounts} />,
    })
  }
  return (
    <ProfilePage
      title="Your Profile"
      subtitle="Manage your profile and digital business card"
      tabs={tabs}
    />
  )
}

export function ErrorBoundary() {
  return <RouteLoadError message="Could not load your profile. Please try again later." />
}
