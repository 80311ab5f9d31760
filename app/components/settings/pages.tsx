// The four settings variants (roles-teams-admin.md §2.6), each a set of tabs over SettingsForm.
import { Form, useNavigation } from '@remix-run/react'
import { Bell, Code, CreditCard, Languages, Palette, Settings, Shield, Users } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
import type { BillingSummary } from '#app/billing/billing-summary'
import { BillingSection } from '#app/components/teams/billing-section'
import { type PendingPlanRequest, PlanRequestBanner } from '#app/components/teams/plans-view'
import { StatusButton } from '#app/components/ui/status-button'
import type { LanguageSettings } from '#app/validation/languages'
import type { NotificationPreferences } from '#app/validation/notifications'
import {
  AgencyBillingSchema,
  AgencyTeamSchema,
  type AgencyTeamSettings,
  AppearanceSchema,
  type AppearanceSettings,
  EndUserPrivacySchema,
  GeneralSettingsSchema,
  type PrivacySettings,
  SecuritySettingsSchema,
  TeamMemberNotificationsSchema,
  TeamMemberPrivacySchema,
} from '#app/validation/settings'
import { LanguageSettingsPanel } from './language-settings'
import { type SettingsField, SettingsForm } from './settings-form'
import { ApiPanel, SettingsPage, SettingsPanel, type SettingsTab } from './settings-page'

const api = { id: 'api', label: 'API', icon: Code, content: <ApiPanel /> }

const showContact: SettingsField[] = [
  {
    kind: 'toggle',
    name: 'showEmail',
    label: 'Show email',
    description: 'Your email address appears on your public card and in its contact file.',
  },
  {
    kind: 'toggle',
    name: 'showPhone',
    label: 'Show phone',
    description: 'Your phone number appears on your public card and in its contact file.',
  },
]

const visibilityOptions = {
  public: { value: 'public', label: 'Public: anyone with the link' },
  contacts: {
    value: 'contacts',
    label: 'Contacts: only people in your contacts, signed in with that email',
  },
  team: { value: 'team', label: 'Team: only members of your teams, signed in' },
  private: { value: 'private', label: 'Private: only you' },
}

type TabHead = Omit<SettingsTab, 'content'> & { description: string }

/** A tab whose content sits in a panel titled with the tab's label. */
function panelTab({ id, label, icon, description }: TabHead, content: ReactNode): SettingsTab {
  return {
    id,
    label,
    icon,
    content: (
      <SettingsPanel title={label} description={description}>
        {content}
      </SettingsPanel>
    ),
  }
}

/** A tab that is one settings form in its panel: the tab's id is the form's intent. */
function formTab({
  id,
  label,
  icon,
  description,
  ...form
}: TabHead & Omit<ComponentProps<typeof SettingsForm>, 'intent'>): SettingsTab {
  return panelTab({ id, label, icon, description }, <SettingsForm intent={id} {...form} />)
}

/** The Privacy tab of both variants that own a card. */
const privacyTab: TabHead = {
  id: 'privacy',
  label: 'Privacy',
  icon: Shield,
  description:
    'Choose who sees your card and what it shows. Anyone your choice leaves out finds no card at your link and no contact file to download.',
}

export function EndUserSettings({
  privacy,
  appearance,
}: {
  privacy: PrivacySettings
  appearance: AppearanceSettings
}) {
  return (
    <SettingsPage
      title="Account Settings"
      subtitle="Manage your privacy, how the app looks and your integrations"
      tabs={[
        formTab({
          ...privacyTab,
          schema: EndUserPrivacySchema,
          defaultValue: {
            ...privacy,
            // 'team' exists only for team members; an end user sees its nearest choice.
            visibility: privacy.visibility === 'team' ? 'contacts' : privacy.visibility,
          },
          fields: [
            {
              kind: 'select',
              name: 'visibility',
              label: 'Profile visibility',
              options: [
                visibilityOptions.public,
                visibilityOptions.contacts,
                visibilityOptions.private,
              ],
            },
            ...showContact,
          ],
        }),
        formTab({
          id: 'appearance',
          label: 'Appearance',
          icon: Palette,
          description: 'How the app looks on this account.',
          schema: AppearanceSchema,
          defaultValue: appearance,
          fields: [
            {
              kind: 'select',
              name: 'theme',
              label: 'Theme',
              options: [
                { value: 'light', label: 'Light' },
                { value: 'dark', label: 'Dark' },
                { value: 'system', label: 'System' },
              ],
            },
            {
              kind: 'select',
              name: 'fontSize',
              label: 'Font size',
              options: [
                { value: 'small', label: 'Small' },
                { value: 'medium', label: 'Medium' },
                { value: 'large', label: 'Large' },
              ],
            },
            {
              kind: 'toggle',
              name: 'animations',
              label: 'Animations',
              description: 'Motion in menus, dialogs and transitions. Off reduces motion.',
            },
          ],
        }),
        api,
      ]}
    />
  )
}

