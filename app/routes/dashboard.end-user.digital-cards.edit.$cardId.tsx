// The card editor of both card areas: /dashboard/team-member/digital-cards/edit/… re-exports it.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { cardAreaOfPath } from '#app/cards/card-paths'
import { cardEditAction, cardEditLoader } from '#app/cards/cards-route.server'
import { CardEditorPage } from '#app/components/cards/card-editor-page'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'

export const meta: MetaFunction = () => [{ title: 'Edit Digital Card' }]

const areaOf = (request: Request) => cardAreaOfPath(new URL(request.url).pathname)

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  cardEditLoader(request, context, areaOf(request), params.cardId ?? '')

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  cardEditAction(request, context, areaOf(request), params.cardId ?? '')

export default function EditDigitalCard() {
  return <CardEditorPage {...useLoaderData<typeof loader>()} />
}

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load your digital cards' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
