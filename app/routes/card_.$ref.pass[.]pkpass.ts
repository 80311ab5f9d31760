import type { LoaderFunctionArgs } from '@remix-run/node'
import { cardPassResponse } from '#app/wallet/apple-pass.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  cardPassResponse(request, context, params.ref ?? '')