/** What a Billing tab sells and shows (ADR 051), from its loader. */
export type PlanOffer = {
  name: string
  sells: string
  price: number
  /** What the current plan allows. */
  includes: string
  /** What the plan sold allows. */
  offers: string
  current: boolean
  canPayOnline: boolean
  grantedBy: string
  /** Asked of the agency's admins when nobody pays online (ADR 079): the request waiting. */
  request?: { pending: PendingPlanRequest | null }
}

/**
 * A settings screen's Billing tab: the plan it has, the plan it sells (bought through Stripe
 * Checkout, else granted by an admin, as the text says), and the team page's billing section
 * (payment state, masked card, invoices, the portal) once Stripe is configured.
 */
function PlanBilling({
  plan,
  billing,
  checkout,
  canBuy,
}: {
  plan: PlanOffer
  billing: BillingSummary | null
  checkout: string | null
  canBuy: boolean
}) {
  const navigation = useNavigation()
  const buying = navigation.formData?.get('intent') === 'upgrade'
  const requesting = navigation.formData?.get('intent') === 'request-plan'
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid gap-3 rounded-lg border border-gray-200 p-4 sm:grid-cols-2 dark:border-gray-800">
        <div>
          <dt className="text-sm text-gray-600 dark:text-gray-400">Current plan</dt>
          <dd className="font-medium" data-testid="settings-plan">
            {plan.name}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-gray-600 dark:text-gray-400">Includes</dt>
          <dd className="font-medium">{plan.includes}</dd>
        </div>
      </dl>
      {plan.current ? null : (
        <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="plan-offer">
          {plan.sells}: ${plan.price}/month, {plan.offers.toLowerCase()}.
        </p>
      )}
      {plan.current || !canBuy ? null : plan.canPayOnline ? (
        <Form method="POST" className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="upgrade" />
          <StatusButton pending={buying} pendingText="Opening checkout...">
            Upgrade to {plan.sells}
          </StatusButton>
          <span className="text-sm text-gray-600 dark:text-gray-400">
            Paid monthly by card through Stripe.
          </span>
        </Form>
      ) : plan.request?.pending ? (
        <PlanRequestBanner request={plan.request.pending} />
      ) : plan.request ? (
        <Form method="POST" className="flex flex-col items-start gap-2">
          <input type="hidden" name="intent" value="request-plan" />
          <p className="text-sm text-gray-600 dark:text-gray-400">{plan.grantedBy}</p>
          <StatusButton pending={requesting} pendingText="Sending...">
            Request {plan.sells}
          </StatusButton>
        </Form>
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400">{plan.grantedBy}</p>
      )}
      {billing ? (
        <BillingSection
          billing={billing}
          planName={plan.name}
          free={!plan.current}
          checkout={checkout}
          heading={false}
        />
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400">
          {canBuy
            ? 'No payment provider is connected: there is no card on file and no invoices to show.'
            : "The card and invoices are shown to your agency's admins."}
        </p>
      )}
    </div>
  )
}

