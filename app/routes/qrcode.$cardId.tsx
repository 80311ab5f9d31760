import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { shareLoader } from '#app/cards/share.server'
import { SharePage } from '#app/components/cards/share-page'

export const meta: MetaFunction = () => [{ title: 'Share card' }]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  shareLoader(request, context, params.cardId ?? '')

export default function QrCodeCardPage() {
  return <SharePage {...useLoaderData<typeof loader>()} />
}
