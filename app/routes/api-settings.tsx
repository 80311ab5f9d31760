// The CRM integration screen (accounts-cards-sharing.md §1 `/api-settings`): every signed-in
// user's own settings; the settings pages' API tabs lead here.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireUser } from '#app/auth/guards.server'
import { ApiSettingsPage } from '#app/components/crm/api-settings-page'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { apiSettingsAction, loadApiSettings } from '#app/crm/crm-settings-route.server'
import { API_SETTINGS_MESSAGES } from '#app/validation/api-settings'

export const meta: MetaFunction = () => [{ title: 'CRM Integration' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadApiSettings(await requireUser(request, context), request)
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  apiSettingsAction(request, context)

export default function Page() {
  const settings = useLoaderData<typeof loader>()
  const saved = [
    settings.shown,
    settings.provider,
    settings.hasKey,
    settings.keyLast4,
    settings.locationId,
    settings.enabled,
    settings.hubspot.tokenLast4,
    settings.hubspot.enabled,
    settings.salesforce.instanceUrl,
    settings.salesforce.clientId,
    settings.salesforce.secretLast4,
    settings.salesforce.enabled,
  ].join(':')
  return (
    <SignedInLayout>
      <ApiSettingsPage key={saved} settings={settings} />
    </SignedInLayout>
  )
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: API_SETTINGS_MESSAGES.loadFailed }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