export function TeamMemberSettings({
  notifications,
  privacy,
  plan,
  billing,
  checkout,
}: {
  notifications: NotificationPreferences
  privacy: PrivacySettings
  plan: PlanOffer
  billing: BillingSummary | null
  checkout: string | null
}) {
  return (
    <SettingsPage
      title="Team Member Settings"
      subtitle="Manage your notifications, privacy, billing and integrations"
      tabs={[
        formTab({
          id: 'notifications',
          label: 'Notifications',
          icon: Bell,
          description: 'Which emails you get from us.',
          schema: TeamMemberNotificationsSchema,
          defaultValue: notifications,
          fields: [
            {
              kind: 'toggle',
              name: 'notifications',
              label: 'Email Notifications',
              description: 'Turn every email notification on or off.',
            },
            {
              kind: 'toggle',
              name: 'newContactAlerts',
              label: 'New Contact Alerts',
              description:
                'Email me when someone connects with me or shares their details on my card.',
            },
            {
              kind: 'toggle',
              name: 'teamUpdates',
              label: 'Team Updates',
              // What a team member is told (app/notifications/team-member-update.server.ts).
              description:
                'Email me when someone else assigns an end user to me or takes one off my list, deletes an end user I manage, changes my role, or deactivates or reactivates my account.',
            },
            {
              kind: 'toggle',
              name: 'marketingEmails',
              label: 'Marketing Communications',
              // The agency's announcements (app/announcements/send-announcements.server.ts).
              description:
                'Announcements your agency writes to its users, off unless you turn it on. Each one has a one-click unsubscribe link.',
            },
          ],
        }),
        formTab({
          ...privacyTab,
          schema: TeamMemberPrivacySchema,
          defaultValue: privacy,
          fields: [
            {
              kind: 'select',
              name: 'visibility',
              label: 'Profile visibility',
              options: Object.values(visibilityOptions),
            },
            ...showContact,
            {
              kind: 'toggle',
              name: 'activityTracking',
              label: 'Activity tracking',
              description:
                'Show a list of your recent activity on your profile. Off: the Activity tab shows none. Administrators still see changes in the audit log.',
            },
          ],
        }),
        panelTab(
          {
            id: 'billing',
            label: 'Billing',
            icon: CreditCard,
            description: 'Your plan: how many end users can be assigned to you.',
          },
          <PlanBilling plan={plan} billing={billing} checkout={checkout} canBuy />,
        ),
        api,
      ]}
    />
  )
}

export function AgencySettings({
  canEdit,
  team,
  billing,
  agencyPlan,
  stripe,
  checkout,
}: {
  canEdit: boolean
  team: AgencyTeamSettings
  billing: { billingEmail: string }
  agencyPlan: PlanOffer
  stripe: BillingSummary | null
  checkout: string | null
}) {
  return (
    <SettingsPage
      title="Agency Settings"
      subtitle="Manage your team defaults, billing and integrations"
      tabs={[
        formTab({
          id: 'team',
          label: 'Team',
          icon: Users,
          description:
            "How people join the teams of your agency's users. The default team role is preselected when someone is added or invited.",
          schema: AgencyTeamSchema,
          defaultValue: team,
          readOnly: !canEdit,
          fields: [
            {
              kind: 'select',
              name: 'defaultTeamRole',
              label: 'Default team role',
              options: [
                { value: 'admin', label: 'Admin' },
                { value: 'manager', label: 'Manager' },
                { value: 'member', label: 'Member' },
                { value: 'viewer', label: 'Viewer' },
              ],
            },
            {
              kind: 'toggle',
              name: 'autoApprove',
              label: 'Auto-approve new members',
              description:
                'Adding someone to a team always sends them an invitation, and they join when they accept it, with or without an account here: nobody joins a team, or has their cards follow its template, without agreeing. This setting no longer skips that step.',
            },
            {
              kind: 'toggle',
              name: 'membersMayInvite',
              label: 'Allow members to invite others',
              description:
                'Team managers can add and invite people, not only team admins. Off: only team admins can.',
            },
            {
              kind: 'toggle',
              name: 'requireStaffTwoFactor',
              label: 'Require two-factor authentication for agency staff',
              description:
                "Your agency's admins and members sign in with their password and a code from an authenticator app; anyone without one sets it up at their next sign-in.",
            },
          ],
        }),
        panelTab(
          {
            id: 'billing',
            label: 'Billing',
            icon: CreditCard,
            description: "Your agency's plan and billing contact.",
          },
          <div className="flex flex-col gap-6">
            <PlanBilling plan={agencyPlan} billing={stripe} checkout={checkout} canBuy={canEdit} />
            <SettingsForm
              intent="billing"
              schema={AgencyBillingSchema}
              defaultValue={billing}
              readOnly={!canEdit}
              fields={[
                { kind: 'input', name: 'billingEmail', label: 'Billing email', type: 'email' },
              ]}
            />
          </div>,
        ),
        api,
      ]}
    />
  )
}

