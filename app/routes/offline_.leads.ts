import type { ActionFunctionArgs } from '@remix-run/node'
import { offlineLeadAction } from '#app/leads/offline-route.server'

// The offline page's queue sends its leads here, one at a time, as JSON answers (ADR 104).
export const action = ({ request, context }: ActionFunctionArgs) =>
  offlineLeadAction(request, context)

export function loader() {
  throw new Response('Method Not Allowed', { status: 405 })
}
