import type { LoaderFunctionArgs } from '@remix-run/node'
import { virtualBackgroundResponse } from '#app/cards/virtual-background.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  virtualBackgroundResponse(request, context, params.ref ?? '')
