// A card's email signature as HTML, or as plain text (/card/{ref}/signature.txt re-exports this):
// the extension decides. Its owner's only (app/cards/email-signature-route.server.ts).
import type { LoaderFunctionArgs } from '@remix-run/node'
import { signatureResponse } from '#app/cards/email-signature-route.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  signatureResponse(
    request,
    context,
    params.ref ?? '',
    new URL(request.url).pathname.endsWith('.txt') ? 'txt' : 'html',
  )
