import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { intentAction } from '#app/actions/intent-action.server'
import {
  changeAgencyApproval,
  changeAgencyStatus,
  createAgency,
  editAgency,
  loadAgencies,
  removeAgency,
} from '#app/agencies/manage-agencies.server'
import { requirePlatformAdmin } from '#app/auth/guards.server'
import { AgenciesPage } from '#app/components/agencies/agencies-page'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { AgencyIntentSchema } from '#app/validation/agencies'
import { readSearch } from '#app/validation/search'

export const meta: MetaFunction = () => [{ title: 'Agencies' }]

const PATH = '/dashboard/super-admin/agencies'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { platformScope } = await requirePlatformAdmin(request, context)
  const { q, searchError } = readSearch(new URL(request.url).searchParams)
  const agencies = searchError ? [] : await loadAgencies(platformScope, q)
  return data({ q, searchError, agencies })
}

export async function action({ request, context }: ActionFunctionArgs) {
  return intentAction(request, {
    guard: async () => {
      const { tenant, user, platformScope } = await requirePlatformAdmin(request, context)
      return { tenant, userId: user.id, grant: platformScope }
    },
    schema: AgencyIntentSchema,
    intents: {
      create: (value, acting) => createAgency(acting, value),
      update: (value, acting) => editAgency(acting, value),
      delete: (value, acting) => removeAgency(acting, value.agencyId),
      activate: (value, acting) => changeAgencyStatus(acting, value.agencyId, value.intent),
      deactivate: (value, acting) => changeAgencyStatus(acting, value.agencyId, value.intent),
      approve: (value, acting) => changeAgencyApproval(acting, value.agencyId, value.intent),
      reject: (value, acting) => changeAgencyApproval(acting, value.agencyId, value.intent),
    },
    // Back to the list as it was searched.
    redirectTo: `${PATH}${new URL(request.url).search}`,
  })
}

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export default function AgenciesRoute() {
  return <AgenciesPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load agencies' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
