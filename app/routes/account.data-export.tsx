// "Download my data" (ADR 052) for every signed-in role: the newest export's state, which the
// profile's panel polls, and the request that queues one.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { loadDataExportStatus, requestDataExport } from '#app/data-export/data-export.server'
import { DataExportRequestSchema } from '#app/validation/data-export-form'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  loadDataExportStatus(request, context)

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, {
    guard: () => requireUser(request, context),
    schema: DataExportRequestSchema,
    redirectTo: '/profile?tab=security',
    handle: (value, { tenant, user }) => requestDataExport(tenant, user, value.redirectTo),
  })
}
