// Spec §2.6: the path picks the variant; /settings/role and any other path show the default,
// the end-user variant, to every role (each also reaches its own through the sidebar and menu).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { endUserSettingsAction, loadEndUserSettings } from '#app/settings/settings-route.server'

export { default, ErrorBoundary, handle, meta, shouldRevalidate } from './settings.end-user'

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await loadEndUserSettings(request, context, 'anyone')
}

export async function action({ request, context }: ActionFunctionArgs) {
  return endUserSettingsAction(request, context, 'anyone')
}
