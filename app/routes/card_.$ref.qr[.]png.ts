import type { LoaderFunctionArgs } from '@remix-run/node'
import { qrResponse } from '#app/cards/card-files.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  qrResponse(request, context, params.ref ?? '', 'png')
