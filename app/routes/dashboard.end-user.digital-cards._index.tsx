// The digital cards list of both card areas: /dashboard/team-member/digital-cards re-exports it.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { offerSignedInCache } from '#app/cache/signed-in-page-cache.server'
import { cardAreaOfPath, cardsListPath } from '#app/cards/card-paths'
import { cardsListAction, cardsListLoader } from '#app/cards/cards-route.server'
import { CardsListPage } from '#app/components/cards/cards-list-page'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'

export const meta: MetaFunction = () => [{ title: 'Digital Cards' }]

const areaOf = (request: Request) => cardAreaOfPath(new URL(request.url).pathname)

export const loader = ({ request, context }: LoaderFunctionArgs) => {
  offerSignedInCache(context)
  return cardsListLoader(request, context, areaOf(request))
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  cardsListAction(request, context, areaOf(request))

export default function DigitalCards() {
  const { cards, area } = useLoaderData<typeof loader>()
  return <CardsListPage cards={cards} listPath={cardsListPath(area)} />
}

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load your digital cards' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
