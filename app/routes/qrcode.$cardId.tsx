import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { cardShareLoader } from '#app/cards/share-route.server'
import { SharePage } from '#app/components/cards/share-page'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data?.status === 'card'
    ? [{ title: 'Share card' }, { name: 'robots', content: 'noindex' }]
    : [{ title: 'Card Not Found' }, { name: 'robots', content: 'noindex' }]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  cardShareLoader(request, context, params.cardId ?? '')

export default function QrCodeCardPage() {
  // A visitor (signed out) sees the card's QR screen alone; a signed-in viewer, in the sidebar.
  return (
    <SignedInLayout>
      <SharePage {...useLoaderData<typeof loader>()} />
    </SignedInLayout>
  )
}
