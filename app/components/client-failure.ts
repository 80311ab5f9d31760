// When a request fails on the client (no network, a proxy's 502, the database's 503), the page
// keeps what it shows and says which action failed (spec §8), instead of swapping itself for an
// error screen. Server answers the page handles itself (4xx data, redirects, 401/403/404) pass through.
import type { ClientActionFunctionArgs, ShouldRevalidateFunction } from '@remix-run/react'
import { isRouteErrorResponse } from '@remix-run/react'
import { useEffect } from 'react'
import { toast } from '#app/components/ui/toasts'

export type ClientFailure = { clientFailure: true; intent: string; ok: false; message: null }

export function isClientFailure(value: unknown): value is ClientFailure {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { clientFailure?: unknown }).clientFailure === true
  )
}

/** A failure of the request itself (network, 5xx), as opposed to an answer the page handles. */
export function isRequestFailure(error: unknown) {
  if (error instanceof Response) return error.status >= 500
  if (isRouteErrorResponse(error)) return error.status >= 500
  return error instanceof Error
}

/** A clientAction: the server action, or a ClientFailure naming the form's intent. */
export async function serverActionOrFailure({ request, serverAction }: ClientActionFunctionArgs) {
  const intent = String((await request.clone().formData()).get('intent') ?? '')
  try {
    return await serverAction()
  } catch (error) {
    if (!isRequestFailure(error)) throw error
    const failure: ClientFailure = { clientFailure: true, intent, ok: false, message: null }
    return failure
  }
}

/** After a failed request the page keeps its data: reloading it would fail the same way. */
export const keepDataAfterClientFailure: ShouldRevalidateFunction = ({
  actionResult,
  defaultShouldRevalidate,
}) => (isClientFailure(actionResult) ? false : defaultShouldRevalidate)

/** Shows the spec's failure toast for the intent that failed. */
export function useClientFailureToast(
  data: unknown,
  messages: Record<string, string>,
  fallback: string,
) {
  useEffect(() => {
    if (isClientFailure(data)) toast.error(messages[data.intent] ?? fallback)
  }, [data, messages, fallback])
}