export function SuperAdminSettings({
  settings,
}: {
  settings: {
    platformName: string
    platformUrl: string
    maintenanceMode: boolean
    privacyPolicyUrl: string
    termsOfServiceUrl: string
    supportEmail: string
    accessibilityEmail: string
    sessionTimeoutMinutes: number
    requireTwoFactorForAdmins: boolean
    passwordRotation: boolean
    languages: LanguageSettings
  }
}) {
  return (
    <SettingsPage
      title="System Settings"
      subtitle="Manage the platform's name, address, availability and security"
      tabs={[
        formTab({
          id: 'general',
          label: 'General',
          icon: Settings,
          description: 'The platform as everyone sees it.',
          schema: GeneralSettingsSchema,
          defaultValue: settings,
          fields: [
            { kind: 'input', name: 'platformName', label: 'Platform name', type: 'text' },
            {
              kind: 'input',
              name: 'platformUrl',
              label: 'Platform URL',
              type: 'url',
              hint: 'Links to the root domain that the platform builds start with this address (scheme, host and port; a path is left out): in emails, QR codes and shared card links. It does not change the address the platform answers on.',
            },
            {
              kind: 'toggle',
              name: 'maintenanceMode',
              label: 'Maintenance mode',
              description:
                'Everyone but super admins sees a maintenance page on every site until you turn it off.',
            },
            {
              kind: 'input',
              name: 'privacyPolicyUrl',
              label: 'Privacy Policy URL',
              type: 'url',
              hint: 'Shown in the footer, on the sign-up form and in every email, here and on every agency site that sets none of its own: use an address that does not name the platform if agencies must not show it.',
            },
            {
              kind: 'input',
              name: 'termsOfServiceUrl',
              label: 'Terms of Service URL',
              type: 'url',
              hint: 'The default for agencies that set none, like the privacy policy.',
            },
            {
              kind: 'input',
              name: 'supportEmail',
              label: 'Support email',
              type: 'email',
              hint: 'The default for agencies that set none, like the privacy policy.',
            },
            {
              kind: 'input',
              name: 'accessibilityEmail',
              label: 'Accessibility email',
              type: 'email',
              hint: 'Named on the accessibility statement (/accessibility) for requests about access; empty: the support email. The default for agencies that set neither.',
            },
          ],
        }),
        formTab({
          id: 'security',
          label: 'Security',
          icon: Shield,
          description: 'Sessions and sign-in rules.',
          schema: SecuritySettingsSchema,
          defaultValue: settings,
          fields: [
            {
              kind: 'input',
              name: 'sessionTimeoutMinutes',
              label: 'Session timeout (minutes)',
              type: 'number',
              hint: 'A session without activity for this long signs out.',
            },
            {
              kind: 'toggle',
              name: 'requireTwoFactorForAdmins',
              label: 'Two-factor authentication for admins',
              description:
                'Super admins and agency admins sign in with their password and a code from an authenticator app (or a recovery code). An admin without one sets it up at their next sign-in.',
            },
            {
              kind: 'toggle',
              name: 'passwordRotation',
              label: 'Password rotation every 90 days',
              description:
                'Anyone whose password is more than 90 days old chooses a new one at sign-in, before anything else.',
            },
          ],
        }),
        panelTab(
          {
            id: 'languages',
            label: 'Languages',
            icon: Languages,
            description: 'The languages visitors are spoken to in.',
          },
          <LanguageSettingsPanel
            settings={settings.languages}
            description="The platform's card pages and sign-in pages, and every agency's that chose none: each visitor gets the first of these their browser asks for, else the default."
          />,
        ),
        api,
      ]}
    />
  )
}
