import { parseWithZod } from '@conform-to/zod/v4'
import {
  type ActionFunctionArgs,
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import {
  AgencyActionError,
  changeAgencyApproval,
  changeAgencyStatus,
  createAgency,
  editAgency,
  loadAgencies,
  removeAgency,
} from '#app/agencies/agencies.server'
import { requirePlatformAdmin } from '#app/auth/guards.server'
import { AgenciesPage } from '#app/components/agencies/agencies-page'
import { RouteLoadError } from '#app/components/layout/route-error'
import { readPlainForm } from '#app/media/uploads.server'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/utils/client-failure'
import { redirectWithToast } from '#app/utils/toast.server'
import { AgencyIntentSchema } from '#app/validation/agencies'

export const meta: MetaFunction = () => [{ title: 'Agencies' }]

const PATH = '/dashboard/super-admin/agencies'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { platformScope } = await requirePlatformAdmin(request, context)
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 100)
  return json({ q, agencies: await loadAgencies(platformScope, q) })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { tenant, user, platformScope } = await requirePlatformAdmin(request, context)
  const submission = parseWithZod(await readPlainForm(request), { schema: AgencyIntentSchema })
  if (submission.status !== 'success') {
    const errors = Object.values(submission.error ?? {}).flat()
    return json(
      {
        result: submission.reply(),
        intent: submission.payload.intent ?? null,
        error: errors[0] ?? 'Please check the form',
      },
      { status: 400 },
    )
  }
  const value = submission.value
  const acting = { tenant, userId: user.id, grant: platformScope }
  let done: { toast: string }
  try {
    switch (value.intent) {
      case 'create':
        done = await createAgency(acting, value)
        break
      case 'update':
        done = await editAgency(acting, value)
        break
      case 'delete':
        done = await removeAgency(acting, value.agencyId)
        break
      case 'activate':
      case 'deactivate':
        done = await changeAgencyStatus(acting, value.agencyId, value.intent)
        break
      case 'approve':
      case 'reject':
        done = await changeAgencyApproval(acting, value.agencyId, value.intent)
        break
    }
  } catch (error) {
    if (!(error instanceof AgencyActionError)) throw error
    return json(
      {
        result: submission.reply(
          error.field
            ? { fieldErrors: { [error.field]: [error.message] } }
            : { formErrors: [error.message] },
        ),
        intent: value.intent,
        error: error.message,
      },
      { status: error.status },
    )
  }
  const url = new URL(request.url)
  return redirectWithToast(`${PATH}${url.search}`, { title: done.toast })
}

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function AgenciesRoute() {
  return <AgenciesPage {...useLoaderData<typeof loader>()} />
}

export function ErrorBoundary() {
  return <RouteLoadError message="Failed to load agencies" />
}
