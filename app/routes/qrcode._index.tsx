import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { shareLoader } from '#app/cards/share.server'
import { SharePage } from '#app/components/cards/share-page'

export const meta: MetaFunction = () => [{ title: 'My QR Code' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  shareLoader(request, context, null)

export default function QrCodePage() {
  return <SharePage {...useLoaderData<typeof loader>()} />
}
