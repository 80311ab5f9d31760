import type { LoaderFunctionArgs } from '@remix-run/node'
import { googleWalletResponse } from '#app/cards/google-wallet.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  googleWalletResponse(request, context, params.ref ?? '')
