import type { LoaderFunctionArgs } from '@remix-run/node'
import { manifestResponse } from '#app/branding/app-icons.server'

// The host's web app manifest: its name, colours and icons (ADR 024).
export const loader = ({ context }: LoaderFunctionArgs) => manifestResponse(context)
