// Paid plans asked for where nobody pays online (issue 41 point 4, ADR 079): the admins answer
// each in one click, on their End Users screen; the person is emailed either way.
import { useFetcher } from '@remix-run/react'
import { Clock } from 'lucide-react'
import { useEffect } from 'react'
import { isClientFailure } from '#app/components/client-failure'
import { Badge } from '#app/components/ui/badge'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import { ROLE_NAMES, type Role } from '#app/validation/roles'

export type PlanRequestView = {
  id: string
  planName: string
  price: number
  name: string
  email: string
  role: Role
  createdAt: string
}

export function PlanRequestsPanel({
  requests,
  canDecide,
}: {
  requests: PlanRequestView[]
  /** False for someone who may only look (an agency member). */
  canDecide: boolean
}) {
  if (requests.length === 0) return null
  return (
    <section
      id="plan-requests"
      aria-labelledby="plan-requests-heading"
      className="flex scroll-mt-4 flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50/60 p-4 dark:border-amber-800 dark:bg-amber-950/40"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="plan-requests-heading" className="text-lg font-semibold">
          Plan requests
        </h2>
        <Badge tone="amber">{`${requests.length} waiting`}</Badge>
      </div>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Online payment is not available here, so these people ask you for a paid plan. Grant applies
        it at once; either way they get an email with your answer.
      </p>
      <ul className="divide-y divide-amber-200 rounded-lg border border-amber-200 bg-white dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900">
        {requests.map((request) => (
          <PlanRequestRow key={request.id} request={request} canDecide={canDecide} />
        ))}
      </ul>
    </section>
  )
}

function PlanRequestRow({ request, canDecide }: { request: PlanRequestView; canDecide: boolean }) {
  const fetcher = useFetcher<{ error?: string | null }>()
  const deciding = fetcher.formData?.get('decision')
  // A refusal (another admin answered first) or a lost request says so; a success toasts.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (isClientFailure(fetcher.data)) toast.error('Failed to answer the request')
    else if (fetcher.data.error) toast.error(fetcher.data.error)
  }, [fetcher.state, fetcher.data])
  const asked = new Date(request.createdAt)
  return (
    <li
      data-testid="plan-request-row"
      className="flex flex-col gap-3 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="min-w-0">
        <p className="break-words">
          <span className="font-medium">{request.name}</span>{' '}
          <span className="text-gray-600 dark:text-gray-400">
            ({ROLE_NAMES[request.role]}, <span className="break-all">{request.email}</span>)
          </span>
        </p>
        <p className="flex items-center gap-1 text-gray-700 dark:text-gray-300">
          <Clock aria-hidden className="h-3.5 w-3.5 shrink-0" />
          <span>
            Asks for <strong>{request.planName}</strong> (${request.price}/month) since{' '}
            <time dateTime={asked.toISOString()}>{asked.toLocaleDateString()}</time>
          </span>
        </p>
      </div>
      {canDecide ? (
        <fetcher.Form method="POST" className="flex shrink-0 gap-2">
          <input type="hidden" name="intent" value="decide-plan-request" />
          <input type="hidden" name="requestId" value={request.id} />
          <StatusButton
            size="sm"
            variant="secondary"
            name="decision"
            value="declined"
            pending={deciding === 'declined'}
            pendingText="Declining..."
            disabled={Boolean(deciding)}
            aria-label={`Decline ${request.planName} for ${request.name}`}
          >
            Decline
          </StatusButton>
          <StatusButton
            size="sm"
            name="decision"
            value="granted"
            pending={deciding === 'granted'}
            pendingText="Granting..."
            disabled={Boolean(deciding)}
            aria-label={`Grant ${request.planName} to ${request.name}`}
          >
            Grant
          </StatusButton>
        </fetcher.Form>
      ) : null}
    </li>
  )
}
