import type { LoaderFunctionArgs } from '@remix-run/node'
import { ogImageResponse } from '#app/cards/og-image.server'

// A public card's link preview image, addressed by a hash of what it shows (ADR 024).
export const loader = ({ context, params }: LoaderFunctionArgs) =>
  ogImageResponse(context, params.ref ?? '', params.file ?? '')
