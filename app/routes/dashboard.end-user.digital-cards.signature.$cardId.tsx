// The email signature builder of both card areas: /dashboard/team-member/digital-cards/signature/…
// re-exports it.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { cardAreaOfPath } from '#app/cards/card-paths'
import { signatureBuilderLoader } from '#app/cards/email-signature-route.server'
import { SignatureBuilderPage } from '#app/components/cards/signature-builder-page'
import { RouteLoadError } from '#app/components/layout/route-error'

export const meta: MetaFunction = () => [{ title: 'Email Signature' }]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  signatureBuilderLoader(
    request,
    context,
    cardAreaOfPath(new URL(request.url).pathname),
    params.cardId ?? '',
  )

export default function EmailSignature() {
  return <SignatureBuilderPage {...useLoaderData<typeof loader>()} />
}

/** What a failed load says, here or in a layout's boundary. */
export const handle = { loadError: 'Failed to load your email signature' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
