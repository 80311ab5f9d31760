import type { LoaderFunctionArgs } from '@remix-run/node'
import { iconResponse } from '#app/branding/app-icons.server'

// The host's app icons, addressed by a hash of the branding they show (ADR 024).
export const loader = ({ context, params }: LoaderFunctionArgs) =>
  iconResponse(context, params.file ?? '')
