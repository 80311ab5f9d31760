import type { LoaderFunctionArgs } from '@remix-run/node'
import { linkTapResponse } from '#app/cards/link-taps.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  linkTapResponse(request, context, params.ref ?? '', params.linkId ?? '')
