import { Link as RemixLink } from '@remix-run/react'
import { Link } from 'lucide-react'
import type { ReactNode } from 'react'
import { RouteLoadError } from '#app/components/layout/route-error'
import {
  type ProfileTab,
  profileShouldRevalidate,
  TabbedPage,
} from '#app/components/profile/profile-tabs'
import { Button } from '#app/components/ui/button'
import { Panel } from '#app/components/ui/panel'
import { Subsection } from '#app/components/ui/titled-section'

export type SettingsTab = ProfileTab

/** What a settings screen's failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
/** Choosing a tab keeps the settings as loaded: no loader reads the tab. */
export const settingsShouldRevalidate = profileShouldRevalidate

export const settingsHandle = { loadError: 'Could not load your settings. Please try again later.' }

/** A settings screen's error boundary. */
export function SettingsLoadError() {
  return <RouteLoadError message={settingsHandle.loadError} />
}

/** The frame of every settings page: heading, subtitle and the tabs (links to `?tab=`). */
export function SettingsPage(props: { title: string; subtitle: string; tabs: SettingsTab[] }) {
  return <TabbedPage {...props} />
}

export function SettingsPanel(props: { title: string; description?: string; children: ReactNode }) {
  return <Panel {...props} />
}

/** The API tab (§2.6): the CRM integration card, which leads to /api-settings. */
export function ApiPanel() {
  return (
    <Panel title="API & Integrations" description="Connect the tools you already use.">
      <div className="flex flex-col gap-4">
        <Subsection
          id="crm-integration-title"
          icon={Link}
          title="CRM Integration"
          layout="flex flex-col items-start gap-2"
        >
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Connect to a CRM to automatically add new contacts you meet.
          </p>
          <Button asChild variant="secondary" size="sm">
            <RemixLink to="/api-settings">Set up CRM integration</RemixLink>
          </Button>
        </Subsection>
        <Subsection
          id="other-integrations-title"
          title="Other integrations"
          layout="flex flex-col gap-2"
        >
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Export your contacts as CSV or vCard from the Contacts page.
          </p>
        </Subsection>
      </div>
    </Panel>
  )
}
