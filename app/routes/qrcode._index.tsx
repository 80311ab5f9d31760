import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ownShareLoader } from '#app/cards/share-route.server'
import { SharePage } from '#app/components/cards/share-page'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'

export const meta: MetaFunction = () => [{ title: 'My QR Code' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => ownShareLoader(request, context)

export default function QrCodePage() {
  return (
    <SignedInLayout>
      <SharePage {...useLoaderData<typeof loader>()} />
    </SignedInLayout>
  )
}
