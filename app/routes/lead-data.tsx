import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import {
  LeadDataDeleted,
  LeadDataPage,
  LeadLinkInvalid,
} from '#app/components/leads/lead-data-page'
import { toast } from '#app/components/ui/toasts'
import { LEAD_DATA_DELETED } from '#app/leads/lead-data'
import { leadDataAction, leadDataLoader } from '#app/leads/lead-data-route.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = () => [
  { title: 'Your data' },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) => leadDataLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => leadDataAction(request, context)

export default function LeadData() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as
    | { deleted?: boolean; error?: string | null }
    | undefined
  const deleted = Boolean(actionData?.deleted)
  useEffect(() => {
    if (deleted) toast.success(LEAD_DATA_DELETED)
  }, [deleted])
  if (deleted) return <LeadDataDeleted message={LEAD_DATA_DELETED} />
  if (data.status === 'invalid') return <LeadLinkInvalid message={data.message} />
  return <LeadDataPage lead={data.lead} error={actionData?.error} />
}
