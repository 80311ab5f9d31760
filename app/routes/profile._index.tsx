// Every profile screen: the role areas' /profile/{area}, which re-export this module. The path
// picks the screen (app/profile/screens.ts); its tabs are built here once. /profile and any
// other profile path lead to the person's own screen (ADR 078), so the home tile, the menu and
// old links all open the same one.
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from '@remix-run/node'
import { type ShouldRevalidateFunction, useLoaderData, useLocation } from '@remix-run/react'
import {
  Bell,
  CreditCard,
  History,
  KeyRound,
  type LucideIcon,
  Palette,
  ScanLine,
  UserRound,
  Users,
} from 'lucide-react'
import type { ReactNode } from 'react'
import { offerSignedInCache } from '#app/cache/signed-in-page-cache.server'
import { DataExportPanel } from '#app/components/account/data-export-panel'
import { DeleteAccountPanel } from '#app/components/account/delete-account-panel'
import { TwoFactorLink } from '#app/components/auth/two-factor'
import { useRootData } from '#app/components/layout/root-data'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { ActivityList } from '#app/components/profile/activity-list'
import { BusinessCardPanel } from '#app/components/profile/business-card-panel'
import { ChangePasswordForm } from '#app/components/profile/change-password-form'
import { NotificationsForm } from '#app/components/profile/notifications-form'
import { PersonalInfoForm } from '#app/components/profile/personal-info-form'
import {
  ProfilePage,
  type ProfileTab,
  profileClientAction,
  profileShouldRevalidate,
} from '#app/components/profile/profile-tabs'
import {
  AgencyBrandingPanel,
  CardScansPanel,
  MyUsersPanel,
  TeamsPanel,
} from '#app/components/profile/role-panels'
import { useProfileResult } from '#app/components/profile/use-profile-result'
import { UserAccountsPanel } from '#app/components/user-accounts/user-accounts-panel'
import { loadProfile, ownProfilePath, profileAction } from '#app/profile/profile-route.server'
import { PROFILE_SCREENS, type ProfileTabId, profileVariantOfPath } from '#app/profile/screens'
import { USER_ACCOUNTS_ROLES, USER_ACCOUNTS_TAB } from '#app/user-accounts/user-accounts'
import { loadUserAccounts, wantsUserAccounts } from '#app/user-accounts/user-accounts.server'
import { rolePaths } from '#app/validation/roles'

const screenOf = (request: Request) => profileVariantOfPath(new URL(request.url).pathname)

export const meta: MetaFunction = ({ matches, location }) => {
  const variant = profileVariantOfPath(location.pathname)
  if (!variant) return []
  const screen = PROFILE_SCREENS[variant]
  if (!screen.titleWithProduct) return [{ title: screen.documentTitle }]
  const name = (matches[0]?.data as { branding?: { name: string } } | undefined)?.branding?.name
  return [{ title: name ? `${screen.documentTitle} · ${name}` : screen.documentTitle }]
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const variant = screenOf(request)
  // One profile screen per person (issue 41 point 11): a path of no area opens theirs.
  if (!variant) throw redirect(await ownProfilePath(request, context))
  const screen = PROFILE_SCREENS[variant]
  // The end user's screen shows only their own rows (ADR 109); the others list other people's.
  if (variant === 'end-user') offerSignedInCache(context)
  const data = await loadProfile(request, context, screen.roles, screen.load)
  // Only when the tab is asked for: a super admin's list is an audited cross-tenant read.
  const accounts = wantsUserAccounts(request) ? await loadUserAccounts(request, context) : null
  return { ...data, accounts, variant }
}

export async function action({ request, context }: ActionFunctionArgs) {
  // A form posted to /profile (a page from before ADR 078) is still saved, for whoever posts it;
  // its redirect back then leads to the person's screen.
  const variant = screenOf(request)
  return profileAction(request, context, variant ? PROFILE_SCREENS[variant].roles : undefined)
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

const ICONS: Record<ProfileTabId, LucideIcon> = {
  personal: UserRound,
  security: KeyRound,
  card: CreditCard,
  activity: History,
  scans: ScanLine,
  users: Users,
  branding: Palette,
  teams: Users,
  notifications: Bell,
}

export default function ProfileRoute() {
  const data = useLoaderData<typeof loader>()
  const { profile, role, notifications, accounts, variant } = data
  const screen = PROFILE_SCREENS[variant]
  const productName = useRootData()?.branding.name ?? ''
  const profileResult = useProfileResult('profile')
  const notificationsResult = useProfileResult('notifications')
  const passwordResult = useProfileResult('password')
  // A new location (after a save) starts the forms afresh from the saved values.
  const { key } = useLocation()
  const contents: Record<ProfileTabId, () => ReactNode> = {
    personal: () => <PersonalInfoForm key={key} profile={profile} lastResult={profileResult} />,
    security: () => (
      <div className="flex flex-col gap-6">
        <ChangePasswordForm key={key} lastResult={passwordResult} />
        <TwoFactorLink />
        <DataExportPanel />
        {/* Last: the one step that cannot be undone. */}
        <DeleteAccountPanel />
      </div>
    ),
    // The card as it is shown, with a link to its editor: the profile repeats none of the
    // card's fields (issue 41 point 11, ADR 078).
    card: () => (
      <BusinessCardPanel
        card={data.card}
        productName={productName}
        digitalCardsPath={rolePaths(role).digitalCards}
        showVcard={screen.vcard}
      />
    ),
    activity: () => <ActivityList items={data.activity} tracking={data.activityTracking} />,
    scans: () => <CardScansPanel scans={data.scans} />,
    users: () => <MyUsersPanel users={data.assignedUsers} />,
    branding: () =>
      data.organizationBranding ? (
        <AgencyBrandingPanel
          branding={data.organizationBranding}
          brandingPath={data.agencyScreens?.branding ?? null}
        />
      ) : null,
    teams: () => <TeamsPanel teams={data.organizationTeams} screens={data.agencyScreens} />,
    notifications: () => (
      <NotificationsForm key={key} preferences={notifications} lastResult={notificationsResult} />
    ),
  }
  const tabs: ProfileTab[] = screen.tabs.map(({ id, label }) => ({
    id,
    label,
    icon: ICONS[id],
    content: contents[id](),
  }))
  // Spec (roles §2.4): the tab exists for super admins and agency admins, on their one profile
  // screen. Anyone else who asks for it by URL is shown the spec's restriction (§2.5), no rows.
  if (USER_ACCOUNTS_ROLES.includes(role) || accounts?.status === 'restricted') {
    tabs.push({
      id: USER_ACCOUNTS_TAB,
      label: 'User Accounts',
      icon: Users,
      content: <UserAccountsPanel data={accounts} />,
    })
  }
  return (
    <SignedInLayout>
      <ProfilePage title={screen.title} subtitle={screen.subtitle} tabs={tabs} />
    </SignedInLayout>
  )
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Could not load your profile. Please try again later.' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
