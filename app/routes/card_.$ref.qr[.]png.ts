// The card's QR code as PNG or SVG (/card/{ref}/qr.svg re-exports this): the extension decides.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { qrResponse } from '#app/cards/card-files.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  qrResponse(request, context, params.ref ?? '', extensionOf(request) === 'svg' ? 'svg' : 'png')

const extensionOf = (request: Request) => new URL(request.url).pathname.split('.').pop()
