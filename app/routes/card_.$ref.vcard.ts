import type { LoaderFunctionArgs } from '@remix-run/node'
import { vcardResponse } from '#app/cards/card-files.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  vcardResponse(request, context, params.ref ?? '')
