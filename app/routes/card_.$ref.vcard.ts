import type { LoaderFunctionArgs } from '@remix-run/node'
import { vcardResponse } from '#app/cards/card-files.server'

export const loader = ({ context, params }: LoaderFunctionArgs) =>
  vcardResponse(context, params.ref ?? '')
